"""The coherence axioms (COH1-COH4) with real spaCy models, on obvious cases."""

from __future__ import annotations

import numpy as np
from conftest import prefer, value

import pyterrier_rag_axioms as pra


def test_coh1_prefers_uniform_word_lengths():
    uniform = "The cat sat on the mat. The dog ran to the car. The bird saw the sun."
    mixed = "Go to it. Extraordinarily sophisticated international negotiations necessitate considerable preparation."
    assert prefer(pra.COH1(), uniform, mixed) == 1.0
    assert prefer(pra.COH1(), mixed, uniform) == -1.0


def test_coh2_prefers_subjects_close_to_their_verbs():
    close = "The committee approved the budget. The minister signed the law."
    far = (
        "The committee, which after many long and heated debates over several weeks finally met, approved the budget."
    )
    assert prefer(pra.COH2(), close, far) == 1.0


def test_coh3_prefers_a_steady_tense():
    steady = "The tower stands in Paris. It attracts many visitors. It is made of iron."
    switching = "The tower stood in Paris. It attracts many visitors. It was made of iron."
    assert value(pra.COH3(), steady) == 0.0
    assert value(pra.COH3(), switching) == 1.0
    assert prefer(pra.COH3(), steady, switching) == 1.0
    assert np.isnan(value(pra.COH3(), "Paris."))


def test_coh4_prefers_explicit_connectives():
    connected = "Prices rose because demand grew. However, supply stayed flat. For example, oil was scarce."
    bare = "Prices rose. Demand grew. Supply stayed flat. Oil was scarce."
    assert value(pra.COH4(), connected) == 1.0
    assert value(pra.COH4(), bare) == 0.0
    assert prefer(pra.COH4(), connected, bare) == 1.0
