"""The consistency axioms (CONS1-CONS3) against the retrieved context, on obvious cases."""

from __future__ import annotations

import pandas as pd
from conftest import prefer

import pyterrier_rag_axioms as pra


def test_cons1_prefers_sentences_on_the_context_aspects_not_the_query():
    query = "Tell me something."
    context = ["Marie Curie discovered polonium and radium.", "She won the Nobel Prize in physics and chemistry."]
    grounded = "Marie Curie discovered radium. She won Nobel Prizes in physics and chemistry. Polonium was her find."
    ungrounded = "Tell me something. Something is here."
    assert prefer(pra.CONS1(), grounded, ungrounded, query=query, context=context) == 1.0
    # the same responses without any context: no preference
    assert prefer(pra.CONS1(), grounded, ungrounded, query=query) == 0.0


def test_cons2_prefers_overlap_with_the_context():
    context = ["The Eiffel Tower was completed in 1889 for the World's Fair.", "It is 330 metres tall."]
    copying = "The Eiffel Tower was completed in 1889 for the World's Fair. It is 330 metres tall."
    unrelated = "Bananas are rich in potassium and grow in the tropics."
    assert prefer(pra.CONS2(), copying, unrelated, context=context) == 1.0
    assert prefer(pra.CONS2(), copying, unrelated, context=None) == 0.0
    assert prefer(pra.CONS2(), copying, unrelated, context="It is 330 metres tall.") == 1.0


def test_cons3_penalises_entities_both_negated_and_not():
    consistent = "Barack Obama visited Germany. Angela Merkel met him in Berlin."
    contradictory = "Barack Obama visited Germany. Barack Obama did not visit Germany."
    assert prefer(pra.CONS3(), consistent, contradictory) == 1.0
    frame = pd.DataFrame({"qid": ["q", "q"], "query": ["x", "x"], "response": [consistent, contradictory]})
    values = pra.CONS3().values(frame)["CONS3_value"].tolist()
    assert values[0] == 0.0 and values[1] > 0.0
