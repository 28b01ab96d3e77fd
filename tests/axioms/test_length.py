"""LEN1, the length baseline."""

from __future__ import annotations

from conftest import prefer, value

import pyterrier_rag_axioms as pra


def test_len1_prefers_the_longer_response_and_ignores_citation_markers():
    assert prefer(pra.LEN1(), "Paris is the capital of France and its largest city.", "Paris.") == 1.0
    assert value(pra.LEN1(), "Coffee helps [0,1,2]. It is tasty [3].") == 5.0
    assert prefer(pra.LEN1(), "one two three four five six seven eight nine ten", "one two three four five six "
                  "seven eight nine ten eleven") == 0.0  # within the 10 % margin
