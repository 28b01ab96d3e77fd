"""Coherence axioms.

Logical coherence: is the response well-structured? Stylistic coherence: does the response keep
a uniform style of speech?
"""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING

import numpy as np

from pyterrier_rag_axioms.axioms._analyzed import TextFeatureAxiom
from pyterrier_rag_axioms.base import parameter, parameters
from pyterrier_rag_axioms.tools.triples import TRIPLE_RULES, TripleRules, subject_verb_object_triples

if TYPE_CHECKING:
    from pyterrier_rag_axioms.tools.text import TextAnalysis


class WordLengthDeviationCoherenceAxiom(TextFeatureAxiom):
    """COH1: prefer responses with less variance in average word length across sentences.

    Intuition: a uniform style keeps the average word length of its sentences steady. The value
    is the standard deviation of the sentences' average word lengths (words are spaCy tokens
    without punctuation, citation and line markers); lower is better. NaN for a response with
    fewer than two sentences: one sentence has no deviation, so it is neither more nor less
    uniform than another response.
    """

    short_name = "COH1"
    default_margin_fraction = 0.0
    prefer_higher = False

    def text_value(self, analysis: TextAnalysis) -> float:
        """Population standard deviation of the sentences' average word lengths (NaN with fewer than two)."""
        averages = []
        for sentence in analysis.sentences:
            lengths = [len(token.text) for token in analysis.sentence_words(sentence)]
            if lengths:
                averages.append(sum(lengths) / len(lengths))
        return float(np.std(averages)) if len(averages) >= 2 else float("nan")


@parameters
class SubjectVerbClosenessCoherenceAxiom(TextFeatureAxiom):
    """COH2: prefer responses whose subjects stand closer to their verbs.

    Intuition: sentences whose subject and verb are near each other are easier to follow. The
    value is, over the subject-verb-object triples of the response (from spaCy's dependency
    parse), the mean of the largest token distance between a subject and its verb; lower is
    better. NaN for a response without such triples. ``triples="reference"`` (default) reads the
    triples as the reference implementation defines them, ``triples="broad"`` by wider rules that
    also count copular sentences and prepositional objects (see
    :mod:`~pyterrier_rag_axioms.tools.triples`).
    """

    short_name = "COH2"
    default_margin_fraction = 0.1
    prefer_higher = False

    #: Which subject-verb-object triples count: ``"reference"`` (the reference implementation's
    #: definition) or ``"broad"`` (the package's earlier, wider rules).
    triples: TripleRules = parameter("reference")

    def __post_init__(self) -> None:
        if self.triples not in TRIPLE_RULES:
            raise ValueError(f"COH2: triples must be one of {TRIPLE_RULES}, not {self.triples!r}")
        super().__post_init__()

    def text_value(self, analysis: TextAnalysis) -> float:
        """Mean over the response's triples of the largest subject-verb distance (NaN without triples)."""
        distances = [triple.distance for triple in subject_verb_object_triples(analysis.sentences, rules=self.triples)]
        return statistics.fmean(distances) if distances else float("nan")


COH1 = WordLengthDeviationCoherenceAxiom
COH2 = SubjectVerbClosenessCoherenceAxiom
