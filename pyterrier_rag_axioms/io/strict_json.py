"""JSON read strictly: what Python's ``json`` module lets pass silently is an error here.

A key twice in one object (``json`` keeps the last), ``NaN`` and ``Infinity`` (not JSON), a number
beyond a float's range (``1e400`` would be ``inf``), nesting too deep for the parser (a
``RecursionError``) and a lone surrogate escape (``"\\ud800"``, no Unicode character, which fails
much later, far from its file) each raise a ``ValueError`` that says what is wrong; the reader
adds file and line.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

#: A ``\\u`` escape of a surrogate code point: only such lines can hold a lone surrogate.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    record: dict[str, Any] = {}
    for key, value in pairs:
        if key in record:
            raise ValueError(f"key {key!r} twice in one object; each key may occur once")
        record[key] = value
    return record


def _constant(constant: str) -> float:
    raise ValueError(f"{constant} is not a JSON number; write null for a missing number")


def _float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"number {text} is out of range (a float holds at most about 1.8e308)")
    return number


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _surrogate(value: object, where: str = "a string") -> str | None:
    """Which string of a parsed value holds a lone surrogate (the top-level field it is in), or ``None``."""
    if isinstance(value, str):
        return None if _encodable(value) else where
    if isinstance(value, dict):
        for key, item in value.items():
            if not _encodable(key):
                return "a key"
            found = _surrogate(item, f"field {key!r}" if where == "a string" else where)
            if found is not None:
                return found
    elif isinstance(value, list):
        for item in value:
            found = _surrogate(item, where)
            if found is not None:
                return found
    return None


def loads(text: str, **options: Any) -> Any:
    """``json.loads`` that refuses repeated keys, NaN/Infinity, ``1e400``, deep nesting and lone surrogates.

    Raises:
        ValueError: what is wrong (a :class:`json.JSONDecodeError` for malformed JSON).
    """
    try:
        value = json.loads(text, object_pairs_hook=_object, parse_constant=_constant, parse_float=_float, **options)
    except RecursionError:
        raise ValueError("nested too deeply (lists or objects inside each other beyond Python's limit)") from None
    if _SURROGATE_ESCAPE.search(text):
        where = _surrogate(value)
        if where is not None:
            raise ValueError(
                f"{where} holds a lone surrogate (a \\ud800-\\udfff escape without its pair), which is no "
                "Unicode character; write the character itself, or its full surrogate pair"
            )
    return value
