"""Lexical primitives that need no parse: content words (the rule of
:mod:`~pyterrier_rag_axioms.tools.text.vocabulary`), citation markers and the numbers they cite."""

from __future__ import annotations

import re

from pyterrier_rag_axioms.tools.text import CITATION_PATTERN
from pyterrier_rag_axioms.tools.text.vocabulary import content_words, words


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


__all__ = ["cited_numbers", "content_words", "words"]
