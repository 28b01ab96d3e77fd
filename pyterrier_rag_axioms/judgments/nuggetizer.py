"""nuggetizer's assign format out: one answer per line with its topic's nuggets and their assignments.

This is the shape of the TREC 2024 RAG assignment files, which
:func:`~pyterrier_rag_axioms.judgments.load_nugget_assignments` reads and nuggetizer's scorer
(``calculate_metrics``) scores::

    {"qid": ..., "query": ..., "run_id": ..., "answer_text": ..., "response_length": ...,
     "nuggets": [{"text": ..., "importance": "vital"|"okay", "assignment": "support"|..., ...}]}

Fields of the assigner beyond nuggetizer's (``nugget_id``, ``confidence``, ``spans``, ``counted``)
follow in each nugget; nuggetizer ignores them. ``counted`` is false for a nugget drawn from the
answer's own words (no self-credit), where the nuggets carry ``drawn_from``:
:func:`~pyterrier_rag_axioms.judgments.load_nugget_assignments` keeps it, so rescoring the file
gives the scores ``rag-axioms assign`` printed.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.io import atomic_write_text

#: Per-nugget fields written after nuggetizer's ``text``, ``importance`` and ``assignment``, where the frame has them.
EXTRA_NUGGET_FIELDS: tuple[str, ...] = ("nugget_id", "confidence", "spans", "counted")


def _plain(value: Any) -> Any:
    """A value as JSON holds it: tuples and arrays as lists, numpy numbers as Python ones, NaN as null."""
    if isinstance(value, (list, tuple)) or hasattr(value, "tolist"):
        value = value.tolist() if hasattr(value, "tolist") else value
        return [_plain(item) for item in value] if isinstance(value, list) else value
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def assign_records(assignments: pd.DataFrame, responses: pd.DataFrame) -> list[dict[str, Any]]:
    """nuggetizer assign records of automatic assignments: one per answer, in the responses' order.

    Args:
        assignments: one row per (answer, nugget), as
            :class:`~pyterrier_rag_axioms.nuggets.NuggetAssigner` writes them (``qid``, ``docno``,
            ``nugget``, ``importance``, ``assignment``; ``nugget_id``, ``confidence``, ``spans``,
            ``counted`` are kept where present).
        responses: the answers (``qid``, ``query``, ``docno`` = run id, ``response``, optionally
            ``response_length``).

    Raises:
        ValueError: an answer has no assignments, or an assignment has no answer (naming them).
    """
    pt.validate.columns(
        assignments, includes=["qid", "docno", "nugget", "importance", "assignment"], context="nugget assignments"
    )
    pt.validate.columns(responses, includes=["qid", "query", "docno", "response"], context="answers")
    extras = [field for field in EXTRA_NUGGET_FIELDS if field in assignments.columns]
    nuggets: dict[tuple[str, str], list[dict[str, Any]]] = {}
    columns = ["nugget", "importance", "assignment", *extras]
    for row in zip(
        assignments["qid"].astype(str), assignments["docno"].astype(str), *(assignments[c] for c in columns)
    ):
        qid, docno, text, importance, assignment, *rest = row
        nugget = {"text": text, "importance": importance, "assignment": assignment}
        nugget.update({field: _plain(value) for field, value in zip(extras, rest)})
        nuggets.setdefault((qid, docno), []).append(nugget)
    lengths = responses["response_length"] if "response_length" in responses.columns else [None] * len(responses)
    records = []
    for qid, query, docno, text, length in zip(
        responses["qid"].astype(str), responses["query"], responses["docno"].astype(str), responses["response"], lengths
    ):
        if (qid, docno) not in nuggets:
            raise ValueError(f"nugget assignments: none for run {docno!r} on topic {qid!r}")
        length = None if length is None or (isinstance(length, float) and math.isnan(length)) else int(length)
        records.append(
            {
                "qid": qid,
                "query": query,
                "run_id": docno,
                "answer_text": text,
                "response_length": length,
                "nuggets": nuggets.pop((qid, docno)),
            }
        )
    if nuggets:
        qid, docno = next(iter(nuggets))
        raise ValueError(f"nugget assignments: run {docno!r} on topic {qid!r} is not among the answers")
    return records


def write_assign_file(assignments: pd.DataFrame, responses: pd.DataFrame, path: str | Path) -> None:
    """Write automatic assignments in nuggetizer's assign format (JSON lines; gzip-compressed for ``.gz``), atomically.

    See :func:`assign_records`; the file reads back with
    :func:`~pyterrier_rag_axioms.judgments.load_nugget_assignments`.
    """
    records = assign_records(assignments, responses)
    text = "".join(json.dumps(record, ensure_ascii=False, allow_nan=False) + "\n" for record in records)
    atomic_write_text(Path(path), text)


__all__ = ["EXTRA_NUGGET_FIELDS", "assign_records", "write_assign_file"]
