"""Measures of generated answers against gold answers, for ``pt.Experiment`` beside ``pyterrier_rag.measures``.

They follow pyterrier-rag's conventions: ``ir_measures`` measures defined per query
(``define_byquery``), reading one generated answer per query (``qanswer``) and the query's gold
answers (``gold_answer``: one row per answer, or a list of answers in a row), without cutoff.

- :data:`RefNuggets`: the graded score of the answer against the nuggets of its gold answers
  (:func:`~pyterrier_rag_axioms.nuggets.reference.reference_score`: the mean probability that the
  answer supports each atomic fact of a gold answer, plus its ROUGE-L F-measure against that
  answer; the best gold answer's). It ranges from 0 to 2.

Example::

    pt.Experiment([pipeline_a, pipeline_b], topics, answers,
                  [pyterrier_rag.measures.F1, pyterrier_rag.measures.ROUGELF, RefNuggets])
"""

from __future__ import annotations

import ir_measures
import pandas as pd


def _gold_answers(qrels: pd.DataFrame) -> list:
    """The gold answers of one query's qrels rows (a row may hold a string or a list of strings)."""
    answers: list = []
    for value in qrels["gold_answer"]:
        answers.extend(value.tolist() if hasattr(value, "tolist") else value if isinstance(value, (list, tuple))
                       else [value])
    return answers


def ref_nuggets(qrels: pd.DataFrame, res: pd.DataFrame) -> float:
    """:data:`RefNuggets` of one query: its one generated answer against its gold answers."""
    from pyterrier_rag_axioms.nuggets.reference import SCORE_COLUMN, reference_score

    if len(res) != 1:
        raise ValueError(f"RefNuggets expects exactly 1 generated answer per query_id, got {len(res)}")
    answer = res["qanswer"].iloc[0]
    if not isinstance(answer, str):
        raise TypeError(f"RefNuggets: the qanswer of query_id {res['query_id'].iloc[0]!r} is a "
                        f"{type(answer).__name__}, not a string")
    if not answer.strip():
        return 0.0
    query = next((res[column].iloc[0] for column in ("query", "query_0") if column in res.columns
                  and isinstance(res[column].iloc[0], str)), "")
    qid = str(res["query_id"].iloc[0])
    answers = pd.DataFrame({"qid": qid, "query": query, "gold_answer": [_gold_answers(qrels)]})
    responses = pd.DataFrame({"qid": [qid], "query": [query], "docno": ["0"], "response": [answer]})
    return float(reference_score(responses, answers)[SCORE_COLUMN].iloc[0])


#: The graded score of a generated answer against the nuggets of its gold answers (see the module).
RefNuggets = ir_measures.define_byquery(
    ref_nuggets, name="RefNuggets", support_cutoff=False, run_inputs=["qanswer"], qrel_inputs=["gold_answer"]
)

__all__ = ["RefNuggets", "ref_nuggets"]
