"""Tab-separated files as this package reads and writes them: cells, quoting, and context cells.

A cell that holds a tab, a line break (``\\n`` or ``\\r``) or a double quote is written in double
quotes, with its quotes doubled, as spreadsheets and pandas read it; every other cell as it is.
A *context* cell holds a list of passages as a JSON list of strings (``["first", "second"]``); a
cell that does not start with ``[`` is one passage, and an empty cell is no context. So that a
passage that starts with ``[`` (``"[]"``, ``"[1] Tea ..."``) keeps its meaning, the writer puts it
in a JSON list of one. The reader also takes the Python form that ``DataFrame.to_csv`` writes
(``['first', "it's"]``), strings only, and refuses any other cell that starts with ``[``.
"""

from __future__ import annotations

import ast
import csv
import json
import math
from collections.abc import Iterable, Iterator
from typing import IO, Any

import numpy as np
import pandas as pd

from pyterrier_rag_axioms.io import strict_json

#: How a context cell that holds several passages is written, for messages.
HOW_TO_WRITE_LISTS = (
    'write a list of passages as a JSON list of strings, e.g. ["first passage", "second passage"] (a single '
    'passage that starts with "[" as a list of one: ["[1] ..."]), or write the frame as JSONL'
)

_QUOTED = ("\t", "\n", "\r", '"')


def _python_list(cell: str) -> list[str] | None:
    """The strings of a Python list literal of strings (as pandas writes a list), or ``None`` for anything else."""
    try:
        tree = ast.parse(cell, mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    if not isinstance(tree.body, ast.List):
        return None
    items = tree.body.elts
    if not all(isinstance(item, ast.Constant) and isinstance(item.value, str) for item in items):
        return None
    return [item.value for item in items]  # type: ignore[attr-defined]


def _passages(value: object) -> bool:
    """Whether a parsed JSON value is a list of passages: strings, or records with a ``text`` string."""
    return isinstance(value, list) and all(
        isinstance(item, str) or (isinstance(item, dict) and isinstance(item.get("text"), str)) for item in value
    )


def parse_context_cell(cell: str) -> object:
    """A TSV context cell: a list of passages (``[...]``), one passage, or ``None`` for an empty cell.

    Raises:
        ValueError: a cell that starts with ``[`` is neither a JSON list of passages nor a Python
            list of strings; the message says how to write lists.
    """
    if not cell.strip():
        return None
    if not cell.startswith("["):
        return cell
    try:
        value = strict_json.loads(cell)
    except ValueError:
        value = _python_list(cell)
    if _passages(value):
        return value
    raise ValueError(f"a context cell that starts with '[' must be a list of passages; {HOW_TO_WRITE_LISTS}")


def _is_missing(value: object) -> bool:
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    return isinstance(value, float) and math.isnan(value)


def _text(value: object, *, context: bool) -> str:
    """A value as the text of its TSV cell, before quoting."""
    if isinstance(value, (list, tuple, np.ndarray)):
        return json.dumps([_plain(item) for item in value], ensure_ascii=False)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, default=str)
    if _is_missing(value):
        return ""
    if isinstance(value, str):
        return json.dumps([value], ensure_ascii=False) if context and value.startswith("[") else value
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    return str(value)


def _plain(item: object) -> object:
    return item.item() if isinstance(item, np.generic) else item


def cell(value: object, *, context: bool = False) -> str:
    """A value as a TSV cell (see the module's description); ``context``: the value is a context."""
    text = _text(value, context=context)
    if any(character in text for character in _QUOTED):
        return '"' + text.replace('"', '""') + '"'
    return text


def write(frame: pd.DataFrame, stream: IO[str], *, context_columns: Iterable[str]) -> None:
    """Write a frame as TSV: a header line, then one line per row (cells by :func:`cell`)."""
    contexts = [column in set(context_columns) for column in frame.columns]
    stream.write("\t".join(cell(str(column)) for column in frame.columns) + "\n")
    for row in frame.itertuples(index=False, name=None):
        stream.write("\t".join(cell(value, context=is_context) for value, is_context in zip(row, contexts)) + "\n")


def _problem(error: csv.Error) -> str:
    """What a csv error means in a TSV file, in words (the csv module names the tab by the character itself)."""
    text = str(error)
    if "expected after '\"'" in text or "unexpected end of data" in text:
        return (
            "a cell that starts with a double quote must end with one; quoted cells may hold tabs, line "
            'breaks and doubled quotes (""), as spreadsheets and pandas write them'
        )
    return text.replace("\t", "tab")


def records(path: object, lines: Iterator[tuple[int, str]]) -> list[tuple[int, list[str]]]:
    """The records of a TSV file as ``(first line number, cells)``, from its numbered lines.

    Raises:
        ValueError: a malformed record, or a header that names a column twice; the message
            starts with ``path:line:``.
    """
    numbers: list[int] = []  # the number of each line the csv reader has taken so far

    def texts() -> Iterator[str]:
        for number, line in lines:
            numbers.append(number)
            yield line

    found: list[tuple[int, list[str]]] = []
    previous = csv.field_size_limit(2**31 - 1)  # responses may be long
    try:
        reader = csv.reader(texts(), delimiter="\t", strict=True)
        while True:
            taken = len(numbers)
            try:
                cells = next(reader)
            except StopIteration:
                break
            except csv.Error as error:
                start = numbers[taken] if taken < len(numbers) else (numbers[-1] if numbers else 1)
                raise ValueError(f"{path}:{start}: malformed TSV ({_problem(error)})") from None
            found.append((numbers[taken], cells))
    finally:
        csv.field_size_limit(previous)
    if found:
        line, header = found[0]
        seen: dict[str, int] = {}
        for position, name in enumerate(header, start=1):
            if name in seen:
                raise ValueError(
                    f"{path}:{line}: the header names column {name!r} twice (fields {seen[name]} and {position}); "
                    "each column needs its own name"
                )
            seen[name] = position
    return found


def convert_context_column(values: pd.Series, path: object, column: str) -> pd.Series:
    """The cells of a context column as contexts (see :func:`parse_context_cell`); the index holds line numbers.

    Raises:
        ValueError: a cell that cannot be read; the message starts with ``path:line:``.
    """
    converted: list[Any] = []
    for line, value in values.items():
        try:
            converted.append(parse_context_cell(value))
        except ValueError as error:
            raise ValueError(f"{path}:{line}: column {column!r}: {error}") from None
    return pd.Series(converted, index=values.index, dtype=object)
