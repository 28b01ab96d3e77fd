"""Long nuggets (passage extracts) are decided by the support model on the whole nugget; their spans come from
their atomic facts (real spaCy and MiniLM)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from pyterrier_rag_axioms.nuggets import NuggetAssigner
from pyterrier_rag_axioms.nuggets._evidence import LONG_NUGGET_WORDS, nugget_parts
from pyterrier_rag_axioms.support import SupportModel
from pyterrier_rag_axioms.tools.text import resolve_text_analyzer

LONG = ("The Eiffel Tower was completed in 1889 for the World's Fair in Paris, and it is 330 metres tall. "
        "Gustave Eiffel's company designed and built the tower, which attracts about seven million visitors a year.")
SHORT = "Tickets can be bought online"
ANSWERS = {
    "all": "The Eiffel Tower in Paris was finished in 1889 for the World's Fair. It is 330 metres tall. Gustave "
    "Eiffel's company designed and built it. About seven million people visit it every year.",
    "most": "The Eiffel Tower in Paris was finished in 1889 for the World's Fair. It is 330 metres tall. "
    "Gustave Eiffel's company designed and built it.",
    "one": "The Eiffel Tower is 330 metres tall.",
    "none": "Paris has many museums, such as the Louvre.",
}


@pytest.fixture(scope="module")
def assigned() -> pd.DataFrame:
    nuggets = pd.DataFrame({"qid": "t", "nugget": [LONG, SHORT], "importance": ["vital", "okay"]})
    responses = pd.DataFrame({"qid": "t", "query": "What should I know about the Eiffel Tower?",
                              "docno": list(ANSWERS), "response": list(ANSWERS.values())})
    return NuggetAssigner(nuggets=nuggets, processes=1)(responses).set_index(["docno", "nugget_id"])


def test_a_long_nugget_has_parts_and_a_short_one_is_whole():
    analyzer = resolve_text_analyzer(None)
    parts = nugget_parts(analyzer.analyse([LONG, SHORT, "Apollo 11 landed on the Moon in 1969 and returned safely"]),
                         analyzer)
    assert len(parts[LONG]) >= 4
    assert any("330 metres" in part for part in parts[LONG]) and any("1889" in part for part in parts[LONG])
    assert parts[SHORT] == (SHORT,)
    assert len("Apollo 11 landed on the Moon in 1969 and returned safely".split()) <= LONG_NUGGET_WORDS
    assert parts["Apollo 11 landed on the Moon in 1969 and returned safely"] == (
        "Apollo 11 landed on the Moon in 1969 and returned safely",)


def test_a_long_nugget_is_decided_by_the_support_model(assigned):
    long = assigned.xs("0", level="nugget_id")
    model = SupportModel.default()
    expected = model.probabilities([LONG] * len(ANSWERS), list(ANSWERS.values()))
    assert long["confidence"].to_numpy() == pytest.approx(expected, abs=1e-6)
    assert list(long["assignment"]) == list(model.assign(expected))
    assert long.loc["all", "assignment"] == "support"
    assert long.loc["one", "assignment"] == "not_support"
    assert long.loc["none", "assignment"] == "not_support"
    confidence = long["confidence"]
    assert confidence["all"] > confidence["most"] > confidence["one"] > confidence["none"]


def test_a_missing_number_costs_a_share_not_the_whole_nugget(assigned):
    # "most" lacks the seven million visitors: the rest of the nugget keeps its evidence
    assert assigned.loc[("most", "0"), "confidence"] > 0.5
    assert assigned.loc[("none", "0"), "confidence"] < 0.1
    assert (assigned.xs("1", level="nugget_id")["assignment"] == "not_support").all()
    assert all(isinstance(spans, list) and spans for spans in assigned["spans"])


def test_the_thresholds_are_the_fitted_ones():
    thresholds = SupportModel.default().nugget_thresholds
    assert 0 < thresholds["partial_support"] <= thresholds["support"] < 1
    probabilities = np.array([thresholds["support"], thresholds["partial_support"] - 1e-9, 0.0, 1.0])
    assert list(SupportModel.default().assign(probabilities)) == ["support", "not_support", "not_support", "support"]
