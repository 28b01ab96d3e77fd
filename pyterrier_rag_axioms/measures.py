"""Measures of generated answers against gold answers, for ``pt.Experiment`` beside ``pyterrier_rag.measures``.

They follow pyterrier-rag's conventions: ``ir_measures`` measures defined per query
(``define_byquery``), reading one generated answer per query (``qanswer``) and the query's gold
answers (``gold_answer``: one row per answer, or a list of answers in a row), without cutoff.

- :data:`RefNuggets`: the graded score of the answer against the nuggets of its gold answers
  (:func:`~pyterrier_rag_axioms.nuggets.reference.reference_score`: the mean probability that the
  answer supports each atomic fact of a gold answer, plus its ROUGE-L F-measure against that
  answer; the best gold answer's). It ranges from 0 to 2. A query whose gold answers are all
  blank or missing has no reference, as ``PreferenceModel`` and ``reference_nuggets`` read it: it
  gets no value and aborts nothing. ir_measures (and so ``pt.Experiment``) counts a query of the
  qrels without a value as 0; leave its rows out of the gold-answer frame to leave it out of the mean.

Measures like RAGChecker's, without an LLM: each claim (atomic fact) of the answer, of its passages'
answer and of the gold answers is checked by the support model
(:class:`~pyterrier_rag_axioms.support.SupportModel`, its fitted claim threshold). They read the
answer's passages from ``qcontext`` (a list of passages or records with a ``text``, as
pyterrier-rag's readers pass them along) where they need them:

- :data:`Faithful`: the share of the answer's claims that its passages support (1 without claims);
- :data:`Hallucination`: the share of the answer's claims that neither its passages nor a gold answer
  support (0 without claims);
- :data:`ContextUtilisation`: of the gold answers' claims that the passages support, the share the
  answer states (no value where the passages support none);
- :data:`ClaimRecall`: the share of the gold answers' claims that the answer states;
- :data:`ClaimPrecision`: the share of the answer's claims that a gold answer supports (no value
  without claims).

Example::

    pt.Experiment([pipeline_a, pipeline_b], topics, answers,
                  [pyterrier_rag.measures.F1, pyterrier_rag.measures.ROUGELF, RefNuggets, Faithful, ClaimRecall])
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator

import ir_measures
import numpy as np
import pandas as pd


def ref_nuggets(qrels: pd.DataFrame, res: pd.DataFrame) -> float:
    """:data:`RefNuggets` of one query: its one generated answer against its gold answers (NaN where
    every gold answer is blank: no reference)."""
    from pyterrier_rag_axioms.frames import gold_answer_texts
    from pyterrier_rag_axioms.nuggets.reference import SCORE_COLUMN, reference_score

    if len(res) != 1:
        raise ValueError(f"RefNuggets expects exactly 1 generated answer per query_id, got {len(res)}")
    answer = res["qanswer"].iloc[0]
    if not isinstance(answer, str):
        raise TypeError(f"RefNuggets: the qanswer of query_id {res['query_id'].iloc[0]!r} is a "
                        f"{type(answer).__name__}, not a string")
    where = f"RefNuggets: query_id {res['query_id'].iloc[0]!r}"
    texts = [text for value in qrels["gold_answer"] for text in gold_answer_texts(value, where)]
    if not texts:
        return float("nan")  # no reference answer: not scored
    if not answer.strip():
        return 0.0
    query = next((res[column].iloc[0] for column in ("query", "query_0") if column in res.columns
                  and isinstance(res[column].iloc[0], str)), "")
    qid = str(res["query_id"].iloc[0])
    answers = pd.DataFrame({"qid": qid, "query": query, "gold_answer": [texts]})
    responses = pd.DataFrame({"qid": [qid], "query": [query], "docno": ["0"], "response": [answer]})
    return float(reference_score(responses, answers)[SCORE_COLUMN].iloc[0])


def _ref_nuggets_by_query(qrels: pd.DataFrame, run: pd.DataFrame) -> Iterator[tuple[str, float]]:
    """(query_id, :func:`ref_nuggets`) of each query of the run that has a reference answer."""
    for qid, answers in run.groupby("query_id"):
        score = ref_nuggets(qrels[qrels["query_id"] == qid], answers)
        if not math.isnan(score):
            yield qid, score


#: The graded score of a generated answer against the nuggets of its gold answers (see the module).
RefNuggets = ir_measures.define(
    _ref_nuggets_by_query, name="RefNuggets", support_cutoff=False, run_inputs=["qanswer"],
    qrel_inputs=["gold_answer"],
)


@functools.lru_cache(maxsize=4096)
def claim_measures(answer: str, passages: tuple[str, ...] | None, gold: tuple[str, ...]) -> dict[str, float]:
    """The claim measures of one answer (see the module) against its passages (``None``: none) and gold
    answers; a measure without a value is NaN."""
    from pyterrier_rag_axioms.grounding.claims import answer_claims, without_source_references
    from pyterrier_rag_axioms.support import SupportModel

    model = SupportModel.default()
    threshold = model.claim_threshold
    answer_claims_, *gold_claims = answer_claims([answer, *gold])
    mine = [without_source_references(claim.text) for claim in answer_claims_]
    theirs = list(dict.fromkeys(claim.text for claims in gold_claims for claim in claims))
    checks = [(mine, [gold] * len(mine)), (theirs, [(answer,)] * len(theirs))]
    if passages:
        checks += [(mine, [passages] * len(mine)), (theirs, [passages] * len(theirs))]
    statements = [statement for group, _ in checks for statement in group]
    evidence = [item for _, items in checks for item in items]
    supported = model.probabilities(statements, evidence) >= threshold if statements else []
    sizes = np.cumsum([0, *(len(group) for group, _ in checks)])
    parts = [np.asarray(supported[start:end], dtype=bool) for start, end in zip(sizes, sizes[1:])]
    by_gold, in_answer = parts[0], parts[1]
    by_context, gold_in_context = (parts[2], parts[3]) if passages else (None, None)

    def share(values: np.ndarray | None, empty: float) -> float:
        return float("nan") if values is None else float(values.mean()) if len(values) else empty

    return {
        "Faithful": share(by_context, 1.0),
        "Hallucination": share(None if by_context is None else ~by_context & ~by_gold if gold else ~by_context, 0.0),
        "ContextUtilisation": share(
            None if gold_in_context is None or not gold_in_context.any() else in_answer[gold_in_context], math.nan
        ),
        "ClaimRecall": share(in_answer if gold else None, math.nan),
        "ClaimPrecision": share(by_gold if gold else None, math.nan),
    }


def _claim_measure(name: str, *, needs_context: bool, needs_gold: bool) -> Callable:
    def by_query(qrels: pd.DataFrame, run: pd.DataFrame) -> Iterator[tuple[str, float]]:
        from pyterrier_rag_axioms.frames import gold_answer_texts
        from pyterrier_rag_axioms.frames.context import normalize_context

        for qid, rows in run.groupby("query_id"):
            if len(rows) != 1:
                raise ValueError(f"{name} expects exactly 1 generated answer per query_id, got {len(rows)}")
            answer = rows["qanswer"].iloc[0]
            if not isinstance(answer, str):
                raise TypeError(f"{name}: the qanswer of query_id {qid!r} is a {type(answer).__name__}, not a string")
            passages = normalize_context(rows["qcontext"].iloc[0]) if "qcontext" in rows.columns else None
            if needs_context and passages is None:
                raise ValueError(
                    f"{name}: query_id {qid!r} has no passages in 'qcontext'; the measure reads the answer's "
                    "own passages (keep them in the run, as pyterrier-rag's readers and MultiGenerator do)"
                )
            where = f"{name}: query_id {qid!r}"
            gold = tuple(
                text
                for value in qrels.loc[qrels["query_id"] == qid, "gold_answer"]
                for text in gold_answer_texts(value, where)
            )
            if needs_gold and not gold:
                continue  # no reference answer: no value
            value = claim_measures(answer, passages, gold)[name]
            if not math.isnan(value):
                yield str(qid), value

    run_inputs = ["qanswer", "qcontext"] if needs_context else ["qanswer"]
    qrel_inputs = ["gold_answer"]
    return ir_measures.define(by_query, name=name, support_cutoff=False, run_inputs=run_inputs, qrel_inputs=qrel_inputs)


#: The share of the answer's claims that its passages (``qcontext``) support.
Faithful = _claim_measure("Faithful", needs_context=True, needs_gold=False)
#: The share of the answer's claims that neither its passages nor a gold answer support.
Hallucination = _claim_measure("Hallucination", needs_context=True, needs_gold=False)
#: Of the gold answers' claims that the passages support, the share that the answer states.
ContextUtilisation = _claim_measure("ContextUtilisation", needs_context=True, needs_gold=True)
#: The share of the gold answers' claims that the answer states.
ClaimRecall = _claim_measure("ClaimRecall", needs_context=False, needs_gold=True)
#: The share of the answer's claims that a gold answer supports.
ClaimPrecision = _claim_measure("ClaimPrecision", needs_context=False, needs_gold=True)

__all__ = [
    "ClaimPrecision", "ClaimRecall", "ContextUtilisation", "Faithful", "Hallucination", "RefNuggets",
    "claim_measures", "ref_nuggets",
]
