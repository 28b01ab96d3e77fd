"""The nugget model clips its length feature to the range it was fitted on: an answer repeating one sentence
many times reads as the longest answer seen in fitting, and inputs inside the range keep their decisions."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from pyterrier_rag_axioms.declaration import replaced
from pyterrier_rag_axioms.nuggets import NuggetAssigner, NuggetModel
from pyterrier_rag_axioms.nuggets.model import fit_nugget_model
from pyterrier_rag_axioms.sample import trec_sample_path

QUERY = "what have teen done to stop animal testing"  # the sample topic 2024-142395: 13 nuggets
SENTENCE = "Some teens donate money to groups that fight animal testing."


def test_the_shipped_model_records_the_length_range_it_was_fitted_on():
    model = NuggetModel.default()
    # log1p of 1 and of 24 sentences: the shortest and longest development answers
    assert model.ranges == (("sentences", 0.693147, 3.218876),)
    inside = np.array([[0.9, 0.8, 0.7, 0.3, value] for value in (0.693147, 2.0, 3.218876)])
    unclipped = replaced(model, ranges=())
    np.testing.assert_array_equal(model.probability(inside), unclipped.probability(inside))
    beyond = np.array([[0.9, 0.8, 0.7, 0.3, value] for value in (0.0, 3.218876, 10.6)])
    at_bounds = np.array([[0.9, 0.8, 0.7, 0.3, value] for value in (0.693147, 3.218876, 3.218876)])
    np.testing.assert_array_equal(model.probability(beyond), unclipped.probability(at_bounds))
    assert unclipped.probability(beyond)[2] < model.probability(beyond)[2]


def test_a_sentence_repeated_beyond_the_fitted_lengths_reads_as_the_longest_fitted_answer():
    nuggets = str(trec_sample_path("nuggets.jsonl"))

    def confidences(model: NuggetModel, repeats: int) -> pd.Series:
        answer = pd.DataFrame(
            {"qid": ["2024-142395"], "query": [QUERY], "docno": ["a"], "response": [" ".join([SENTENCE] * repeats)]}
        )
        assigned = NuggetAssigner(nuggets=nuggets, model=model, processes=1)(answer)
        return assigned.set_index("nugget_id")["confidence"]

    model = NuggetModel.default()
    longest, far_longer = confidences(model, 30), confidences(model, 400)  # log1p(30) > 3.218876 already
    pd.testing.assert_series_equal(longest, far_longer)
    unclipped = replaced(model, ranges=())
    assert (confidences(unclipped, 400) < confidences(unclipped, 30)).any()  # what clipping prevents
    pd.testing.assert_series_equal(confidences(model, 1), confidences(unclipped, 1))  # inside: unchanged


def test_ranges_are_fitted_saved_checked_and_optional(tmp_path):
    rng = np.random.default_rng(0)
    features = pd.DataFrame(
        rng.uniform(0, 1, size=(60, 5)), columns=["lexical", "soft_lexical", "similarity", "contrast", "sentences"]
    )
    features["sentences"] = np.log1p(rng.integers(1, 9, size=60))
    labels = np.where(features["similarity"] > 0.5, "support", "not_support")
    model = fit_nugget_model(features, labels, ["t1"] * 30 + ["t2"] * 30)
    assert model.ranges == (("sentences", features["sentences"].min(), features["sentences"].max()),)
    model.save(tmp_path / "model.json")
    assert NuggetModel.load(tmp_path / "model.json") == model and eval(repr(model)) == model
    older = json.loads((tmp_path / "model.json").read_text())
    del older["ranges"]  # a file written before ranges: clips nothing
    (tmp_path / "older.json").write_text(json.dumps(older))
    assert NuggetModel.load(tmp_path / "older.json").ranges == ()
    for ranges, problem in (
        ([["sentences", 3.0, 1.0]], "low 3.0 is above high 1.0"),
        ([["length", 0.0, 1.0]], "names 'length', which is not among the model's features"),
        ([["sentences", 0.0]], r"ranges\[0\] must be \[feature, low, high\]"),
    ):
        (tmp_path / "bad.json").write_text(json.dumps({**older, "ranges": ranges}))
        with pytest.raises(ValueError, match=problem):
            NuggetModel.load(tmp_path / "bad.json")
