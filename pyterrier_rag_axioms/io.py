"""Reading response frames from files and writing preference frames to files (JSONL, TSV, Parquet)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pandas as pd

#: File suffixes understood by :func:`read_responses` and :func:`write_frame` (optionally ``.gz``).
FORMATS = {".jsonl": "jsonl", ".json": "jsonl", ".tsv": "tsv", ".parquet": "parquet"}


def _format_of(path: Path) -> str:
    suffixes = [suffix for suffix in path.suffixes if suffix != ".gz"]
    fmt = FORMATS.get(suffixes[-1].lower()) if suffixes else None
    if fmt is None:
        raise ValueError(f"{path}: unknown file format; use one of {', '.join(sorted(FORMATS))}")
    return fmt


def _open_text(path: Path):
    return gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else open(path, encoding="utf-8")


def read_jsonl(path: str | Path) -> pd.DataFrame:
    """Read a JSON-lines file (gzip by ``.gz`` suffix); a malformed line raises naming file and line."""
    path = Path(path)
    records = []
    with _open_text(path) as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise ValueError(f"{path}:{number}: not valid JSON ({error.msg})") from None
            if not isinstance(record, dict):
                raise ValueError(f"{path}:{number}: expected a JSON object, found {type(record).__name__}")
            records.append(record)
    return pd.DataFrame.from_records(records)


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
