"""Non-answers (COV6): sentences that decline to answer, or talk about the sources instead of the topic.

Generated answers often spend sentences on the generation itself: "The provided context does not
mention any actions taken by teenagers", "According to Doc 3, ...", "I'll do my best to answer
based on the provided references". Such a sentence tells the reader nothing about the topic, and
an answer made of them has declined to answer. COV6 counts them.
"""

from __future__ import annotations

import re

from pyterrier_rag_axioms.axioms._analyzed import TextFeatureAxiom
from pyterrier_rag_axioms.tools.text import TextAnalysis

#: What a response calls the retrieved passages when it talks about them.
_SOURCES = r"(?:context|docs?|documents?|passages?|references?|sources?|texts?|excerpts?|search results?|snippets?)"

#: Phrases of a sentence that declines to answer or talks about the sources, the question or the
#: answerer (regular expressions, matched case-insensitively anywhere in a sentence).
NON_ANSWER_PATTERNS: tuple[str, ...] = (
    # the sources themselves: "based on the provided references", "the documents provided do not ..."
    rf"\b(?:provided|given|above|retrieved|available|supplied)\s+{_SOURCES}\b",
    rf"\baccording to (?:the )?{_SOURCES}(?:\s*\d+)?(?=[\s,.:;]|$)",
    rf"\b(?:the|this|these|that) {_SOURCES}(?:\s+(?:provided|given|above))?\s+(?:does|do|did)\s*(?:not|n't)\b",
    # missing information: "there is no specific mention of ...", "X is not mentioned"
    r"\bthere (?:is|are|was|were) no (?:\w+ ){0,2}(?:mention|information|details)\b",
    r"\bno (?:specific |direct |explicit |further )?(?:mention|information) (?:of|about|on|regarding)\b",
    r"\b(?:is|are|was|were)(?: not|n't) (?:explicitly |specifically |directly )?"
    r"(?:mentioned|specified|stated|discussed|addressed)\b",
    r"\b(?:not enough|insufficient|not sufficient) information\b",
    r"\benough information to (?:answer|determine|say|conclude)\b",
    r"\bunable to (?:find|determine|answer|provide|locate)\b",
    # the question and the answerer: "to answer your question", "I cannot ..."
    r"\b(?:the|your|this) (?:query|question|inquiry)\b(?! of\b)",  # not "the question of whether ..."
    r"\bI(?:'ll| will| cannot| can't| can not| am unable| was unable| could not| couldn't| do not have| don't have"
    r"| apologi[sz]e| am sorry|'m sorry| am an AI)\b",
    r"\bas an AI\b",
)
_NON_ANSWER = re.compile("|".join(f"(?:{pattern})" for pattern in NON_ANSWER_PATTERNS), re.IGNORECASE)


def is_non_answer(sentence: str) -> bool:
    """Whether a sentence declines to answer or talks about the sources, the question or the answerer."""
    return _NON_ANSWER.search(sentence) is not None


class NonAnswerCoverageAxiom(TextFeatureAxiom):
    """COV6: prefer responses with a lower share of sentences that decline to answer or talk about the sources.

    Intuition: every sentence of a good answer is about the topic. A sentence that says the
    sources do not mention something ("The provided text does not discuss ..."), that refers to
    the sources instead of stating what they say ("According to Doc 3, ..."), or that speaks about
    the question or the answerer ("I'll answer based on the provided references") covers nothing
    of the information need, and an answer of such sentences is a refusal. A sentence counts when
    it contains one of :data:`NON_ANSWER_PATTERNS`; the value is the share of such sentences,
    lower is better. NaN for a response without sentences. Needs no model beyond the sentences.
    """

    short_name = "COV6"
    default_margin_fraction = 0.1
    prefer_higher = False

    def text_value(self, analysis: TextAnalysis) -> float:
        return analysis.sentence_share(_NON_ANSWER)


COV6 = NonAnswerCoverageAxiom
