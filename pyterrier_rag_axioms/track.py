"""Judging and assigning a track on one parse: the run judge and the nugget assigner, topic by topic.

A TREC RAG track is judged by the run judge and scored by the nugget assigner, and each reads the
same answers through the same spaCy pipeline. :func:`judge_and_assign` runs both on each topic in
the same worker process (:func:`~pyterrier_rag_axioms.runtime.by_topic.on_one_parse`), one after the other,
so the shared analyzer parses each answer once for both: the judge then costs its embeddings and
its axioms' own work. The results are those of each run alone (every score depends only on its
topic's answers and nuggets), in the responses' order.
"""

from __future__ import annotations

import pandas as pd

from pyterrier_rag_axioms.declaration import replaced
from pyterrier_rag_axioms.frames import response_frame
from pyterrier_rag_axioms.nuggets import NuggetAssigner
from pyterrier_rag_axioms.preference import PreferenceModel
from pyterrier_rag_axioms.runtime.by_topic import on_one_parse


def judge_and_assign(
    responses: pd.DataFrame,
    assigner: NuggetAssigner,
    judge: PreferenceModel | None = None,
    *,
    processes: int | None = None,
    verbose: bool = False,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The assigner's output and the judge's scores of a response frame, each topic in one worker for both.

    Args:
        responses: a response frame (``qid``, ``query``, ``docno``, ``response``).
        assigner: the nugget assigner (its nuggets cover the responses' topics).
        judge: the preference model whose scores judge the responses (default: the run judge,
            ``PreferenceModel.default("nuggets")``).
        processes: worker processes, each on whole topics (default: the cores this process may use,
            at most 4; the same output).
        verbose: one progress bar over the topics.

    Returns:
        ``(assignments, scores)``: ``assigner(responses)`` and ``judge.scores(responses)``, the same
        rows in the same order.
    """
    judge = judge if judge is not None else PreferenceModel.default("nuggets")
    responses = response_frame(responses, judge)
    alone = {"processes": 1, "verbose": False}  # each worker runs both on its topics, one after the other
    assign_topics, judge_topics = replaced(assigner, **alone), replaced(judge, **alone)
    assignments, scores = on_one_parse(
        [assign_topics, judge_topics.scores],
        responses,
        prepare=[assigner.prepare, judge.prepare],
        processes=processes,
        verbose=verbose,
        desc="Judge and assign",
    )
    return assignments, scores


__all__ = ["judge_and_assign"]
