"""Writing a ranking: a TREC run file (``.run``, ``.txt``, ``.trec``) or a frame (JSONL, TSV, Parquet),
with the checks a TREC run file needs (one-word ids and run name) made before any work is done."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.io import FORMATS, atomic_write, check_output_path, format_of, write_frame

#: Suffixes written as TREC run files; every other suffix goes to :func:`~pyterrier_rag_axioms.io.write_frame`.
TREC_RUN_SUFFIXES = (".run", ".txt", ".trec")


def is_trec_run_path(path: str | Path) -> bool:
    """Whether a path is written as a TREC run file (by its suffix before any ``.gz``: :data:`TREC_RUN_SUFFIXES`)."""
    suffixes = [suffix.lower() for suffix in Path(path).suffixes if suffix.lower() != ".gz"]
    return bool(suffixes) and suffixes[-1] in TREC_RUN_SUFFIXES


def check_output(path: str | Path, *, run_name: str, inputs: Sequence[str | Path | None] = ()) -> None:
    """Check an output path's format (and the run name of a TREC run file) before any work is done.

    Raises:
        ValueError: an unknown suffix, a directory, one of ``inputs`` (also through a link), or a
            run name that is empty or holds whitespace.
    """
    check_output_path(path, inputs=inputs)
    if not is_trec_run_path(path):
        try:
            format_of(path)
        except ValueError:
            known = ", ".join(sorted(FORMATS))
            raise ValueError(
                f"{path}: unknown file format; use a TREC run file ({', '.join(TREC_RUN_SUFFIXES)}) or a frame "
                f"({known}), optionally with .gz"
            ) from None
    elif not run_name or any(character.isspace() for character in run_name):
        raise ValueError(
            f"{path}: the run name {run_name!r} must be one word: TREC run files separate their columns by whitespace"
        )


def check_trec_ids(frame: pd.DataFrame, path: str | Path) -> None:
    """Refuse ids that a TREC run file cannot hold: columns are separated by whitespace, so ids hold none.

    Raises:
        ValueError: an empty qid or docno, or one with whitespace; the message names it and its qid.
    """
    for column in ("qid", "docno"):
        for qid, value in zip(frame["qid"], frame[column]):
            text = str(value)
            if not text or any(character.isspace() for character in text):
                raise ValueError(
                    f"{path}: {column} {text!r} (qid {str(qid)!r}) cannot go into a TREC run file, whose "
                    "columns are separated by whitespace; use ids without whitespace, or write .jsonl, .tsv or .parquet"
                )


def write_ranking(ranking: pd.DataFrame, path: str | Path, *, run_name: str = "rag-axioms") -> None:
    """Write a result frame as a TREC run file (``.run``, ``.txt``, ``.trec``) or as JSONL, TSV or Parquet, atomically.

    Raises:
        ValueError: an unknown suffix; for a TREC run file, an id or run name with whitespace
            (refused, since trec_eval splits lines at whitespace).
    """
    path = Path(path)
    if is_trec_run_path(path):
        check_output(path, run_name=run_name)
        check_trec_ids(ranking, path)
        run = ranking[["qid", "docno", "score", "rank"]]
        atomic_write(path, lambda target: pt.io.write_results(run, str(target), format="trec", run_name=run_name))
    else:
        write_frame(ranking, path)
