"""Flesch reading ease from the analysis's words and sentences, with syllables as spoken."""

from __future__ import annotations

from pyterrier_rag_axioms.axioms._syllables import syllable_count
from pyterrier_rag_axioms.tools.text import TextAnalysis

__all__ = ["flesch_reading_ease", "syllable_count"]


def flesch_reading_ease(analysis: TextAnalysis, *, language: str = "en_US") -> float:
    """206.835 - 1.015 * words/sentences - 84.6 * syllables/words; higher is easier (NaN without words).

    Words are the analysis's words (no punctuation, citation or line markers), sentences its
    sentences (lines and list items count as sentences); syllables are counted as spoken (see
    :mod:`~pyterrier_rag_axioms.axioms._syllables`), with Pyphen's ``language`` hyphenation for
    words the pronunciation dictionary does not know.
    """
    words = analysis.word_texts
    sentences = len(analysis.sentence_texts)
    if not words or sentences == 0:
        return float("nan")
    syllables = sum(syllable_count(word, language=language) for word in words)
    return 206.835 - 1.015 * len(words) / sentences - 84.6 * syllables / len(words)
