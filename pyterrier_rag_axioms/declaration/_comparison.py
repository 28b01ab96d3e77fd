"""How declared parameters show (``repr``, a tool by the name that resolves to it) and compare."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pandas as pd

from pyterrier_rag_axioms.declaration._fields import REQUIRED, TOOL, declared, label_of


class UnnamedToolError(ValueError):
    """A tool built in memory that no name or path resolves to, so it cannot be saved."""


def default_value(owner: Any, field: dataclasses.Field) -> Any:
    """The value a parameter stores when its default is given."""
    resolve = field.metadata.get("resolve")
    return field.default if resolve is None else resolve(owner, field.default)


def shown_value(owner: Any, field: dataclasses.Field, value: Any) -> Any:
    """How a stored value shows in ``repr`` and files: by its ``shown`` (or ``shown_for``), a tool by its name,
    else as itself."""
    show = field.metadata.get("shown")
    if show is not None:
        return show(value)
    show_for = field.metadata.get("shown_for")
    if show_for is not None:
        return show_for(owner, value)
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
        if not (same(value, other) or same(shown_value(first, field, value), shown_value(second, field, other))):
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
        f"{label_of(owner)}: {field.name} is a {type(tool).__name__} built in memory ({tool!r}) that no model name, "
        f"path or URL resolves to, so it cannot be saved; pass the name or path of its model instead"
    )


def declared_repr(owner: Any, label: str | None = None) -> str:
    """``label(p=v, ...)`` from the declaration: required positional parameters always (without their
    names), the others where they differ from their defaults (or are ``always_shown``), hidden ones
    and those declared ``in_repr=False`` never; ``name`` comes last."""
    parts = []
    for field in sorted(declared(owner), key=lambda field: field.name == "name"):
        if field.metadata.get("hidden") or not field.repr:
            continue
        stored = getattr(owner, field.name)
        if field.metadata.get("variadic"):
            parts.extend(repr(item) for item in stored)
            continue
        value = shown_value(owner, field, stored)
        if field.metadata.get("positional") and field.default is REQUIRED:
            parts.append(repr(value))
        elif (
            field.default is REQUIRED
            or field.metadata.get("always_shown")
            or not same(value, shown_value(owner, field, default_value(owner, field)))
        ):
            parts.append(f"{field.name}={value!r}")
    return f"{label or label_of(owner)}({', '.join(parts)})"


def keyed_parameters(owner: Any) -> dict[str, str]:
    """The parameters that change what ``owner`` computes (``keyed`` of
    :func:`~pyterrier_rag_axioms.declaration.parameter`), as ``repr``."""
    return {field.name: repr(getattr(owner, field.name)) for field in declared(owner) if field.metadata.get("keyed")}
