"""The one declaration of a configurable object's parameters, read by everything that needs them.

Decorate the class with :func:`parameters` and give each constructor parameter as an annotated class
attribute whose default is :func:`parameter`, with its role, choices, bounds and resolver::

    @parameters
    class Example(FeatureAxiom):
        #: How many words a sentence needs.
        min_words: int = parameter(3, whole=True, at_least=1)
        #: How terms are reduced (checked against the choices).
        stemmer: str = parameter("lemma", choices=("lemma", "porter"))
        #: The spaCy analyzer, a tool named by its model.
        analyzer: TextAnalyzer | str | None = parameter(None, role=TOOL, resolve=resolve_tool(resolve_text_analyzer))

Roles: :data:`VALUE` (changes what the object computes; in its value key and saved), :data:`DECISION` (how
values become a decision, e.g. a margin; saved), :data:`PRESENTATION` (the column name; progress bars,
``hidden``) and :data:`TOOL` (a model, analyzer or server: shown and saved by the name that resolves to it).
The declaration builds the constructor (a declared class writes no ``__init__``): positional, variadic
(``*members``), then keyword parameters; it stores each argument under its name, checks them all (choices,
bounds, ``check``), resolves them (``resolve``) and calls ``__post_init__`` for derived state. ``repr``
(:func:`declared_repr`), copies (:func:`replaced`), files (:func:`saved_arguments`), value keys
(:func:`keyed_parameters`), :func:`check_arguments` and the command line (``cli/_declared_option.py``) read it.
"""

from __future__ import annotations

import dataclasses
import inspect
import numbers
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

import pandas as pd

T = TypeVar("T")

#: A parameter that changes what the object computes.
VALUE = "value"
#: A parameter that changes only how computed values become a decision (e.g. a margin).
DECISION = "decision"
#: A parameter that changes how results are shown or named, never what they are.
PRESENTATION = "presentation"
#: A tool: a model, an analyzer, a server; named by a model name, path or URL.
TOOL = "tool"
ROLES = (VALUE, DECISION, PRESENTATION, TOOL)

#: The default of a parameter that must be given.
REQUIRED: Any = dataclasses.MISSING


class UnnamedToolError(ValueError):
    """A tool built in memory that no name or path resolves to, so it cannot be saved."""


def check_choice(value: Any, choices: Iterable[Any], owner: str, what: str) -> Any:
    """``value`` where it is one of ``choices``, else a ``ValueError``: ``owner: what must be one of ..., not ...``."""
    choices = tuple(choices)
    if value not in choices:
        raise ValueError(f"{owner}: {what} must be one of {', '.join(map(repr, choices))}, not {value!r}")
    return value


def parameter(
    default: Any = REQUIRED,
    *,
    role: str = VALUE,
    choices: Iterable[Any] | None = None,
    at_least: float | None = None,
    at_most: float | None = None,
    whole: bool = False,
    check: Callable[[Any, Any], None] | None = None,
    resolve: Callable[[Any, Any], Any] | None = None,
    shown: Callable[[Any], Any] | None = None,
    always_shown: bool = False,
    hidden: bool = False,
    keyed: bool | None = None,
    positional: bool = False,
    variadic: bool = False,
    init: bool = True,
) -> Any:
    """Declare one constructor parameter of a :func:`parameters` class.

    Args:
        default: the default argument (:data:`REQUIRED`: none).
        role: :data:`VALUE` (default), :data:`DECISION`, :data:`PRESENTATION` or :data:`TOOL`.
        choices: the allowed arguments, checked when the object is built and offered by the command line.
        at_least, at_most, whole: a number argument's bounds (and whether it must be whole; ``None``
            passes only where it is the default), checked when the object is built and by the command line.
        check: ``check(owner, argument)`` raises for an argument the bounds cannot describe (before any is resolved).
        resolve: ``resolve(owner, argument)`` gives the value stored under the parameter's name
            (e.g. a shared tool for a model name); applied once, after all arguments are set.
        shown: how the stored value shows in ``repr`` and files (default: itself; a tool: its name).
        always_shown: show the value in ``repr`` even where it is the default's.
        hidden: never shown nor saved (e.g. ``verbose``); still copied.
        keyed: whether the parameter is part of the object's value key (default: values and tools).
        positional: given positionally (shown without its name).
        variadic: the ``*members`` of the constructor (each shown and given positionally).
        init: ``False`` for a field the constructor does not take (fixed by the class).
    """
    if role not in ROLES:
        raise ValueError(f"parameter: role must be one of {', '.join(ROLES)}, not {role!r}")
    metadata = {
        "role": role,
        "choices": None if choices is None else tuple(choices),
        "bounds": None if at_least is None and at_most is None and not whole else (at_least, at_most, whole),
        "check": check,
        "resolve": resolve,
        "shown": shown,
        "always_shown": always_shown,
        "hidden": hidden,
        "keyed": role in (VALUE, TOOL) if keyed is None else keyed,
        "positional": positional or variadic,
        "variadic": variadic,
    }
    return dataclasses.field(default=default, init=init, metadata=metadata)


def parameters(cls: type[T] | None = None, /, *, frozen: bool = False, eq: bool = False) -> Any:
    """Declare a class's annotated attributes as its constructor parameters; the declaration builds the
    constructor (see the module). ``@parameters(frozen=True, eq=True)`` declares a value object: its fields
    cannot be set after construction, and objects with equal fields are equal (and hash alike)."""

    def declare(cls: type[T]) -> type[T]:
        if "__init__" in cls.__dict__:
            raise TypeError(f"{cls.__name__}: a declared class takes its constructor from its declaration")
        cls = dataclasses.dataclass(kw_only=True, eq=eq, frozen=frozen, repr=False, init=False)(cls)
        cls.__init__ = _constructor(cls)  # type: ignore[misc]
        return cls

    return declare if cls is None else declare(cls)


def _signature(cls: type) -> inspect.Signature:
    """The constructor's signature: ``self``, the positional parameters, ``*members``, then the keywords."""
    listed = []
    for field in declared(cls):
        kind, annotation = inspect.Parameter.KEYWORD_ONLY, field.type
        default = inspect.Parameter.empty if field.default is REQUIRED else field.default
        if field.metadata.get("variadic"):  # annotated with the type of one member
            kind, default = inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.empty
            annotation = str(annotation).removeprefix("tuple[").removesuffix(", ...]")
        elif field.metadata.get("positional"):
            kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
        listed.append(inspect.Parameter(field.name, kind, default=default, annotation=annotation))
    listed.sort(key=lambda item: item.kind)  # positional, then variadic, then keyword-only (stable)
    self = inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY)
    return inspect.Signature([self, *listed], return_annotation=None)


def _constructor(cls: type) -> Callable[..., None]:
    signature = _signature(cls)
    fields = declared(cls)

    def __init__(self: Any, *positional: Any, **keywords: Any) -> None:
        try:
            arguments = signature.bind(self, *positional, **keywords)
        except TypeError as error:
            raise TypeError(f"{_label(self)}: {error}") from None
        arguments.apply_defaults()
        for field in fields:
            value = arguments.arguments[field.name]
            object.__setattr__(self, field.name, tuple(value) if field.metadata.get("variadic") else value)
        resolve_parameters(self)
        if hasattr(self, "__post_init__"):
            self.__post_init__()

    __init__.__signature__ = signature  # type: ignore[attr-defined]
    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def declared(owner: Any) -> tuple[dataclasses.Field, ...]:
    """The declared constructor parameters of an object or class, in declaration order."""
    return tuple(declared for declared in dataclasses.fields(owner) if declared.init)


def declares(owner: Any, name: str) -> bool:
    """Whether an object or class declares the parameter ``name`` (``False`` for one that declares none)."""
    return dataclasses.is_dataclass(owner) and any(field.name == name for field in declared(owner))


def declared_parameter(owner: Any, name: str) -> dataclasses.Field:
    """One declared parameter by name (``KeyError`` naming the declared ones otherwise)."""
    for field in declared(owner):
        if field.name == name:
            return field
    raise KeyError(f"{_label(owner)} declares no parameter {name!r}")


def choices_of(owner: Any, name: str) -> tuple[Any, ...]:
    """The allowed arguments of a declared parameter (e.g. for the command line's ``choices=``)."""
    return declared_parameter(owner, name).metadata.get("choices") or ()


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
        _check_argument(owner, declared_parameter(owner, name), value, label or _label(owner))


def resolve_parameters(owner: Any) -> None:
    """Check every argument (choices, bounds, ``check``), then replace each by its resolved value (see
    :func:`parameter`), so a resolver may read any checked argument. The declared constructor calls it."""
    for field in declared(owner):
        _check_argument(owner, field, getattr(owner, field.name), _label(owner))
    for field in declared(owner):
        resolve = field.metadata.get("resolve")
        if resolve is not None:
            object.__setattr__(owner, field.name, resolve(owner, getattr(owner, field.name)))


def _label(owner: Any) -> str:
    kind = owner if isinstance(owner, type) else type(owner)
    return getattr(kind, "short_name", None) or kind.__name__


def _default(owner: Any, field: dataclasses.Field) -> Any:
    """The value a parameter stores when its default is given."""
    resolve = field.metadata.get("resolve")
    return field.default if resolve is None else resolve(owner, field.default)


def _shown(owner: Any, field: dataclasses.Field, value: Any) -> Any:
    show = field.metadata.get("shown")
    if show is not None:
        return show(value)
    if field.metadata.get("role") == TOOL:
        try:
            return tool_argument(owner, field, value)
        except UnnamedToolError:
            return value
    return value


def shown_source(source: Any) -> Any:
    """How a frame-or-file argument shows in ``repr`` and is compared (a ``shown=``): a frame as ``'<frame>'``
    (it has no name to evaluate back to), a path as its text, anything else (``None``, a model) as itself."""
    if isinstance(source, pd.DataFrame):
        return "<frame>"
    return str(source) if isinstance(source, str | Path) else source


def same(value: Any, other: Any) -> bool:
    """Whether two parameter values are the same (tools by their configuration; ``False`` where they cannot compare)."""
    if value is other:
        return True
    if hasattr(value, "configuration_key") and hasattr(other, "configuration_key"):
        return type(value) is type(other) and value.configuration_key() == other.configuration_key()
    if isinstance(value, tuple | list) and isinstance(other, tuple | list):
        return len(value) == len(other) and all(same(a, b) for a, b in zip(value, other))
    try:
        return bool(value == other)
    except (TypeError, ValueError):  # e.g. arrays or frames
        return False


def same_parameters(first: Any, second: Any) -> bool:
    """Whether two objects are of one class with the same declared parameters (hidden ones aside),
    compared as stored or as shown (an aspect extraction or a tool by its name)."""
    if type(first) is not type(second):
        return False
    for field in declared(first):
        if field.metadata.get("hidden"):
            continue
        value, other = getattr(first, field.name), getattr(second, field.name)
        if not (same(value, other) or same(_shown(first, field, value), _shown(second, field, other))):
            return False
    return True


def tool_argument(owner: Any, field: dataclasses.Field, tool: Any) -> Any:
    """The argument (``None`` for the default, a model name, path or URL) that resolves to ``tool``
    (``UnnamedToolError`` where none resolves to a tool of the same class and configuration)."""
    if tool is None or isinstance(tool, str | Path):
        return None if tool is None else str(tool)
    resolve = field.metadata.get("resolve")
    configuration = getattr(type(tool), "configuration", ())
    candidates: list[Any] = [None, *(tool.configuration_key()[:1] if configuration else ())]
    for candidate in candidates:
        try:
            if resolve is not None:
                resolved = resolve(owner, candidate)
            elif hasattr(type(tool), "shared") and configuration:
                resolved = type(tool).shared(**{configuration[0]: candidate})
            else:
                continue
        except (TypeError, ValueError):
            continue
        if same(resolved, tool):
            return candidate
    raise UnnamedToolError(
        f"{_label(owner)}: {field.name} is a {type(tool).__name__} built in memory ({tool!r}) that no model name, "
        f"path or URL resolves to, so it cannot be saved; pass the name or path of its model instead"
    )


def _json_ready(value: Any, where: str) -> Any:
    """``value`` as JSON (strings, numbers, booleans, None, lists and string-keyed objects of them)."""
    if value is None or isinstance(value, str | bool | int | float | Path):
        return str(value) if isinstance(value, Path) else value
    if isinstance(value, tuple | list):
        return [_json_ready(item, where) for item in value]
    if isinstance(value, dict) and all(isinstance(key, str) for key in value):
        return {key: _json_ready(item, where) for key, item in value.items()}
    raise ValueError(f"{where} is {value!r}, which cannot be written to a file; give it by name or path")


def saved_arguments(owner: Any, *, leave_out: Iterable[str] = ()) -> dict[str, Any]:
    """The declared arguments of ``owner`` that differ from their defaults, ready for JSON: tools by the
    name or path that resolves to them; hidden parameters (``verbose``) and ``leave_out`` left out.

    Raises:
        UnnamedToolError: a tool was built in memory and has no name.
        ValueError: another value cannot be written as JSON (e.g. a frame).
    """
    saved: dict[str, Any] = {}
    for field in declared(owner):
        if field.metadata.get("hidden") or field.name in leave_out:
            continue
        value = getattr(owner, field.name)
        if field.metadata.get("role") == TOOL and field.metadata.get("shown") is None:
            value = tool_argument(owner, field, value)
        else:
            value = _shown(owner, field, value)
        if field.default is not REQUIRED and same(value, _shown(owner, field, _default(owner, field))):
            continue
        saved[field.name] = _json_ready(value, f"{_label(owner)}: {field.name}")
    return saved


def replaced(owner: T, **changes: Any) -> T:
    """A copy of ``owner`` built from its declared parameters, with ``changes`` (by PyTerrier's
    ``pt.inspect.transformer_apply_attributes``, which reads the declared constructor)."""
    import pyterrier as pt

    unknown = sorted(set(changes) - {field.name for field in declared(owner)})
    if unknown:
        raise TypeError(f"{_label(owner)} has no keyword parameter {unknown[0]!r}")
    return pt.inspect.transformer_apply_attributes(owner, **changes)  # type: ignore[arg-type, return-value]


def declared_repr(owner: Any, label: str | None = None) -> str:
    """``label(p=v, ...)`` from the declaration: required positional parameters always (without their
    names), the others where they differ from their defaults (or are ``always_shown``), hidden ones
    never; ``name`` comes last."""
    parts = []
    for field in sorted(declared(owner), key=lambda field: field.name == "name"):
        if field.metadata.get("hidden"):
            continue
        stored = getattr(owner, field.name)
        if field.metadata.get("variadic"):
            parts.extend(repr(item) for item in stored)
            continue
        value = _shown(owner, field, stored)
        if field.metadata.get("positional") and field.default is REQUIRED:
            parts.append(repr(value))
        elif (
            field.default is REQUIRED
            or field.metadata.get("always_shown")
            or not same(value, _shown(owner, field, _default(owner, field)))
        ):
            parts.append(f"{field.name}={value!r}")
    return f"{label or _label(owner)}({', '.join(parts)})"


def keyed_parameters(owner: Any) -> dict[str, str]:
    """The parameters that change what ``owner`` computes (``keyed`` of :func:`parameter`), as ``repr``."""
    return {field.name: repr(getattr(owner, field.name)) for field in declared(owner) if field.metadata.get("keyed")}
