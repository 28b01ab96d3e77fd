"""JSON read strictly: what Python's ``json`` module lets pass silently is an error here.

A key twice in one object (``json`` keeps the last), ``NaN`` and ``Infinity`` (not JSON), a number
beyond a float's range (``1e400`` would be ``inf``), nesting too deep for the parser (a
``RecursionError``), a whole number of more digits than :data:`MAX_DIGITS` (Python refuses to
convert such numbers, with a message that names no file) and a lone surrogate escape
(``"\\ud800"``, no Unicode character, which fails much later, far from its file) each raise a
``ValueError`` that says what is wrong; the reader adds file and line. :func:`load_file` reads a
whole JSON file (a saved model) so, with the file and line in every message.
"""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import Any

#: The most digits a whole number may have (Python's own limit for converting text to ``int``).
MAX_DIGITS = 4300
#: The largest file :func:`load_file` reads (a saved model is a few kilobytes).
MAX_FILE_BYTES = 16 * 1024 * 1024

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


def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise ValueError(f"a whole number of {digits:,} digits is too long (at most {MAX_DIGITS:,})")
    return int(text)


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
        value = json.loads(
            text, object_pairs_hook=_object, parse_constant=_constant, parse_float=_float, parse_int=_int, **options
        )
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


def load_file(path: str | Path) -> Any:
    """A whole JSON file read strictly (see :func:`loads`): UTF-8 text (a byte order mark is dropped).

    Raises:
        FileNotFoundError: no such file.
        ValueError: the file is larger than :data:`MAX_FILE_BYTES`, not UTF-8 text, or not strict
            JSON; the message starts with ``path:line:`` (``path:`` where no line applies).
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file")
    with open(path, "rb") as stream:
        raw = stream.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        size = os.path.getsize(path)
        raise ValueError(f"{path}: {size:,} bytes is larger than a JSON file read whole may be ({MAX_FILE_BYTES:,})")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        raise ValueError(
            f"{path}:{line}: not UTF-8 text (byte {raw[error.start]:#04x} at offset {error.start}); save the file "
            "as UTF-8"
        ) from None
    try:
        return loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}:{error.lineno}: not valid JSON ({error.msg}, column {error.colno})") from None
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None
