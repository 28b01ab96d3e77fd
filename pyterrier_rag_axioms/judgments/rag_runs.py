"""TREC 2024 RAG run files: JSON lines of a run's answers, one per topic, read into a response frame.

- :func:`load_run_file`: one run file.
- :func:`load_run_files`: several, checked against each other (a run answering a topic twice, two
  query texts for one topic), every error naming the file and line of both places.
- :func:`render_answer`: the text of an answer, its citations as ``[0,2]``.

A malformed line, an empty file, or two lines that disagree raise a ``ValueError`` that starts
with ``path:line:``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from pyterrier_rag_axioms.judgments._records import Record, keyed_records
from pyterrier_rag_axioms.judgments.trec_rag import load_topics

#: The columns of the frame of :func:`load_run_file`.
RUN_COLUMNS: list[str] = ["qid", "query", "docno", "response", "context", "references", "response_length"]


def render_answer(answer: list[Mapping[str, Any]]) -> str:
    """The text of a TREC 2024 RAG answer: its sentences joined by spaces, each followed by its citations.

    Citations are rendered as ``[i,j]`` (indices into the run's references) before the sentence's
    final punctuation, e.g. ``"Paris is the capital of France [0,2]."``, so that CORR1 counts the
    sentence as citing.
    """
    parts = []
    for sentence in answer:
        text = str(sentence["text"]).strip()
        citations = sentence.get("citations") or []
        if citations:
            marker = "[" + ",".join(str(citation) for citation in citations) + "]"
            if text and text[-1] in ".!?":
                text = f"{text[:-1].rstrip()} {marker}{text[-1]}"
            else:
                text = f"{text} {marker}".strip()
        if text:
            parts.append(text)
    return " ".join(parts)


def _queries(topics: pd.DataFrame | str | Path | None) -> dict[str, str]:
    if topics is None:
        return {}
    topic_frame = load_topics(topics) if isinstance(topics, (str, Path)) else topics
    return dict(zip(topic_frame["qid"].astype(str), topic_frame["query"]))


def _answer(line: Record, references: list[str]) -> list[dict[str, Any]]:
    answer = []
    for position, sentence in enumerate(line.list_("answer")):
        if not isinstance(sentence, dict):
            raise line.error(f"answer sentence {position} must be a JSON object, not {type(sentence).__name__}")
        text = Record(line.path, line.number, sentence).text("text")
        citations = sentence.get("citations", [])
        if not isinstance(citations, list) or not all(
            isinstance(c, int) and not isinstance(c, bool) and 0 <= c < len(references) for c in citations
        ):
            raise line.error(
                f"citations of answer sentence {position} must be indices into the {len(references)} "
                f"references, not {citations!r}"
            )
        answer.append({"text": text, "citations": citations})
    return answer


def _run_rows(path: str | Path, queries: Mapping[str, str]) -> list[tuple[int, dict[str, Any]]]:
    """The rows of one run file with their line numbers; the query texts of a topic must agree."""
    rows = []
    first_query: dict[str, tuple[str, int]] = {}
    for (qid, run_id), line in keyed_records(path, qid="topic_id", docno="run_id", what="run"):
        references = [str(reference) for reference in line.list_("references")]
        answer = _answer(line, references)
        if "topic" in line.record:
            query = line.text("topic")
        elif qid in queries:
            query = queries[qid]
        elif not queries:
            raise line.error(
                f"no field 'topic' (the query text of topic {qid!r}), and no topics were given; give the topics "
                "file (qid<TAB>query; on the command line: --topics FILE)"
            )
        else:
            raise line.error(f"no field 'topic' and no query for topic {qid!r} in the given topics")
        known, number = first_query.setdefault(qid, (query, line.number))
        if known != query:
            raise line.error(
                f"topic {qid!r} has the query text {_shown(query)} here, but {_shown(known)} on line {number}; "
                "a topic has one query text"
            )
        row = {
            "qid": qid,
            "query": query,
            "docno": run_id,
            "response": render_answer(answer),
            "context": None,
            "references": references,
            "response_length": line.count("response_length"),
        }
        rows.append((line.number, row))
    if not rows:
        raise ValueError(f"{path}:1: no answers (the file is empty); expected one JSON object per line")
    return rows


def _shown(text: str, width: int = 60) -> str:
    shown = repr(text)
    return shown if len(shown) <= width else f"{shown[: width - 4]}...{shown[-1]}"


def load_run_file(path: str | Path, *, topics: pd.DataFrame | str | Path | None = None) -> pd.DataFrame:
    """Load a TREC 2024 RAG run file (JSON lines) as a response frame.

    Each line holds ``topic_id``, ``run_id``, ``references`` (document ids), ``answer`` (a list of
    ``{"text", "citations"}``, the citations indexing ``references``) and, usually, ``topic`` (the
    query text). The frame has ``qid`` (topic id), ``query``, ``docno`` (run id), ``response``
    (rendered by :func:`render_answer`), ``context`` (``None``: runs hold document ids, not texts),
    ``references`` and ``response_length``.

    Args:
        path: the run file (gzip-compressed or not).
        topics: topics (frame ``qid``, ``query`` or the path of a topics file) for lines without
            ``topic``.

    Raises:
        ValueError: an empty file, a malformed line, a citation outside ``references``, a
            repeated (topic, run), two query texts for one topic, or a line without query text
            and no topic for it; the message starts with ``path:line:``.
    """
    rows = _run_rows(path, _queries(topics))
    return pd.DataFrame([row for _, row in rows], columns=RUN_COLUMNS)


def load_run_files(paths: Sequence[str | Path], *, topics: pd.DataFrame | str | Path | None = None) -> pd.DataFrame:
    """Load several TREC 2024 RAG run files (see :func:`load_run_file`) into one response frame, in order.

    Raises:
        ValueError: what :func:`load_run_file` refuses, a run that answers a topic in two files,
            or two files that give a topic different query texts; the message starts with the
            ``path:line:`` of the second place and names the first.
    """
    queries = _queries(topics)
    rows = []
    first_answer: dict[tuple[str, str], str] = {}
    first_query: dict[str, tuple[str, str]] = {}
    for path in paths:
        for number, row in _run_rows(path, queries):
            where = f"{path}:{number}"
            key = (row["qid"], row["docno"])
            if key in first_answer:
                raise ValueError(
                    f"{where}: run {row['docno']!r} answers topic {row['qid']!r} again (first at {first_answer[key]})"
                )
            first_answer[key] = where
            known, first = first_query.setdefault(row["qid"], (row["query"], where))
            if known != row["query"]:
                raise ValueError(
                    f"{where}: topic {row['qid']!r} has the query text {_shown(row['query'])} here, but "
                    f"{_shown(known)} at {first}; a topic has one query text in every run file"
                )
            rows.append(row)
    return pd.DataFrame(rows, columns=RUN_COLUMNS)
