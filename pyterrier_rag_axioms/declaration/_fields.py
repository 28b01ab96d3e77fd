"""The declaration of one parameter (:func:`parameter`: its role, choices, bounds, resolver) and how to read it."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

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
    shown_for: Callable[[Any, Any], Any] | None = None,
    always_shown: bool = False,
    in_repr: bool = True,
    hidden: bool = False,
    keyed: bool | None = None,
    positional: bool = False,
    variadic: bool = False,
    init: bool = True,
    formerly: Iterable[str] = (),
    deprecated: Iterable[str] = (),
) -> Any:
    """Declare one constructor parameter of a :func:`~pyterrier_rag_axioms.declaration.parameters` class.

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
        shown_for: instead of ``shown``, ``shown_for(owner, value)``, for a value that shows by the
            owner's other parameters (e.g. a function by the name given for it).
        always_shown: show the value in ``repr`` even where it is the default's.
        in_repr: ``False`` leaves the parameter out of ``repr`` alone (it is still saved, compared and,
            for a shared tool, part of its configuration).
        hidden: never shown nor saved, nor part of a shared tool's configuration (e.g. ``verbose``); still copied.
        keyed: whether the parameter is part of the object's value key (default: values and tools).
        positional: given positionally (shown without its name).
        variadic: the ``*members`` of the constructor (each shown and given positionally).
        init: ``False`` for a field the constructor does not take (fixed by the class).
        formerly: the parameter's earlier names: the constructor refuses each, naming this one.
        deprecated: earlier names the constructor still takes for now, each with a ``DeprecationWarning``
            naming this one (until they move to ``formerly``).
    """
    if role not in ROLES:
        raise ValueError(f"parameter: role must be one of {', '.join(ROLES)}, not {role!r}")
    if shown is not None and shown_for is not None:
        raise ValueError("parameter: give shown or shown_for, not both")
    metadata = {
        "role": role,
        "choices": None if choices is None else tuple(choices),
        "bounds": None if at_least is None and at_most is None and not whole else (at_least, at_most, whole),
        "check": check,
        "resolve": resolve,
        "shown": shown,
        "shown_for": shown_for,
        "always_shown": always_shown,
        "hidden": hidden,
        "keyed": role in (VALUE, TOOL) if keyed is None else keyed,
        "positional": positional or variadic,
        "variadic": variadic,
        "formerly": tuple(formerly),
        "deprecated": tuple(deprecated),
    }
    return dataclasses.field(default=default, init=init, repr=in_repr, metadata=metadata)


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
    raise KeyError(f"{label_of(owner)} declares no parameter {name!r}")


def choices_of(owner: Any, name: str) -> tuple[Any, ...]:
    """The allowed arguments of a declared parameter (e.g. for the command line's ``choices=``)."""
    return declared_parameter(owner, name).metadata.get("choices") or ()


def configuration_of(cls: type) -> tuple[str, ...]:
    """The declared parameters that make a shared tool's configuration: all but the hidden ones, in order."""
    if not dataclasses.is_dataclass(cls):
        return ()
    return tuple(field.name for field in declared(cls) if not field.metadata.get("hidden"))


def label_of(owner: Any) -> str:
    """The name errors and ``repr`` give an object or class: its ``short_name`` (an axiom's), else its class's name."""
    kind = owner if isinstance(owner, type) else type(owner)
    return getattr(kind, "short_name", None) or kind.__name__
