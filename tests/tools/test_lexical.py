"""The lexical primitives: words, content words and cited numbers."""

from __future__ import annotations

from pyterrier_rag_axioms.tools.lexical import cited_numbers, content_words


def test_lexical_primitives():
    assert cited_numbers("A [0,2]. B [4-6]. C [1; 3].") == [0, 2, 4, 5, 6, 1, 3]
    assert content_words("The kidneys[10] of the patient, 15,000 cells") == ["kidneys", "patient", "15", "000", "cells"]
