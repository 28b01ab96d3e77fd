"""Reading response frames from files and writing frames to files (JSONL, TSV, Parquet).

Reading never drops or changes a row silently: ids stay as written (``1`` is read as ``"1"``),
TSV cells are text, and a malformed file raises a ``ValueError`` whose message starts with
``path:line:`` (``path: row N:`` for Parquet). Writing is atomic: the frame goes to a temporary
file next to the target, which then replaces the target, so a failed write leaves any previous
output intact.
"""

from __future__ import annotations

import contextlib
import csv
import gzip
import io
import json
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import numpy as np
import pandas as pd

#: File suffixes understood by :func:`read_responses` and :func:`write_frame` (optionally ``.gz``).
FORMATS = {".jsonl": "jsonl", ".json": "jsonl", ".tsv": "tsv", ".parquet": "parquet"}

#: Columns that hold ids: read as exactly the text the file has.
ID_COLUMNS: tuple[str, ...] = ("qid", "docno")

#: Columns that hold a context (a list of passages, or one passage).
CONTEXT_COLUMNS: tuple[str, ...] = ("context", "qcontext", "context_a", "context_b")


def format_of(path: str | Path) -> str:
    """The format (``"jsonl"``, ``"tsv"``, ``"parquet"``) a path's suffix names.

    Raises:
        ValueError: an unknown suffix; the message names the path and the known suffixes.
    """
    path = Path(path)
    suffixes = [suffix for suffix in path.suffixes if suffix != ".gz"]
    fmt = FORMATS.get(suffixes[-1].lower()) if suffixes else None
    if fmt is None:
        found = f"suffix {suffixes[-1]!r}" if suffixes else "no suffix"
        known = ", ".join(sorted(FORMATS))
        raise ValueError(f"{path}: unknown file format ({found}); use one of {known} (optionally with .gz)")
    return fmt


_format_of = format_of


def check_output_path(path: str | Path) -> None:
    """Check before any work that an output path can be written: not an existing directory.

    Raises:
        ValueError: ``path`` is a directory (the message names it).
    """
    if Path(path).is_dir():
        raise ValueError(f"{path}: is a directory; give the name of the file to write")

_GZIP_MAGIC = b"\x1f\x8b"


def _open_binary(path: Path) -> IO[bytes]:
    with open(path, "rb") as probe:
        compressed = probe.read(2) == _GZIP_MAGIC
    return gzip.open(path, "rb") if compressed else open(path, "rb")


def open_text(path: str | Path) -> IO[str]:
    """Open a UTF-8 text file for reading, decompressing gzip (recognised by its magic bytes)."""
    with open(path, "rb") as probe:
        compressed = probe.read(2) == _GZIP_MAGIC
    if compressed:
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


def iter_lines(path: str | Path) -> Iterator[tuple[int, str]]:
    """The lines of a UTF-8 text file (gzip or not) with their 1-based numbers, line ends kept.

    A byte order mark at the start of the file is dropped (editors on Windows write one).

    Raises:
        FileNotFoundError: no such file (the message names it).
        ValueError: a line is not UTF-8, or the file cannot be read (e.g. a truncated gzip file);
            the message names file and line.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file")
    number = 0
    try:
        with _open_binary(path) as lines:
            for number, raw in enumerate(lines, start=1):  # noqa: B007  (number is used after the loop)
                try:
                    yield number, raw.decode("utf-8-sig" if number == 1 else "utf-8")  # without a byte order mark
                except UnicodeDecodeError as error:
                    raise ValueError(
                        f"{path}:{number}: not UTF-8 text (byte {raw[error.start]:#04x} at column {error.start + 1}); "
                        "save the file as UTF-8"
                    ) from None
    except (OSError, EOFError) as error:
        raise ValueError(f"{path}:{number + 1}: cannot be read as (gzip-compressed) text: {error}") from None


def _reject_constant(constant: str) -> float:
    raise ValueError(f"{constant} is not a JSON number; write null for a missing number")


def _json_lines(path: Path) -> Iterator[tuple[int, str, dict[str, Any]]]:
    for number, line in iter_lines(path):
        if not line.strip():
            continue
        try:
            record = json.loads(line, parse_constant=_reject_constant)
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}:{number}: not valid JSON ({error.msg})") from None
        except ValueError as error:
            raise ValueError(f"{path}:{number}: {error}") from None
        if not isinstance(record, dict):
            raise ValueError(f"{path}:{number}: expected a JSON object, found {type(record).__name__}")
        yield number, line, record


def iter_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """The JSON objects of a JSON-lines file (gzip or not) with their line numbers; blank lines are skipped.

    ``NaN``, ``Infinity`` and ``-Infinity``, which Python writes but JSON does not know, are errors.

    Raises:
        FileNotFoundError: no such file.
        ValueError: a line is not a JSON object, holds NaN or Infinity, or the file is not UTF-8
            text; the message names file and line.
    """
    for number, _, record in _json_lines(Path(path)):
        yield number, record


def read_jsonl(path: str | Path) -> pd.DataFrame:
    """Read a JSON-lines file (gzip or not) into a frame; a malformed line raises naming file and line."""
    return pd.DataFrame.from_records([record for _, record in iter_jsonl(path)])


def _id_as_written(value: object, key: str, line: str, where: str) -> object:
    """A JSON id as the text the file has: ``1`` is ``"1"``, ``1.50`` is ``"1.50"``; missing stays missing."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{where}: field {key!r} must be a string or a number, not {type(value).__name__}")
    if isinstance(value, int):
        return str(value)
    return json.loads(line, parse_float=str)[key]  # the number as written


def _read_jsonl_responses(path: Path) -> pd.DataFrame:
    records, lines = [], []
    for number, line, record in _json_lines(path):
        for key in ID_COLUMNS:
            if key in record:
                record[key] = _id_as_written(record[key], key, line, f"{path}:{number}")
        records.append(record)
        lines.append(number)
    if not records:
        raise ValueError(f"{path}:1: no responses (the file is empty); expected one JSON object per line")
    frame = pd.DataFrame.from_records(records)
    frame.index = pd.Index(lines)
    return frame


def _parse_tsv_context(value: str) -> object:
    """A TSV context cell: a JSON list of passages, an empty cell (no context), or one passage."""
    if value.startswith("["):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value or None


@contextlib.contextmanager
def _csv_field_size_limit(limit: int) -> Iterator[None]:
    previous = csv.field_size_limit(limit)
    try:
        yield
    finally:
        csv.field_size_limit(previous)


def _tsv_problem(error: csv.Error) -> str:
    """What a csv error means in a TSV file, in words (the csv module names the tab by the character itself)."""
    text = str(error)
    if "expected after '\"'" in text or "unexpected end of data" in text:
        return (
            "a cell that starts with a double quote must end with one; quoted cells may hold tabs, line "
            'breaks and doubled quotes (""), as spreadsheets and pandas write them'
        )
    return text.replace("\t", "tab")


def _read_tsv_responses(path: Path) -> pd.DataFrame:
    numbers: list[int] = []  # the number of each line the csv reader has taken so far

    def lines() -> Iterator[str]:
        for number, line in iter_lines(path):
            numbers.append(number)
            yield line

    records: list[tuple[int, list[str]]] = []  # first line of the record, cells
    with _csv_field_size_limit(2**31 - 1):  # responses may be long
        reader = csv.reader(lines(), delimiter="\t", strict=True)
        while True:
            taken = len(numbers)
            try:
                cells = next(reader)
            except StopIteration:
                break
            except csv.Error as error:
                start = numbers[taken] if taken < len(numbers) else (numbers[-1] if numbers else 1)
                raise ValueError(f"{path}:{start}: malformed TSV ({_tsv_problem(error)})") from None
            records.append((numbers[taken], cells))
    if not records:
        raise ValueError(f"{path}:1: empty file; expected a header line with the column names")
    (_, header), rows = records[0], []
    for number, cells in records[1:]:
        if not any(cell.strip() for cell in cells):
            continue
        if len(cells) != len(header):
            raise ValueError(f"{path}:{number}: {len(cells)} tab-separated fields, but the header has {len(header)}")
        rows.append((number, cells))
    if not rows:
        raise ValueError(f"{path}:2: no responses after the header line")
    frame = pd.DataFrame([cells for _, cells in rows], columns=header, index=[n for n, _ in rows], dtype=object)
    text_columns = {*ID_COLUMNS, "query", "response", "qanswer", "query_0", *CONTEXT_COLUMNS}
    for column in frame.columns:
        if column in CONTEXT_COLUMNS:
            frame[column] = frame[column].map(_parse_tsv_context)
        elif column not in text_columns:
            with contextlib.suppress(ValueError, TypeError):
                frame[column] = pd.to_numeric(frame[column])  # e.g. score, rank
    return frame


def read_responses(path: str | Path) -> pd.DataFrame:
    """Read and validate a response frame from JSONL, TSV or Parquet (see DESIGN.md for the columns).

    ``qid`` and ``docno`` are read as the text the file has (a JSON ``1`` is ``"1"``); TSV cells
    are text (a query ``1984`` stays text), except for other columns that hold numbers only (e.g.
    ``score``), and a TSV ``context`` cell may hold a JSON list of passages. The frame is checked
    as the axioms check it, so that bad input is reported with its file and line.

    Raises:
        FileNotFoundError: no such file.
        ValueError: an unknown suffix, an empty file, or a malformed line or row: a missing id,
            a query or response that is not text, a malformed context, a repeated docno, two
            query texts for one qid; the message starts with ``path:line:`` (``path: row N:`` for
            Parquet).
    """
    from pyterrier_rag_axioms.frames import FrameError, response_frame

    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file")
    fmt = format_of(path)
    if fmt == "jsonl":
        frame = _read_jsonl_responses(path)
    elif fmt == "tsv":
        frame = _read_tsv_responses(path)
    else:
        try:
            with _open_binary(path) as stream:  # gzip or not
                frame = pd.read_parquet(io.BytesIO(stream.read()))
        except Exception as error:  # pyarrow raises its own error types for malformed files
            raise ValueError(f"{path}: cannot be read as Parquet: {error}") from None
        if len(frame) == 0:
            raise ValueError(f"{path}: no responses (the file has no rows)")
        frame.index = pd.RangeIndex(1, len(frame) + 1)
    try:
        response_frame(frame)
    except FrameError as error:
        if error.row is None:
            raise ValueError(f"{path}: {error.problem}") from None
        unit = "row" if fmt == "parquet" else "line"
        where = f"{path}: row {error.row}" if fmt == "parquet" else f"{path}:{error.row}"
        first = "" if error.earlier is None else f" (first on {unit} {error.earlier})"
        raise ValueError(f"{where}: {error.problem}{first}") from None
    except KeyError as error:  # pt.validate: a required column is missing
        raise ValueError(f"{path}: {_missing_columns(error, frame)}") from None
    for column in ID_COLUMNS:
        if column in frame.columns:
            frame[column] = frame[column].astype(str)
    return frame.reset_index(drop=True)


def _missing_columns(error: KeyError, frame: pd.DataFrame) -> str:
    """The columns a frame lacks, from pt.validate's error (the fewest of its modes), and those it has."""
    modes = getattr(error, "modes", None) or []
    missing = min((list(mode.missing_columns) for mode in modes), key=len, default=[])
    if not missing:
        return " ".join(str(error.args[0] if error.args else error).split())
    names, plural = ", ".join(map(repr, missing)), "s" if len(missing) > 1 else ""
    return f"no {names} column{plural} (the file's columns: {', '.join(map(str, frame.columns))})"


def _context_as_list(value: object) -> object:
    """A context cell in the one form Parquet can store: a list of passages (a string is one passage), or None."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple, np.ndarray)):
        return list(value)
    return value


def atomic_write(path: Path, write: Callable[[Path], None]) -> None:
    """Call ``write`` on a temporary file next to ``path``, then move it onto ``path``.

    ``write`` writes the plain format: for a target ending in ``.gz`` the temporary file is named
    like the target without ``.gz``, and compressed here afterwards (its gzip header names the
    target without ``.gz``), so every format can be gzipped. The file gets the permissions a new
    file gets under the process's umask. Where ``write`` fails, the temporary file is removed and
    ``path`` keeps what it held.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    compressed = path.suffix.lower() == ".gz"
    plain_name = path.name[: -len(path.suffix)] if compressed else path.name
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=f".partial-{plain_name}")
    os.close(handle)
    temporary = Path(name)
    try:
        write(temporary)
        if compressed:
            plain = temporary.read_bytes()
            with open(temporary, "wb") as raw, gzip.GzipFile(filename=plain_name, mode="wb", fileobj=raw) as stream:
                stream.write(plain)
        os.chmod(temporary, _new_file_mode())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _new_file_mode() -> int:
    """The permissions ``open`` gives a new file under the current umask (``mkstemp`` gives 0600)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_frame(frame: pd.DataFrame, path: str | Path) -> None:
    """Write a frame as JSONL, TSV or Parquet, chosen by the suffix of ``path``, atomically.

    Lists (e.g. contexts) are written as JSON lists in TSV cells. Parquet stores one type per
    column: a context column that mixes single passages and lists is written as lists (a string
    is a list of one passage).

    Raises:
        ValueError: an unknown suffix, or a column Parquet cannot store (the message names it);
            the previous file at ``path``, if any, is left as it was.
    """
    path = Path(path)
    fmt = format_of(path)
    if fmt == "jsonl":
        atomic_write(path, lambda target: frame.to_json(target, orient="records", lines=True, force_ascii=False))
    elif fmt == "tsv":
        out = frame.copy()
        for column in out.columns:
            if out[column].map(lambda value: isinstance(value, (list, tuple, np.ndarray))).any():
                out[column] = out[column].map(
                    lambda v: json.dumps(list(v), ensure_ascii=False) if isinstance(v, (list, tuple, np.ndarray)) else v
                )
        atomic_write(path, lambda target: out.to_csv(target, sep="\t", index=False))
    else:
        out = frame.copy()
        for column in CONTEXT_COLUMNS:
            if column in out.columns:
                out[column] = out[column].map(_context_as_list)
        try:
            atomic_write(path, lambda target: out.to_parquet(target, index=False))
        except (ValueError, TypeError) as error:
            raise ValueError(f"{path}: cannot write the frame as Parquet: {error}") from None
        except Exception as error:  # pyarrow's own error types
            if type(error).__module__.startswith("pyarrow"):
                raise ValueError(f"{path}: cannot write the frame as Parquet: {error}") from None
            raise
