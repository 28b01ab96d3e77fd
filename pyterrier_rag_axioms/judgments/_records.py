"""Reading judgment files: one record loop, with errors that name file and line (1-based)."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from pyterrier_rag_axioms.io import iter_jsonl


class Record:
    """One record of a file, with checked access to its fields (errors name file and line)."""

    def __init__(self, path: str | Path, number: int, record: Mapping[str, Any]):
        self.path = path
        self.number = number
        self.record = record

    def error(self, message: str) -> ValueError:
        return ValueError(f"{self.path}:{self.number}: {message}")

    def _get(self, key: str) -> Any:
        if key not in self.record:
            raise self.error(f"field {key!r} is missing")
        return self.record[key]

    def text(self, key: str, *, allow_empty: bool = True, allow_number: bool = True) -> str:
        """A text field; a whole number is read as its digits where ``allow_number`` (e.g. for ids)."""
        value = self._get(key)
        kinds = (str, int) if allow_number else str
        if isinstance(value, bool) or not isinstance(value, kinds):
            raise self.error(f"field {key!r} must be a string, not {type(value).__name__} {value!r}")
        value = str(value)
        if not allow_empty and not value.strip():
            raise self.error(f"field {key!r} must not be empty")
        return value

    def number_(self, key: str) -> float:
        value = self._get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise self.error(f"field {key!r} must be a finite number, not {value!r}")
        return float(value)

    def count(self, key: str) -> int | None:
        """An optional count: a whole number >= 0, or ``None`` where absent or null."""
        value = self.record.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise self.error(f"field {key!r} must be a whole number or null, not {value!r}")
        if value < 0 or value != int(value):
            raise self.error(f"field {key!r} must be a whole number >= 0, not {value!r}")
        return int(value)

    def list_(self, key: str) -> list[Any]:
        value = self._get(key)
        if not isinstance(value, list):
            raise self.error(f"field {key!r} must be a list, not {type(value).__name__}")
        return value

    def choice(self, key: str, choices: Mapping[str, Any] | tuple[str, ...], where: str = "") -> str:
        value = self._get(key)
        if value not in choices:
            expected = ", ".join(repr(choice) for choice in choices)
            raise self.error(f"field {key!r}{where} must be one of {expected}, not {value!r}")
        return value



def records(path: str | Path) -> Iterator[Record]:
    """Each JSON record of a JSON-lines file (gzip-compressed or not), ready for checked access."""
    for number, record in iter_jsonl(path):
        yield Record(path, number, record)


def keyed_records(path: str | Path, *, qid: str, docno: str, what: str) -> Iterator[tuple[tuple[str, str], Record]]:
    """Each record with its ``(qid, docno)`` key read from the fields ``qid`` and ``docno``.

    Both fields must be non-empty text, and a key may occur only once in the file (``what``
    names the thing the key identifies in the error, e.g. ``"run"``).
    """
    seen: dict[tuple[str, str], int] = {}
    for line in records(path):
        key = (line.text(qid, allow_empty=False), line.text(docno, allow_empty=False))
        if key in seen:
            raise line.error(f"{what} {key[1]!r} of topic {key[0]!r} occurs again (first on line {seen[key]})")
        seen[key] = line.number
        yield key, line
