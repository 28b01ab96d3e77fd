"""Files: response frames read strictly from JSONL, TSV and Parquet (gzip too); frames written atomically.
Not here: what a frame must hold (``frames``) or the judgment files (``judgments``)."""

# Reading never drops or changes a row silently: ids stay as written (``1`` is read as ``"1"``),
# TSV cells are text, and a malformed file raises a ``ValueError`` whose message starts with
# ``path:line:`` (``path: row N:`` for Parquet). Writing is atomic: the frame goes to a temporary
# file next to the target, which then replaces the target, so a failed write leaves any previous
# output intact.

from __future__ import annotations

import contextlib
import gzip
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import numpy as np
import pandas as pd

from pyterrier_rag_axioms.io import strict_json, tsv
from pyterrier_rag_axioms.io.atomic import atomic_write, atomic_write_text, check_output_path, check_output_paths

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

__all__ = [  # with the writing helpers kept importable from here
    "CONTEXT_COLUMNS", "FORMATS", "ID_COLUMNS", "MAX_LINE_BYTES", "TREC_RANKING_PROBLEM", "atomic_write",
    "atomic_write_text", "check_output_path", "check_output_paths", "format_of", "is_trec_ranking_line", "iter_jsonl",
    "iter_lines", "open_text", "read_jsonl", "read_responses", "write_frame",
]


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


#: The longest line (in bytes, after decompression) the readers take: a longer one is refused after
#: reading this much of it, so a small gzip file of one huge line never fills the memory.
MAX_LINE_BYTES = 64 * 1024 * 1024


def _bounded_lines(stream: IO[bytes]) -> Iterator[bytes]:
    """The lines of a binary stream, each read up to :data:`MAX_LINE_BYTES` + 1 bytes (a longer one is cut
    there and is the last line given)."""
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        yield raw
        if len(raw) > MAX_LINE_BYTES:
            return


def iter_lines(path: str | Path) -> Iterator[tuple[int, str]]:
    """The lines of a UTF-8 text file (gzip or not) with their 1-based numbers, line ends kept.

    A byte order mark at the start of the file is dropped (editors on Windows write one). A line
    is read up to :data:`MAX_LINE_BYTES`, so a huge line costs no more memory than that.

    Raises:
        FileNotFoundError: no such file (the message names it).
        ValueError: a line is not UTF-8, longer than :data:`MAX_LINE_BYTES`, or the file cannot be
            read (e.g. a truncated gzip file); the message names file and line.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file")
    number = 0
    try:
        with _open_binary(path) as lines:
            for number, raw in enumerate(_bounded_lines(lines), start=1):  # noqa: B007  (number is used after)
                if len(raw) > MAX_LINE_BYTES:
                    raise ValueError(
                        f"{path}:{number}: the line is longer than {MAX_LINE_BYTES:,} bytes (MAX_LINE_BYTES); "
                        "no response, nugget or judgment is that long: is it the right file?"
                    )
                try:
                    yield number, raw.decode("utf-8-sig" if number == 1 else "utf-8")  # without a byte order mark
                except UnicodeDecodeError as error:
                    raise ValueError(
                        f"{path}:{number}: not UTF-8 text (byte {raw[error.start]:#04x} at column {error.start + 1}); "
                        "save the file as UTF-8"
                    ) from None
    except (OSError, EOFError) as error:
        raise ValueError(f"{path}:{number + 1}: cannot be read as (gzip-compressed) text: {error}") from None


#: What is wrong with a TREC ad-hoc run file where answers are expected (after ``path:line:``).
TREC_RANKING_PROBLEM = (
    "a TREC ad-hoc run file (qid Q0 docno rank score tag: a ranking of documents), not JSON lines; give the "
    "answers, e.g. a TREC 2024 RAG run file (one JSON object per line with topic_id, run_id, references and answer)"
)


def is_trec_ranking_line(line: str) -> bool:
    """Whether a line is one of a TREC ad-hoc run file: ``qid Q0 docno rank score tag``."""
    fields = line.split()
    if len(fields) != 6 or fields[1].upper() != "Q0":
        return False
    try:
        int(fields[3]), float(fields[4])
    except ValueError:
        return False
    return True


def _json_lines(path: Path) -> Iterator[tuple[int, str, dict[str, Any]]]:
    for number, line in iter_lines(path):
        if not line.strip():
            continue
        try:
            record = strict_json.loads(line)
        except json.JSONDecodeError as error:
            if is_trec_ranking_line(line):
                raise ValueError(f"{path}:{number}: {TREC_RANKING_PROBLEM}") from None
            raise ValueError(f"{path}:{number}: not valid JSON ({error.msg})") from None
        except ValueError as error:
            raise ValueError(f"{path}:{number}: {error}") from None
        if not isinstance(record, dict):
            raise ValueError(f"{path}:{number}: expected a JSON object, found {type(record).__name__}")
        yield number, line, record


def iter_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """The JSON objects of a JSON-lines file (gzip or not) with their line numbers; blank lines are skipped.

    ``NaN``, ``Infinity`` and ``-Infinity``, which Python writes but JSON does not know, are errors;
    so are a key twice in one object, a number beyond a float's range (``1e400``), nesting too
    deep to parse, and a lone surrogate escape (see :mod:`pyterrier_rag_axioms.io.strict_json`).

    Raises:
        FileNotFoundError: no such file.
        ValueError: a line is not a JSON object, holds one of the above, or the file is not UTF-8
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


def _read_tsv_responses(path: Path) -> pd.DataFrame:
    records = tsv.records(path, iter_lines(path))
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
            frame[column] = tsv.convert_context_column(frame[column], path, column)
        elif column not in text_columns:
            with contextlib.suppress(ValueError, TypeError):
                frame[column] = pd.to_numeric(frame[column])  # e.g. score, rank
    return frame


def read_responses(path: str | Path) -> pd.DataFrame:
    """Read and validate a response frame from JSONL, TSV or Parquet (see ``docs/formats.md`` for the columns).

    ``qid`` and ``docno`` are read as the text the file has (a JSON ``1`` is ``"1"``); TSV cells
    are text (a query ``1984`` stays text), except for other columns that hold numbers only (e.g.
    ``score``), and a TSV ``context`` cell may hold a JSON list of passages (see
    :mod:`pyterrier_rag_axioms.io.tsv`: a cell that starts with ``[`` is a list). The frame is checked
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


def _json_value(value: object) -> object:
    """A cell as JSON writes it: numpy scalars and arrays as Python's, missing values as ``null``."""
    if isinstance(value, np.ndarray):
        return [_json_value(item) for item in value]
    if isinstance(value, (list, tuple)):
        return [_json_value(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _json_value(item) for key, item in value.items()}
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, float) and not np.isfinite(value):
        return None
    if isinstance(value, pd.Timestamp):
        return value.isoformat()
    return value


def _write_jsonl(frame: pd.DataFrame, target: Path) -> None:
    columns = [str(column) for column in frame.columns]
    with open(target, "w", encoding="utf-8", newline="\n") as stream:
        for row in frame.itertuples(index=False, name=None):
            record = {column: _json_value(value) for column, value in zip(columns, row)}
            stream.write(json.dumps(record, ensure_ascii=False, allow_nan=False, default=str) + "\n")


def _write_tsv(frame: pd.DataFrame, target: Path) -> None:
    with open(target, "w", encoding="utf-8", newline="") as stream:
        tsv.write(frame, stream, context_columns=CONTEXT_COLUMNS)


def write_frame(frame: pd.DataFrame, path: str | Path) -> None:
    """Write a frame as JSONL, TSV or Parquet, chosen by the suffix of ``path``, atomically.

    Every format reads back as the same response frame (:func:`read_responses`). JSONL writes
    numbers in full and missing values as ``null``. In TSV, a cell with a tab, a line break
    (``\\n`` or ``\\r``) or a double quote is quoted, and lists (e.g. contexts) are JSON lists (see
    :mod:`pyterrier_rag_axioms.io.tsv`). TSV cells are written as they are: a spreadsheet may take a
    cell that starts with ``=``, ``+``, ``-`` or ``@`` for a formula, so open such files as text
    (see the docs, "Safety"). Parquet stores one type per column: a context column that mixes
    single passages and lists is written as lists (a string is a list of one passage).

    Raises:
        ValueError: an unknown suffix, or a column Parquet cannot store (the message names it);
            the previous file at ``path``, if any, is left as it was.
    """
    path = Path(path)
    fmt = format_of(path)
    if fmt == "jsonl":
        atomic_write(path, lambda target: _write_jsonl(frame, target))
    elif fmt == "tsv":
        atomic_write(path, lambda target: _write_tsv(frame, target))
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
