"""Coherence axioms.

Logical coherence: is the response well-structured? Stylistic coherence: does the response keep
a uniform style of speech?
"""

from __future__ import annotations

from pyterrier_rag_axioms.base import TextFeatureAxiom
from pyterrier_rag_axioms.tools.text import TextAnalysis


class WordLengthDeviationCoherenceAxiom(TextFeatureAxiom):
    """COH1: prefer responses with less variance in average word length across sentences.

    Intuition: a uniform style keeps the average word length of its sentences steady. The value
    is the standard deviation of the sentences' average word lengths (words are spaCy tokens
    without punctuation); lower is better. NaN for a response without words.
    """

    short_name = "COH1"
    default_margin_fraction = 0.0
    prefer_higher = False

    def text_value(self, analysis: TextAnalysis) -> float:
        return analysis.word_length_deviation


class SubjectVerbClosenessCoherenceAxiom(TextFeatureAxiom):
    """COH2: prefer responses whose subjects stand closer to their verbs.

    Intuition: sentences whose subject and verb are near each other are easier to follow. The
    value is, over the subject-verb-object triples of the response (from spaCy's dependency
    parse), the mean of the largest token distance between a subject and its verb; lower is
    better. NaN for a response without such triples.
    """

    short_name = "COH2"
    default_margin_fraction = 0.1
    prefer_higher = False

    def text_value(self, analysis: TextAnalysis) -> float:
        return analysis.average_subject_verb_distance


COH1 = WordLengthDeviationCoherenceAxiom
COH2 = SubjectVerbClosenessCoherenceAxiom
