"""The response files the commands read: response files, TREC 2024 RAG run files and assignment files alike.

A JSON-lines file whose first record has ``topic_id`` and ``answer`` is a TREC 2024 RAG run file
(read by :func:`~pyterrier_rag_axioms.judgments.load_run_file`: ``docno`` is the run id); one with
``run_id``, ``answer_text`` and ``nuggets`` an assignment file in nuggetizer's assign format (read
by :func:`~pyterrier_rag_axioms.judgments.load_nugget_assignments`); any other file a response
file (:func:`~pyterrier_rag_axioms.io.read_responses`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

#: The kinds of response input, as :func:`input_kind` names them.
INPUT_KINDS: tuple[str, ...] = ("responses", "trec-run", "assignments")


def input_kind(path: str | Path) -> str:
    """``"trec-run"``, ``"assignments"`` or ``"responses"``, by the first record of a JSON-lines file.

    Raises:
        ValueError: a TREC ad-hoc run file (``qid Q0 docno rank score tag``, e.g. ``run.txt``), named as such.
    """
    from pyterrier_rag_axioms.io import TREC_RANKING_PROBLEM, format_of, is_trec_ranking_line, iter_jsonl, iter_lines

    if Path(path).is_file() and not str(path).lower().endswith((".parquet", ".parquet.gz")):
        for number, line in iter_lines(path):  # a ranking is no response file, whatever its suffix
            if line.strip():
                if is_trec_ranking_line(line):
                    raise ValueError(f"{path}:{number}: {TREC_RANKING_PROBLEM}")
                break
    if format_of(path) != "jsonl" or not Path(path).is_file():
        return "responses"
    for _, record in iter_jsonl(path):
        if "topic_id" in record and "answer" in record:
            return "trec-run"
        if "run_id" in record and "answer_text" in record and "nuggets" in record:
            return "assignments"
        return "responses"
    return "responses"


def read_response_input(paths: Sequence[str | Path], *, topics: str | Path | None = None) -> pd.DataFrame:
    """The responses of one or more files of any kind (see the module), in file order.

    Raises:
        ValueError: a malformed file (naming file and line), or a response (qid, docno) that two files repeat.
    """
    from pyterrier_rag_axioms.io import read_responses
    from pyterrier_rag_axioms.judgments import load_nugget_assignments, load_run_file

    frames = []
    for path in paths:
        kind = input_kind(path)
        if kind == "trec-run":
            frames.append(load_run_file(path, topics=topics))
        elif kind == "assignments":
            frames.append(load_nugget_assignments(path)[["qid", "query", "docno", "response", "context"]])
        else:
            frames.append(read_responses(path))
    if len(frames) == 1:
        return frames[0]
    responses = pd.concat(frames, ignore_index=True)
    keys = responses[["qid", "docno"]].astype(str)
    repeated = keys.duplicated()
    if repeated.any():
        qid, docno = keys[repeated].iloc[0]
        raise ValueError(f"response {docno!r} of topic {qid!r} occurs in more than one of the input files")
    return responses


__all__ = ["INPUT_KINDS", "input_kind", "read_response_input"]
