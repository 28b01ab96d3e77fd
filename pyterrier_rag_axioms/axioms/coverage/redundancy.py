"""Redundancy between sentences (COV4): broad coverage is lost to sentences that repeat each other."""

from __future__ import annotations

from itertools import combinations

import numpy as np

from pyterrier_rag_axioms.axioms._analyzed import TextFeatureAxiom
from pyterrier_rag_axioms.tools.lexical import content_words
from pyterrier_rag_axioms.tools.text import TextAnalysis


class SentenceRedundancyCoverageAxiom(TextFeatureAxiom):
    """COV4: prefer responses whose sentences repeat each other less.

    Intuition: a sentence that says again what another sentence said adds length but no
    information. Each sentence is the set of its content words (lower-cased, without stop words
    and citation markers); a sentence's redundancy is its largest Jaccard overlap with any other
    sentence of the response, and the value is the mean redundancy over the sentences. Lower is
    better. NaN for a response with fewer than two sentences with content words.
    """

    short_name = "COV4"
    default_margin_fraction = 0.1
    prefer_higher = False

    def text_value(self, analysis: TextAnalysis) -> float:
        sentences = [set(content_words(sentence)) for sentence in analysis.sentence_texts]
        sentences = [sentence for sentence in sentences if sentence]
        if len(sentences) < 2:
            return float("nan")
        largest = np.zeros(len(sentences))
        for i, j in combinations(range(len(sentences)), 2):
            overlap = len(sentences[i] & sentences[j]) / len(sentences[i] | sentences[j])
            largest[i] = max(largest[i], overlap)
            largest[j] = max(largest[j], overlap)
        return float(largest.mean())


COV4 = SentenceRedundancyCoverageAxiom
