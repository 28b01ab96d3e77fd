"""CLAR2 and the Flesch reading ease it reads (CLAR1, which needs LanguageTool, is in tools/test_languagetool.py)."""

from __future__ import annotations

import pytest
from conftest import prefer

import pyterrier_rag_axioms as pra
from pyterrier_rag_axioms.tools.text import TextAnalyzer


def test_clar2_prefers_easier_text_and_can_reproduce_the_paper():
    easy = "The cat sat. The dog ran. We had fun."
    hard = (
        "Notwithstanding considerable institutional heterogeneity, comprehensive intergovernmental "
        "coordination remains."
    )
    assert prefer(pra.CLAR2(), easy, hard) == 1.0
    assert prefer(pra.CLAR2(paper_direction=True), easy, hard) == -1.0


def test_flesch_reading_ease_follows_the_formula():
    from pyterrier_rag_axioms.axioms._readability import flesch_reading_ease, syllable_count

    analysis = TextAnalyzer().analyse(["The cat sat on the mat."])[0]
    words = ["The", "cat", "sat", "on", "the", "mat"]
    syllables = sum(syllable_count(word) for word in words)
    assert syllables == 6
    assert flesch_reading_ease(analysis) == pytest.approx(206.835 - 1.015 * 6 - 84.6 * syllables / 6)
