"""RAGChecker-like measures without an LLM, through pt.Experiment (real spaCy, the shipped support model)."""

from __future__ import annotations

import pandas as pd
import pyterrier as pt
import pytest

from pyterrier_rag_axioms.measures import ClaimPrecision, ClaimRecall, ContextUtilisation, Faithful, Hallucination

AURORA = [
    "The aurora borealis is caused by charged particles from the Sun colliding with gases in Earth's upper atmosphere.",
    "Oxygen emits green and red light in auroras, while nitrogen produces blue and purple hues.",
]
GOLD = "Charged particles from the Sun collide with gases in the upper atmosphere. Oxygen emits green light."
FAITHFUL = "Charged particles from the Sun collide with gases in the upper atmosphere and cause the aurora."
INVENTED = "Auroras were first photographed in 1892 by a Danish priest in Copenhagen."
MEASURES = [Faithful, Hallucination, ContextUtilisation, ClaimRecall, ClaimPrecision]


def answering(answer: str, context) -> pt.Transformer:
    return pt.apply.generic(lambda topics: topics.assign(qanswer=answer, qcontext=[context] * len(topics)))


def experiment(*systems) -> pd.DataFrame:
    topics = pd.DataFrame({"qid": ["1"], "query": ["What causes the northern lights?"]})
    gold = pd.DataFrame({"qid": ["1"], "gold_answer": [GOLD]})
    names = [f"s{number}" for number in range(len(systems))]
    return pt.Experiment(list(systems), topics, gold, MEASURES, names=names).set_index("name")


def test_a_faithful_answer_against_an_invented_one():
    result = experiment(answering(FAITHFUL, AURORA), answering(INVENTED, AURORA))
    assert result.loc["s0", "Faithful"] == 1.0 and result.loc["s0", "Hallucination"] == 0.0
    assert result.loc["s1", "Faithful"] == 0.0 and result.loc["s1", "Hallucination"] == 1.0
    assert result.loc["s0", "ClaimRecall"] > result.loc["s1", "ClaimRecall"]
    assert result.loc["s0", "ClaimPrecision"] > result.loc["s1", "ClaimPrecision"]
    assert result.loc["s0", "ContextUtilisation"] > result.loc["s1", "ContextUtilisation"]


def test_a_run_without_passages_is_named():
    # whichever of the three measures that read the passages comes first
    message = r"(Faithful|Hallucination|ContextUtilisation): query_id '1' has no passages in 'qcontext'"
    with pytest.raises(ValueError, match=message):
        experiment(answering(FAITHFUL, None))
