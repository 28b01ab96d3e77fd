"""CrowdRAG-25: responses with their context, pairwise utility judgments, and LLM ratings.

A malformed line raises a ``ValueError`` that starts with ``path:line:``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pyterrier_rag_axioms.frames import PAIR_COLUMNS
from pyterrier_rag_axioms.judgments._records import Record, keyed_records, records

#: The utility dimensions judged in CrowdRAG-25, as named in its ratings file.
CROWDRAG_DIMENSIONS: tuple[str, ...] = (
    "correctness_topical",
    "coherence_logical",
    "coherence_stylistic",
    "coverage_broad",
    "coverage_deep",
    "consistency_internal",
    "quality_overall",
)

#: Columns of a judgment frame of :func:`load_crowdrag_judgments` that hold judgments, never axiom preferences.
JUDGMENT_COLUMNS: frozenset[str] = frozenset(
    [*CROWDRAG_DIMENSIONS, "judgments"]
    + [f"{dimension}_p_{side}" for dimension in CROWDRAG_DIMENSIONS for side in ("a", "b", "n")]
)

# --------------------------------------------------------------------------------------------- CrowdRAG-25


def load_crowdrag_responses(path: str | Path) -> pd.DataFrame:
    """Load CrowdRAG-25 responses as a response frame.

    Columns: ``qid`` (the topic), ``query``, ``docno`` (the response id), ``response`` (the raw
    text, with citations such as ``[0,1,2]`` indexing the context), ``context`` (the list of
    retrieved passages, ``references_texts``) and ``references`` (their ids).
    """
    rows = []
    for (qid, docno), line in keyed_records(path, qid="topic", docno="response", what="response"):
        passages = line.list_("references_texts")
        if not all(isinstance(passage, str) for passage in passages):
            raise line.error("field 'references_texts' must be a list of strings")
        references = [str(reference) for reference in line.record.get("references_ids", [])]
        rows.append(
            {
                "qid": qid,
                "query": line.text("query"),
                "docno": docno,
                "response": line.text("raw_text"),
                "context": passages,
                "references": references,
            }
        )
    return pd.DataFrame(rows, columns=["qid", "query", "docno", "response", "context", "references"])


_GOLD_VALUES = {"a": 1.0, "b": -1.0, "n": 0.0}


def _judgment_rows(path: str | Path) -> Iterator[tuple[Record, dict[str, Any]]]:
    """The ratings file's judgments: ids and, per dimension, the probabilities that a, b or neither is better."""
    for line in records(path):
        qid = line.text("query_id", allow_empty=False)
        response_a = line.text("response_a", allow_empty=False)
        response_b = line.text("response_b", allow_empty=False)
        if response_a == response_b:
            raise line.error(f"response_a and response_b are the same response {response_a!r}")
        row: dict[str, Any] = {"qid": qid, "docno_a": response_a, "docno_b": response_b}
        for dimension in CROWDRAG_DIMENSIONS:
            row[f"{dimension}_p_a"] = line.number_(f"{dimension}_p_a")
            row[f"{dimension}_p_b"] = line.number_(f"{dimension}_p_b")
            # Annotators could not answer "neither" for overall quality: the file has no p_n there.
            key = f"{dimension}_p_n"
            row[key] = line.number_(key) if key in line.record or dimension != "quality_overall" else 0.0
            line.choice(f"{dimension}_gold", _GOLD_VALUES)
        yield line, row


def load_crowdrag_judgments(ratings_path: str | Path, responses_path: str | Path | None = None) -> pd.DataFrame:
    """Load CrowdRAG-25 pairwise judgments as a preference frame of the judged pairs.

    One row per judged unordered pair of responses, in the order of the pair's first judgment and
    oriented as judged there. Where a pair was judged more than once (in either orientation), the
    probabilities are averaged after aligning the orientation; ``judgments`` counts the judgments.

    For each utility dimension ``D`` of :data:`CROWDRAG_DIMENSIONS`, the frame has the
    probabilities ``D_p_a``, ``D_p_b`` and ``D_p_n`` that a, b or neither is better (``D_p_n`` is
    0 for ``quality_overall``, which had no "neither" option) and the truth column ``D``: ``+1.0``
    where a is the most probable answer, ``-1.0`` where b is, ``0.0`` otherwise. For a pair judged
    once this is the file's ``D_gold``.

    Args:
        ratings_path: the ratings file.
        responses_path: the responses file (see :func:`load_crowdrag_responses`). With it, the
            frame is a full preference frame (``query``, ``response_a``, ``response_b``,
            ``context``), ready for axioms; without it, it holds ids and judgments only.

    Raises:
        ValueError: a malformed line, or (with responses) a judged response not in the responses
            file; the message names file and line.
    """
    probability_columns = [f"{d}_p_{side}" for d in CROWDRAG_DIMENSIONS for side in ("a", "b", "n")]
    responses = None
    if responses_path is not None:
        frame = load_crowdrag_responses(responses_path)
        responses = {(qid, docno): row for qid, docno, row in zip(frame["qid"], frame["docno"], frame.itertuples())}
    pairs: dict[tuple[str, str, str], dict[str, Any]] = {}
    for line, row in _judgment_rows(ratings_path):
        qid, docno_a, docno_b = row["qid"], row["docno_a"], row["docno_b"]
        if responses is not None:
            for docno in (docno_a, docno_b):
                if (qid, docno) not in responses:
                    raise line.error(f"response {docno!r} of topic {qid!r} is not in {responses_path}")
        key = (qid, *sorted((docno_a, docno_b)))
        if key not in pairs:
            pairs[key] = {**row, "judgments": 1}
            continue
        pair = pairs[key]
        swapped = pair["docno_a"] != docno_a
        count = pair["judgments"]
        for dimension in CROWDRAG_DIMENSIONS:
            for side, other in (("a", "b"), ("b", "a"), ("n", "n")):
                value = row[f"{dimension}_p_{other if swapped else side}"]
                column = f"{dimension}_p_{side}"
                pair[column] = (pair[column] * count + value) / (count + 1)
        pair["judgments"] = count + 1
    table = pd.DataFrame(list(pairs.values()), columns=["qid", "docno_a", "docno_b", "judgments", *probability_columns])
    for dimension in CROWDRAG_DIMENSIONS:
        p_a, p_b, p_n = (table[f"{dimension}_p_{side}"].to_numpy(dtype=float) for side in ("a", "b", "n"))
        table[dimension] = np.where(p_a > np.maximum(p_b, p_n), 1.0, np.where(p_b > np.maximum(p_a, p_n), -1.0, 0.0))
    truth_columns = list(CROWDRAG_DIMENSIONS)
    if responses is None:
        return table[["qid", "docno_a", "docno_b", "judgments", *truth_columns, *probability_columns]]
    rows_a = [responses[(qid, docno)] for qid, docno in zip(table["qid"], table["docno_a"])]
    rows_b = [responses[(qid, docno)] for qid, docno in zip(table["qid"], table["docno_b"])]
    table["query"] = [row.query for row in rows_a]
    table["response_a"] = [row.response for row in rows_a]
    table["response_b"] = [row.response for row in rows_b]
    table["context"] = [row.context for row in rows_a]
    return table[[*PAIR_COLUMNS, "judgments", *truth_columns, *probability_columns]]


def load_llm_ratings(path: str | Path) -> pd.DataFrame:
    """Load LLM likelihood ratings of CrowdRAG-25 responses as a response frame.

    Columns: ``qid`` (the topic), ``query``, ``docno`` (the response id), ``response`` (the raw
    text), ``context`` (``None``) and ``probability`` (the likelihood the LLM assigns to the
    response under a RAG prompt; higher is better).
    """
    rows = []
    for (qid, docno), line in keyed_records(path, qid="topic", docno="response", what="response"):
        rows.append(
            {
                "qid": qid,
                "query": line.text("query"),
                "docno": docno,
                "response": line.text("raw_text"),
                "context": None,
                "probability": line.number_("probability"),
            }
        )
    return pd.DataFrame(rows, columns=["qid", "query", "docno", "response", "context", "probability"])
