"""Correctness axioms.

Factuality: does the response state things that are verifiable? Topical correctness: does the
response stay within the scope of the information need?
"""

from __future__ import annotations

import re

from pyterrier_rag_axioms.base import TextFeatureAxiom
from pyterrier_rag_axioms.tools.text import TextAnalysis

#: One citation marker: ``[1]``, ``[0,1,2]``, ``[1-3]``, ``[1, 2]`` (``[1][2]`` is two markers).
CITATION_PATTERN = re.compile(r"\[\s*\d+(?:\s*[,;\-\u2013]\s*\d+)*\s*\]")
_CITATIONS_ONLY = re.compile(rf"(?:\s*{CITATION_PATTERN.pattern}\s*[.,;:]?)+\s*")


def citing_sentences(sentences: list[str]) -> list[bool]:
    """Whether each sentence cites a source.

    A "sentence" made of citation markers alone (spaCy may split ``... 1889. [2]`` there) is
    merged into the sentence before it.
    """
    cites: list[bool] = []
    for sentence in sentences:
        if cites and _CITATIONS_ONLY.fullmatch(sentence):
            cites[-1] = True
        else:
            cites.append(bool(CITATION_PATTERN.search(sentence)))
    return cites


class CitationSentenceCorrectnessAxiom(TextFeatureAxiom):
    """CORR1: prefer responses with a higher share of sentences that cite a source.

    Intuition: a sentence that references a source can be verified. The value is the share of
    sentences with a citation marker such as ``[1]``, ``[0,1,2]``, ``[1-3]`` or ``[1][2]``; higher
    is better (the reference implementation prefers the lower share, against its own intuition).
    NaN for a response without sentences.
    """

    short_name = "CORR1"
    default_margin_fraction = 0.1

    def text_value(self, analysis: TextAnalysis) -> float:
        cites = citing_sentences(analysis.sentence_texts)
        return sum(cites) / len(cites) if cites else float("nan")


CORR1 = CitationSentenceCorrectnessAxiom
