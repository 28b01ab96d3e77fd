"""Coherence axioms, COH1-COH4.

Logical coherence: is the response well-structured? Stylistic coherence: does the response keep
a uniform style of speech? (COH1, COH2)

Discourse axioms: tense and connectives, two more aspects of logical and stylistic coherence.

COH3 penalises switching back and forth between past and present tense from one sentence to the
next; COH4 rewards sentences whose relation to the rest is made explicit by a discourse connective
("because", "however", "for example", ...).
"""

from __future__ import annotations

import re
import statistics
from typing import TYPE_CHECKING

import numpy as np

from pyterrier_rag_axioms.axioms._analyzed import TextFeatureAxiom
from pyterrier_rag_axioms.axioms._base import parameter, parameters
from pyterrier_rag_axioms.axioms._triples import TRIPLE_RULES, TripleRules, subject_verb_object_triples
from pyterrier_rag_axioms.tools.text import TextAnalysis

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
    registry_group = "rag"
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
    :mod:`~pyterrier_rag_axioms.axioms._triples`).
    """

    short_name = "COH2"
    registry_group = "rag"
    default_margin_fraction = 0.1
    prefer_higher = False

    #: Which subject-verb-object triples count: ``"reference"`` (the reference implementation's
    #: definition) or ``"broad"`` (the package's earlier, wider rules).
    triples: TripleRules = parameter("reference", choices=TRIPLE_RULES)

    def text_value(self, analysis: TextAnalysis) -> float:
        """Mean over the response's triples of the largest subject-verb distance (NaN without triples)."""
        distances = [triple.distance for triple in subject_verb_object_triples(analysis.sentences, rules=self.triples)]
        return statistics.fmean(distances) if distances else float("nan")


COH1 = WordLengthDeviationCoherenceAxiom
COH2 = SubjectVerbClosenessCoherenceAxiom


#: Penn Treebank tags of finite verbs, by tense.
_TENSE_OF_TAG = {"VBD": "past", "VBP": "present", "VBZ": "present"}
_FUTURE_MODALS = frozenset({"will", "shall", "'ll", "wo"})

#: Explicit discourse connectives (after the Penn Discourse Treebank's list), matched as whole words.
DISCOURSE_CONNECTIVES: tuple[str, ...] = (
    "accordingly", "additionally", "also", "although", "as a result", "because", "besides", "but",
    "consequently", "conversely", "finally", "first", "firstly", "for example", "for instance",
    "furthermore", "hence", "however", "in addition", "in conclusion", "in contrast", "in fact",
    "in particular", "in summary", "in turn", "instead", "likewise", "meanwhile", "moreover",
    "nevertheless", "nonetheless", "on the other hand", "otherwise", "overall", "second", "secondly",
    "similarly", "since", "specifically", "subsequently", "therefore", "though", "thus", "ultimately",
    "unless", "whereas", "while",
)
_CONNECTIVE = re.compile(r"\b(?:" + "|".join(re.escape(c) for c in DISCOURSE_CONNECTIVES) + r")\b", re.IGNORECASE)


def sentence_tense(sentence) -> str | None:
    """The tense of a sentence's first finite verb: ``"past"``, ``"present"``, ``"future"`` or ``None``."""
    for token in sentence:
        if token.tag_ == "MD":
            if token.lower_ in _FUTURE_MODALS:
                return "future"
            continue
        tense = _TENSE_OF_TAG.get(token.tag_)
        if tense is not None:
            return tense
    return None


class TenseSwitchCoherenceAxiom(TextFeatureAxiom):
    """COH3: prefer responses that switch tense less often between sentences.

    Intuition: a text that jumps between past, present and future from one sentence to the next
    is harder to follow and reads as stitched together. Each sentence's tense is that of its first
    finite verb (spaCy's tags VBD, VBP/VBZ, or a modal "will"/"shall"); sentences without one are
    skipped. The value is the share of consecutive tensed sentences whose tenses differ; lower is
    better. NaN for a response with fewer than two tensed sentences.
    """

    short_name = "COH3"
    default_margin_fraction = 0.0
    prefer_higher = False

    def text_value(self, analysis: TextAnalysis) -> float:
        tenses = [tense for tense in map(sentence_tense, analysis.sentences) if tense is not None]
        if len(tenses) < 2:
            return float("nan")
        return sum(first != second for first, second in zip(tenses, tenses[1:])) / (len(tenses) - 1)


class DiscourseConnectiveCoherenceAxiom(TextFeatureAxiom):
    """COH4: prefer responses with a higher share of sentences that contain a discourse connective.

    Intuition: connectives such as "because", "however" or "for example" make the logical relation
    between statements explicit, so the argument is easier to follow. The value is the share of
    sentences with at least one connective of :data:`DISCOURSE_CONNECTIVES` (whole words, any
    case); higher is better. NaN for a response without sentences.
    """

    short_name = "COH4"
    default_margin_fraction = 0.1

    def text_value(self, analysis: TextAnalysis) -> float:
        return analysis.sentence_share(_CONNECTIVE)


COH3 = TenseSwitchCoherenceAxiom
COH4 = DiscourseConnectiveCoherenceAxiom
