"""Judging and assigning a track on one parse: the same output as the judge and the assigner alone."""

from __future__ import annotations

import pandas as pd

from pyterrier_rag_axioms import PreferenceModel
from pyterrier_rag_axioms.judgments import load_run_files
from pyterrier_rag_axioms.nuggets import NuggetAssigner
from pyterrier_rag_axioms.sample import trec_sample_path, trec_sample_runs
from pyterrier_rag_axioms.track import judge_and_assign


def _track() -> tuple[pd.DataFrame, NuggetAssigner]:
    responses = load_run_files([str(path) for path in trec_sample_runs()])[["qid", "query", "docno", "response"]]
    assigner = NuggetAssigner(nuggets=trec_sample_path("nuggets.jsonl"))
    judged = responses[responses["qid"].isin(set(assigner.nugget_frame["qid"]))]
    # interleave the topics: the output follows the responses' order, not the workers'
    return judged.iloc[::-1].reset_index(drop=True), assigner


def test_both_in_one_pass_give_what_each_gives_alone_in_the_responses_order():
    responses, assigner = _track()
    judge = PreferenceModel.default("nuggets", processes=1)
    assignments, scores = judge_and_assign(responses, assigner, judge, processes=2)
    pd.testing.assert_frame_equal(assignments, NuggetAssigner(nuggets=assigner.nuggets, processes=1)(responses))
    pd.testing.assert_frame_equal(scores, judge.scores(responses))
    assert list(dict.fromkeys(zip(assignments["qid"], assignments["docno"]))) == list(
        zip(responses["qid"], responses["docno"]))


def test_no_responses_give_empty_frames_with_the_columns():
    responses, assigner = _track()
    assignments, scores = judge_and_assign(responses.iloc[:0], assigner, processes=2)
    assert assignments.empty and "assignment" in assignments.columns
    assert scores.empty and "PreferenceModel_score" in scores.columns
