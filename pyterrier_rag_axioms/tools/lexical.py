"""Lexical primitives that need no parse: content words, citation markers and the numbers they cite."""

from __future__ import annotations

import functools
import re

from pyterrier_rag_axioms.tools.text import CITATION_PATTERN

_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")


@functools.cache
def _stop_words() -> frozenset[str]:
    from spacy.lang.en.stop_words import STOP_WORDS  # loaded on first use only

    return frozenset(STOP_WORDS)


def words(text: str) -> list[str]:
    """The lower-cased words of a text (letters and digits), without citation markers such as ``[0,1]``."""
    return _WORD.findall(CITATION_PATTERN.sub(" ", text).lower())


def content_words(text: str) -> list[str]:
    """The lower-cased words of a text without spaCy's English stop words, in text order."""
    stop = _stop_words()
    return [word for word in words(text) if word not in stop]


def cited_numbers(text: str) -> list[int]:
    """The numbers cited by the markers of a text, in order: ``"[0,2] [4-6]"`` gives ``[0, 2, 4, 5, 6]``."""
    numbers: list[int] = []
    for marker in CITATION_PATTERN.finditer(text):
        for part in re.split(r"\s*[,;]\s*", marker.group(0).strip("[] ")):
            bounds = re.split(r"\s*[\-\u2013]\s*", part)
            if len(bounds) == 2 and int(bounds[1]) >= int(bounds[0]) and int(bounds[1]) - int(bounds[0]) < 100:
                numbers.extend(range(int(bounds[0]), int(bounds[1]) + 1))
            else:
                numbers.extend(int(bound) for bound in bounds)
    return numbers
