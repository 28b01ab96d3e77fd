"""The checks of declared arguments: the constructor's arguments, choices, bounds and ``check``, each once,
every error naming the class (its short name), the argument and the value."""

from __future__ import annotations

import dataclasses
import inspect
import numbers
import warnings
from collections.abc import Iterable
from typing import Any

from pyterrier_rag_axioms.declaration._fields import declared, declared_parameter, label_of


def check_choice(value: Any, choices: Iterable[Any], owner: str, what: str) -> Any:
    """``value`` where it is one of ``choices``, else a ``ValueError``: ``owner: what must be one of ..., not ...``."""
    choices = tuple(choices)
    if value not in choices:
        raise ValueError(f"{owner}: {what} must be one of {', '.join(map(repr, choices))}, not {value!r}")
    return value


def describe_bounds(field: dataclasses.Field) -> str:
    """What a bounded parameter takes, e.g. ``a whole number >= 1`` or ``a number from 0 to 1``."""
    least, most, whole = field.metadata["bounds"]
    kind = "a whole number" if whole else "a number"
    if least is not None and most is not None:
        return f"{kind} from {least:g} to {most:g}"
    return kind + (f" >= {least:g}" if least is not None else "") + (f" <= {most:g}" if most is not None else "")


def within_bounds(field: dataclasses.Field, value: Any) -> bool:
    """Whether ``value`` is a number (a whole one where declared) within the bounds of ``field``."""
    least, most, whole = field.metadata["bounds"]
    if type(value) is int or (type(value) is float and not whole):  # the common case, without ABC checks
        number = True
    else:
        number = not isinstance(value, bool) and isinstance(value, numbers.Integral if whole else numbers.Real)
    return number and (least is None or value >= least) and (most is None or value <= most)


def _check_argument(owner: Any, field: dataclasses.Field, value: Any, label: str) -> None:
    choices = field.metadata.get("choices")
    if choices is not None:
        check_choice(value, choices, label, field.name)
    bounds = field.metadata.get("bounds")
    if bounds is not None and not (value is None and field.default is None) and not within_bounds(field, value):
        optional = " or None" if field.default is None else ""
        raise ValueError(f"{label}: {field.name} must be {describe_bounds(field)}{optional}, not {value!r}")
    check = field.metadata.get("check")
    if check is not None:
        check(owner, value)


def check_arguments(owner: Any, label: str | None = None, **arguments: Any) -> None:
    """Check ``arguments`` against the declared choices, bounds and checks of ``owner`` (an object or
    class), e.g. for a transformer that passes them on; errors name ``label`` (default: ``owner``)."""
    for name, value in arguments.items():
        _check_argument(owner, declared_parameter(owner, name), value, label or label_of(owner))


def resolve_parameters(owner: Any) -> None:
    """Check every argument (choices, bounds, ``check``), then replace each by its resolved value (see
    :func:`~pyterrier_rag_axioms.declaration.parameter`), so a resolver may read any checked argument.
    The declared constructor calls it."""
    fields = declared(owner)
    label = label_of(owner)
    for field in fields:
        _check_argument(owner, field, getattr(owner, field.name), label)
    for field in fields:
        resolve = field.metadata.get("resolve")
        if resolve is not None:
            object.__setattr__(owner, field.name, resolve(owner, getattr(owner, field.name)))


def deprecated_keywords(owner: Any, keywords: dict[str, Any], aliases: dict[str, str]) -> dict[str, Any]:
    """``keywords`` with each deprecated name of ``aliases`` (old name: parameter) given under its parameter's,
    with a ``DeprecationWarning`` (``owner: old= is now called new=``) pointing at the constructor's caller;
    a ``TypeError`` where both names are given. The declared constructor calls it."""
    label = label_of(owner)
    renamed = dict(keywords)
    for old, new in aliases.items():
        if old not in renamed:
            continue
        if new in renamed:
            raise TypeError(f"{label}: {old}= is now called {new}=; pass {new}= alone")
        warnings.warn(f"{label}: {old}= is now called {new}=", DeprecationWarning, stacklevel=3)
        renamed[new] = renamed.pop(old)
    return renamed


def unaccepted_arguments(owner: Any, signature: inspect.Signature, positional: tuple, keywords: dict) -> str | None:
    """Why ``signature`` (a declared constructor's, with ``self``) does not take ``positional`` and
    ``keywords``, in words naming the class and the arguments it takes; ``None`` where the reason is
    another (a missing argument, too many positional ones: Python's own words then say it)."""
    label = label_of(owner)
    accepted = list(signature.parameters.values())[1:]
    names = [declared.name for declared in accepted if declared.kind is not inspect.Parameter.VAR_POSITIONAL]
    required = {declared.name for declared in accepted if declared.default is inspect.Parameter.empty}
    names.sort(key=lambda name: name not in required)  # the required ones first
    takes_positional = any(declared.kind is not inspect.Parameter.KEYWORD_ONLY for declared in accepted)
    if positional and not takes_positional and names:
        plural = "s" if len(positional) > 1 else ""
        return (
            f"{label} takes keyword arguments only, e.g. {label}({names[0]}=...), "
            f"but got {len(positional)} positional argument{plural}: {', '.join(map(repr, positional))}"
        )
    unknown = [name for name in keywords if name not in names]
    for field in declared(owner):
        for name in field.metadata.get("formerly", ()):
            if name in unknown:
                return f"{label}: {name}= is now called {field.name}=; pass {field.name}={keywords[name]!r}"
    if unknown:
        return f"{label} has no argument {unknown[0]!r}; its arguments: {', '.join(names) or 'none'}"
    return None
