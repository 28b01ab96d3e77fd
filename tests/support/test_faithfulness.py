"""Faithfulness: an answer's claims checked against its own passages (real spaCy, the shipped support model)."""

from __future__ import annotations

import pandas as pd
import pyterrier as pt
import pytest

import pyterrier_rag_axioms as pra
from pyterrier_rag_axioms.grounding import declines

AURORA = [
    "The aurora borealis is caused by charged particles from the Sun colliding with gases in Earth's upper atmosphere.",
    "Oxygen emits green and red light in auroras, while nitrogen produces blue and purple hues.",
    "Auroras are most often seen near the magnetic poles because Earth's magnetic field guides the solar wind there.",
]
FAITHFUL = (
    "The northern lights are caused by charged particles from the Sun colliding with gases in the upper "
    "atmosphere. Oxygen gives off green and red light, and nitrogen gives off blue and purple light."
)
INVENTED = (
    "The northern lights are caused by charged particles from the Sun colliding with gases in the upper "
    "atmosphere. They were first photographed in 1892 by a Danish priest in Copenhagen."
)
DECLINING = "Unable to answer based on given passages."


def frame(*responses, context=AURORA) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "qid": "q1",
            "query": "What causes the northern lights?",
            "docno": [f"d{number}" for number in range(len(responses))],
            "response": list(responses),
            "context": [context] * len(responses),
        }
    )


def test_supported_claims_and_the_span_of_an_invented_one():
    out = pra.Faithfulness()(frame(FAITHFUL, INVENTED, DECLINING))
    faithful, invented, declining = out.to_dict("records")
    assert faithful["faithfulness"] == 1.0 and faithful["unsupported"] == []
    assert 0.0 < invented["faithfulness"] < 1.0
    (span,) = invented["unsupported"]
    assert span["text"] == INVENTED[span["start"] : span["end"]]
    assert "1892" in span["text"] and "charged" not in span["text"]
    assert declining["faithfulness"] == 1.0 and declining["unsupported"] == []  # declining claims nothing


def test_declining_sentences():
    assert declines("The passages provided do not contain information about the weather in Hinesburg.")
    assert declines("Based on the given passages, it is not possible to determine the current weather.")
    assert not declines("The passages describe the weather in Hinesburg as mild.")


def test_pyterrier_rag_names_stay_and_the_input_is_untouched():
    given = frame(FAITHFUL).rename(columns={"response": "qanswer", "context": "qcontext"})
    copy = given.copy()
    out = pra.Faithfulness()(given)
    assert {"qanswer", "qcontext", "faithfulness", "unsupported"} <= set(out.columns)
    pd.testing.assert_frame_equal(given, copy)


def test_an_answer_without_context_is_an_error_that_names_it():
    rows = pd.concat([frame(FAITHFUL), frame(INVENTED, context=None).assign(docno="d9")], ignore_index=True)
    with pytest.raises(ValueError, match=r"Faithfulness: column 'context' has no passages for qid 'q1', docno 'd9'"):
        pra.Faithfulness()(rows)


def test_empty_frame_threshold_and_inspection():
    out = pra.Faithfulness()(frame())
    assert len(out) == 0 and {"faithfulness", "unsupported"} <= set(out.columns)
    strict = pra.Faithfulness(threshold=0.999)(frame(FAITHFUL))
    assert strict["faithfulness"].iloc[0] < 1.0  # no claim is that sure
    assert repr(pra.Faithfulness(threshold=0.5)) == "Faithfulness(threshold=0.5)"
    with pytest.raises(ValueError, match="threshold"):
        pra.Faithfulness(threshold=1.5)
    assert pt.inspect.transformer_attributes(pra.Faithfulness())
