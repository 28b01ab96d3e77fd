"""Declared objects written to files (their arguments as JSON, tools by name) and copied."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, TypeVar

from pyterrier_rag_axioms.declaration._comparison import default_value, same, shown_value, tool_argument
from pyterrier_rag_axioms.declaration._fields import REQUIRED, TOOL, declared, label_of

T = TypeVar("T")


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
        shown = field.metadata.get("shown") is not None or field.metadata.get("shown_for") is not None
        if field.metadata.get("role") == TOOL and not shown:
            value = tool_argument(owner, field, value)
        else:
            value = shown_value(owner, field, value)
        if field.default is not REQUIRED and same(value, shown_value(owner, field, default_value(owner, field))):
            continue
        saved[field.name] = _json_ready(value, f"{label_of(owner)}: {field.name}")
    return saved


def replaced(owner: T, **changes: Any) -> T:
    """A copy of ``owner`` built from its declared parameters, with ``changes`` (by PyTerrier's
    ``pt.inspect.transformer_apply_attributes``, which reads the declared constructor)."""
    import pyterrier as pt

    unknown = sorted(set(changes) - {field.name for field in declared(owner)})
    if unknown:
        raise TypeError(f"{label_of(owner)} has no keyword parameter {unknown[0]!r}")
    return pt.inspect.transformer_apply_attributes(owner, **changes)  # type: ignore[arg-type, return-value]
