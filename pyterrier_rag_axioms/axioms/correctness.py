"""Correctness axioms.

Factuality: does the response state things that are verifiable? Topical correctness: does the
response stay within the scope of the information need?
"""

from __future__ import annotations

from pyterrier_rag_axioms.axioms._analyzed import TextFeatureAxiom
from pyterrier_rag_axioms.tools.text import CITATION_PATTERN, TextAnalysis


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
        return analysis.sentence_share(CITATION_PATTERN)


CORR1 = CitationSentenceCorrectnessAxiom
