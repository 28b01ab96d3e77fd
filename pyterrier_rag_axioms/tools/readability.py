"""Flesch reading ease from spaCy words and sentences, with syllables counted by Pyphen."""

from __future__ import annotations

import functools

import pyphen

from pyterrier_rag_axioms.tools.text import TextAnalysis


@functools.cache
def _hyphenator(language: str) -> pyphen.Pyphen:
    return pyphen.Pyphen(lang=language)


def syllable_count(word: str, *, language: str = "en_US") -> int:
    """Syllables of a word: the hyphenation points Pyphen finds, plus one."""
    return len(_hyphenator(language).positions(word)) + 1


def flesch_reading_ease(analysis: TextAnalysis, *, language: str = "en_US") -> float:
    """206.835 - 1.015 * words/sentences - 84.6 * syllables/words; higher is easier (NaN without words)."""
    words = analysis.word_texts
    sentences = len(analysis.sentence_texts)
    if not words or sentences == 0:
        return float("nan")
    syllables = sum(syllable_count(word, language=language) for word in words)
    return 206.835 - 1.015 * len(words) / sentences - 84.6 * syllables / len(words)
