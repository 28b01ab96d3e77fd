"""Coherence axioms.

Logical coherence: is the response well-structured? Stylistic coherence: does the response keep
a uniform style of speech?
"""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING

import numpy as np

from pyterrier_rag_axioms.axioms._analyzed import TextFeatureAxiom
from pyterrier_rag_axioms.tools.triples import TRIPLE_RULES, TripleRules, subject_verb_object_triples

if TYPE_CHECKING:
    from pyterrier_rag_axioms.tools.text import TextAnalysis, TextAnalyzer


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

    def __init__(
        self,
        *,
        margin_fraction: float | None = None,
        triples: TripleRules = "reference",
        text_analyzer: TextAnalyzer | str | None = None,
        name: str | None = None,
        verbose: bool = False,
    ):
        """
        Args:
            margin_fraction: relative difference within which two values tie (default 0.1).
            triples: which subject-verb-object triples count: ``"reference"`` or ``"broad"``.
            text_analyzer: a :class:`TextAnalyzer` or spaCy model name.
            name: name of the preference column (default ``"COH2"``).
            verbose: show progress of long work.
        """
        if triples not in TRIPLE_RULES:
            raise ValueError(f"COH2: triples must be one of {TRIPLE_RULES}, not {triples!r}")
        super().__init__(margin_fraction=margin_fraction, text_analyzer=text_analyzer, name=name, verbose=verbose)
        self.triples = triples

    def _parameters(self) -> dict[str, object]:
        return {} if self.triples == "reference" else {"triples": self.triples}

    def text_value(self, analysis: TextAnalysis) -> float:
        """Mean over the response's triples of the largest subject-verb distance (NaN without triples)."""
        distances = [triple.distance for triple in subject_verb_object_triples(analysis.sentences, rules=self.triples)]
        return statistics.fmean(distances) if distances else float("nan")


COH1 = WordLengthDeviationCoherenceAxiom
COH2 = SubjectVerbClosenessCoherenceAxiom
