"""Extractive answers: answers that copy their passages rather than say something of their own.

Grounding asks whether what an answer states is in its passages. An answer that copies long
stretches of its passages states nothing of its own, so it is grounded by construction, and
comparing it on grounding with an answer that writes its own sentences only rewards the copying:
people who rate overall quality prefer the answer that writes its own (CrowdRAG-25's workers prefer
the copying answer of such a pair 0.42 of the time). So the judge's grounding term
(:mod:`~pyterrier_rag_axioms.preference.grounding`) compares two answers only where neither is
extractive.

An answer is extractive where at least :data:`EXTRACTIVE_SHARE` of its word 5-grams (the words of
:func:`~pyterrier_rag_axioms.tools.text.vocabulary.words`: lower-cased, citation markers left out)
appear in its passages word for word. On the development data the share is bimodal: CrowdRAG-25's
responses lie under 0.2 or over 0.58 (25 of 66 over), while 3.6 % of RAGTruth's LLM answers reach 0.5.
"""

from __future__ import annotations

from collections.abc import Sequence

from pyterrier_rag_axioms.tools.text.vocabulary import words

#: The length of the word sequences compared (5-grams).
COPIED_NGRAM = 5
#: From this share of copied 5-grams up, an answer is extractive.
EXTRACTIVE_SHARE = 0.5


def _ngrams(tokens: list[str]) -> list[tuple[str, ...]]:
    return list(zip(*(tokens[start:] for start in range(COPIED_NGRAM)), strict=False))


def copied_share(answer: str, passages: Sequence[str] | None) -> float:
    """The share of an answer's word 5-grams that appear word for word in one of its passages (0.0 for an
    answer of fewer than five words, or without passages)."""
    grams = _ngrams(words(answer))
    if not grams or not passages:
        return 0.0
    passage_grams = {gram for passage in passages for gram in _ngrams(words(passage))}
    return sum(gram in passage_grams for gram in grams) / len(grams)


def is_extractive(answer: str, passages: Sequence[str] | None) -> bool:
    """Whether an answer copies its passages (:func:`copied_share` of at least :data:`EXTRACTIVE_SHARE`)."""
    return copied_share(answer, passages) >= EXTRACTIVE_SHARE


__all__ = ["COPIED_NGRAM", "EXTRACTIVE_SHARE", "copied_share", "is_extractive"]
