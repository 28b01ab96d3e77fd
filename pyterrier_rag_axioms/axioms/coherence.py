"""Coherence axioms.

Logical coherence: is the response well-structured? Stylistic coherence: does the response keep
a uniform style of speech?
"""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING

import numpy as np

from pyterrier_rag_axioms.axioms._analyzed import TextFeatureAxiom

if TYPE_CHECKING:
    from spacy.tokens import Token

    from pyterrier_rag_axioms.tools.text import TextAnalysis

_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"})
_OBJECT_DEPS = frozenset({"dobj", "obj", "dative", "attr", "oprd", "acomp", "ccomp", "xcomp"})


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
        """Population standard deviation of the sentences' average word lengths (NaN without words)."""
        averages = []
        for sentence in analysis.sentences:
            lengths = [len(token.text) for token in sentence if not (token.is_punct or token.is_space)]
            if lengths:
                averages.append(sum(lengths) / len(lengths))
        return float(np.std(averages)) if averages else float("nan")


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
        """Mean of :func:`subject_verb_distances` (NaN without triples)."""
        distances = subject_verb_distances(analysis)
        return statistics.fmean(distances) if distances else float("nan")


def _subjects_of(verb: Token) -> list[Token]:
    subjects = [child for child in verb.children if child.dep_ in _SUBJECT_DEPS]
    return subjects + [conjunct for subject in subjects for conjunct in subject.conjuncts]


def _has_object(verb: Token) -> bool:
    for child in verb.children:
        if child.dep_ in _OBJECT_DEPS:
            return True
        if child.dep_ in {"prep", "agent"} and any(grandchild.dep_ == "pobj" for grandchild in child.children):
            return True
    return False


def subject_verb_distances(analysis: TextAnalysis) -> list[int]:
    """For each subject-verb-object triple of a text, the largest token distance of a subject to its verb."""
    distances = []
    for token in analysis.syntax:
        if token.pos_ not in {"VERB", "AUX"}:
            continue
        subjects = _subjects_of(token)
        if subjects and _has_object(token):
            distances.append(max(abs(token.i - subject.i) for subject in subjects))
    return distances


COH1 = WordLengthDeviationCoherenceAxiom
COH2 = SubjectVerbClosenessCoherenceAxiom
