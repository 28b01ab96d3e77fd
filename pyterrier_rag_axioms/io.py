"""Reading response frames from files and writing preference frames to files (JSONL, TSV, Parquet)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pandas as pd

#: File suffixes understood by :func:`read_responses` and :func:`write_frame` (optionally ``.gz``).
FORMATS = {".jsonl": "jsonl", ".json": "jsonl", ".tsv": "tsv", ".parquet": "parquet"}


def _format_of(path: Path) -> str:
    suffixes = [suffix for suffix in path.suffixes if suffix != ".gz"]
    fmt = FORMATS.get(suffixes[-1].lower()) if suffixes else None
    if fmt is None:
        raise ValueError(f"{path}: unknown file format; use one of {', '.join(sorted(FORMATS))}")
    return fmt


_GZIP_MAGIC = b"\x1f\x8b"


def open_text(path: str | Path) -> IO[str]:
    """Open a UTF-8 text file for reading, decompressing gzip (recognised by its magic bytes)."""
    with open(path, "rb") as probe:
        compressed = probe.read(2) == _GZIP_MAGIC
    if compressed:
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


def iter_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """The JSON objects of a JSON-lines file (gzip or not) with their line numbers; blank lines are skipped.

    Raises:
        ValueError: a line is not a JSON object, or the file is not UTF-8 text; the message names
            file and line.
    """
    path = Path(path)
    with open_text(path) as lines:
        try:
            for number, line in enumerate(lines, start=1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as error:
                    raise ValueError(f"{path}:{number}: not valid JSON ({error.msg})") from None
                if not isinstance(record, dict):
                    raise ValueError(f"{path}:{number}: expected a JSON object, found {type(record).__name__}")
                yield number, record
        except (OSError, EOFError, UnicodeDecodeError) as error:
            raise ValueError(f"{path}: cannot be read as (gzip-compressed) UTF-8 text: {error}") from None


def read_jsonl(path: str | Path) -> pd.DataFrame:
    """Read a JSON-lines file (gzip or not) into a frame; a malformed line raises naming file and line."""
    return pd.DataFrame.from_records([record for _, record in iter_jsonl(path)])


def _parse_tsv_context(value: object) -> object:
    """A TSV context cell: a JSON list of passages, or a single passage."""
    if isinstance(value, str) and value.startswith("["):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return None if isinstance(value, str) and not value else value


def read_responses(path: str | Path) -> pd.DataFrame:
    """Read a response frame from JSONL, TSV or Parquet (see DESIGN.md for the columns).

    In TSV files, a ``context`` cell may hold a JSON list of passages. ``qid`` and ``docno`` are
    read as strings.
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file")
    fmt = _format_of(path)
    if fmt == "jsonl":
        frame = read_jsonl(path)
    elif fmt == "tsv":
        frame = pd.read_csv(path, sep="\t", dtype={"qid": str, "docno": str}, keep_default_na=False)
        for column in ("context", "qcontext"):
            if column in frame.columns:
                frame[column] = frame[column].map(_parse_tsv_context)
    else:
        frame = pd.read_parquet(path)
    for column in ("qid", "docno"):
        if column in frame.columns:
            frame[column] = frame[column].astype(str)
    return frame


def write_frame(frame: pd.DataFrame, path: str | Path) -> None:
    """Write a frame as JSONL, TSV or Parquet, chosen by the suffix of ``path``."""
    path = Path(path)
    fmt = _format_of(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "jsonl":
        frame.to_json(path, orient="records", lines=True, force_ascii=False)
    elif fmt == "tsv":
        out = frame.copy()
        for column in out.columns:
            if out[column].map(lambda value: isinstance(value, (list, tuple))).any():
                out[column] = out[column].map(lambda v: json.dumps(list(v)) if isinstance(v, (list, tuple)) else v)
        out.to_csv(path, sep="\t", index=False)
    else:
        frame.to_parquet(path, index=False)
