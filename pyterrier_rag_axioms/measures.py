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

Example::

    pt.Experiment([pipeline_a, pipeline_b], topics, answers,
                  [pyterrier_rag.measures.F1, pyterrier_rag.measures.ROUGELF, RefNuggets])
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import ir_measures
import pandas as pd


def ref_nuggets(qrels: pd.DataFrame, res: pd.DataFrame) -> float:
    """:data:`RefNuggets` of one query: its one generated answer against its gold answers (NaN where
    every gold answer is blank: no reference)."""
    from pyterrier_rag_axioms.nuggets.reference import SCORE_COLUMN, reference_score
    from pyterrier_rag_axioms.preference.reference import gold_answer_texts

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

__all__ = ["RefNuggets", "ref_nuggets"]
