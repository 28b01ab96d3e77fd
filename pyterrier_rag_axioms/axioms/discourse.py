"""Discourse axioms: tense and connectives, two more aspects of logical and stylistic coherence.

COH3 penalises switching back and forth between past and present tense from one sentence to the
next; COH4 rewards sentences whose relation to the rest is made explicit by a discourse connective
("because", "however", "for example", ...).
"""

from __future__ import annotations

import re

from pyterrier_rag_axioms.axioms._analyzed import TextFeatureAxiom
from pyterrier_rag_axioms.tools.text import TextAnalysis

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
