"""An answer's claims: its atomic facts with their character spans, less what declines to answer.

The claims are the atomic facts of :func:`~pyterrier_rag_axioms.nuggets.facts.atomic_facts` (the
splitter of the nugget extractor), each with its span in the answer. A fact that says that the
passages do not answer ("Unable to answer based on given passages.", "The passages do not mention
...") is no claim: an answer that declines to answer claims nothing. The statement that the
passages are asked to support is the claim without its references to them ("Passage 2 states
that X" asks for X: :func:`without_source_references`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pyterrier_rag_axioms.nuggets.facts import AtomicFact, atomic_facts_of
from pyterrier_rag_axioms.tools.text import TextAnalyzer

#: What an answer calls its passages when it talks about them.
_SOURCES = r"(?:passages?|contexts?|texts?|documents?|sources?|references?|information)"

#: A sentence that declines to answer, or says that the passages lack something.
DECLINING = re.compile(
    r"\b(?:unable to (?:answer|determine|find|provide)"
    rf"|none of (?:the |these |those )?{_SOURCES}"
    r"|(?:not|n't|no) (?:possible|able) to (?:answer|determine|say|tell|know)"
    r"|(?:cannot|can ?not|can't) (?:answer|determine|be determined|say|tell)"
    rf"|{_SOURCES}(?:\s*\d+)?(?: provided| given)? (?:do(?:es)?|did)(?: not|n't) "
    r"(?:contain|provide|mention|include|specify|say|state|give|answer|discuss|address|offer|have)"
    r"|no (?:information|mention|details?|data) (?:about|on|of|regarding|is|in)"
    r"|not (?:mentioned|specified|stated|provided) in the (?:given |provided )?(?:passages?|context|texts?))",
    re.IGNORECASE,
)


#: What an answer calls its passages where it refers to them.
_REFERRED = r"(?:passages?|contexts?|texts?|documents?|sources?|references?|excerpts?)"
_NUMBERS = r"\s*\[?\d+(?:\s*(?:,|and|&)\s*\d+)*\]?"
_LEAD = (
    r"(?:based on|according to|from|in|using|as (?:stated|mentioned|described) in)\s+"
    r"(?:(?:the|these|this|those)\s+)?"
)
_TELLS = (
    r"(?:\s+(?:states?|says?|mentions?|describes?|explains?|defines?|notes?|suggests?|indicates?)"
    r"(?:\s+(?:that|how))?)?"
)

#: A reference to the passages that a claim makes besides its content: "Passage 2 states that",
#: "According to passage 1,", "Based on the given passages,", "based on the information provided in
#: the passages". A bare "the source" or "the text" (a word of the topic) is no reference.
SOURCE_REFERENCE = re.compile(
    rf"(?:{_LEAD})?\b{_REFERRED}{_NUMBERS}{_TELLS}\s*[,:]?\s*"  # numbered: "Passage 1", "in documents 2 and 3,"
    rf"|(?:{_LEAD})?(?:(?:the|these|this|those)\s+)?(?:given|provided|above|retrieved)\s+{_REFERRED}{_TELLS}\s*[,:]?\s*"
    rf"|{_LEAD}(?:information\s+(?:provided\s+|given\s+)?in\s+(?:the\s+)?)?{_REFERRED}\s*[,:]\s*"
    rf"|{_LEAD}(?:the\s+)?information\s+(?:provided|given)\s+(?:in\s+(?:the\s+)?{_REFERRED}\s*)?[,:]?\s*",
    re.IGNORECASE,
)


def without_source_references(claim: str) -> str:
    """A claim without its references to the passages ("Passage 1 states that X" gives "X"), the
    statement that the passages are asked to support; the claim itself where nothing else is left."""
    stripped = SOURCE_REFERENCE.sub(" ", claim).strip()
    return stripped if len(stripped.split()) >= 2 else claim


def declines(sentence: str) -> bool:
    """Whether a sentence declines to answer, or says that the passages lack what was asked."""
    return DECLINING.search(sentence) is not None


def claims_of(facts: Sequence[AtomicFact]) -> list[AtomicFact]:
    """The claims among an answer's atomic facts: those that do not decline to answer."""
    return [fact for fact in facts if not declines(fact.text)]


def answer_claims(responses: Sequence[str], *, analyzer: TextAnalyzer | None = None) -> list[list[AtomicFact]]:
    """The claims of each answer (its atomic facts, less those that decline to answer)."""
    return [claims_of(facts) for facts in atomic_facts_of(list(responses), analyzer=analyzer)]
