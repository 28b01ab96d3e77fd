"""CONS4: precision against the context, on the shipped sample's aurora answers (real spaCy, the shipped model)."""

from __future__ import annotations

from conftest import prefer, value

import pyterrier_rag_axioms as pra

AURORA = [
    "The aurora borealis is caused by charged particles from the Sun colliding with gases in Earth's upper atmosphere.",
    "Oxygen emits green and red light in auroras, while nitrogen produces blue and purple hues.",
    "Auroras are most often seen near the magnetic poles because Earth's magnetic field guides the solar wind there.",
]
GROUNDED = "The northern lights are caused by charged particles from the Sun colliding with gases in the atmosphere."
LONGER = (
    "The northern lights are caused by charged particles from the Sun colliding with gases in the atmosphere. "
    "They were first photographed in 1892 by a Danish priest in Copenhagen, and they make a crackling sound."
)


def test_cons4_prefers_the_answer_its_passages_support_even_if_shorter():
    assert prefer(pra.CONS4(), GROUNDED, LONGER, context=AURORA) == 1.0
    assert prefer(pra.CONS4(), LONGER, GROUNDED, context=AURORA) == -1.0


def test_cons4_values_no_context_and_declining():
    grounded = value(pra.CONS4(), GROUNDED, context=AURORA)
    longer = value(pra.CONS4(), LONGER, context=AURORA)
    assert 0.0 <= grounded < 1.0 < longer  # expected unsupported IDF mass: the invented claims weigh
    assert value(pra.CONS4(), "Unable to answer based on given passages.", context=AURORA) == 0.0
    assert prefer(pra.CONS4(), GROUNDED, LONGER, context=None) == 0.0
    assert repr(pra.CONS4()) == "CONS4(margin_fraction=0.05)"
