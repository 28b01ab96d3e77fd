"""Long nuggets (passage extracts) are assigned by their atomic facts: support is the share of parts supported,
the number-and-entity rule holds per part (real spaCy and MiniLM)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from pyterrier_rag_axioms.nuggets import NuggetAssigner
from pyterrier_rag_axioms.nuggets._evidence import LONG_NUGGET_WORDS, nugget_parts
from pyterrier_rag_axioms.nuggets.assigner import parts_decision
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


def test_support_is_the_share_of_parts_supported(assigned):
    long = assigned.xs("0", level="nugget_id")
    assert long.loc["all", "assignment"] == "support"
    assert long.loc["most", "assignment"] == "partial_support"
    assert long.loc["one", "assignment"] == "not_support"
    assert long.loc["none", "assignment"] == "not_support"
    confidence = long["confidence"]
    assert confidence["all"] > confidence["most"] > confidence["one"] > confidence["none"]


def test_numbers_and_entities_count_per_part(assigned):
    # "most" lacks the part with seven million visitors, yet its other parts keep their evidence:
    # the whole nugget's numbers would have set its confidence to 0
    assert assigned.loc[("most", "0"), "confidence"] > 0.3
    assert assigned.loc[("none", "0"), "confidence"] < 0.05
    assert (assigned.xs("1", level="nugget_id")["assignment"] == "not_support").all()
    assert all(isinstance(spans, list) and spans for spans in assigned["spans"])


def test_parts_decision():
    assert parts_decision(np.array([0.8]), np.array(["support"], dtype=object)) == ("support", 0.8)
    assert parts_decision(np.array([0.9, 0.7]), np.array(["support"] * 2, dtype=object)) == ("support", 0.8)
    found, confidence = parts_decision(np.array([0.9, 0.0, 0.5]),
                                       np.array(["support", "not_support", "support"], dtype=object))
    assert found == "partial_support" and confidence == pytest.approx(1.4 / 3)
    assert parts_decision(np.array([0.9, 0.1, 0.1]),
                          np.array(["support", "not_support", "not_support"], dtype=object))[0] == "not_support"
