"""Nugget candidates: the atomic facts of a topic's answers and passages that are in TREC's form.

A candidate is an atomic fact (see :mod:`~pyterrier_rag_axioms.nuggets.facts.splitting`) of an answer or
of a context passage: a short statement that stands alone, without citation marks, Markdown,
hedges or a restated query. Facts that are not in TREC's form
(:func:`~pyterrier_rag_axioms.tools.text.trec_form_problems`) or longer than ``max_words`` words
are no candidates.
"""

from __future__ import annotations

from dataclasses import dataclass

from pyterrier_rag_axioms.nuggets.facts import AtomicFact, atomic_facts_of, in_trec_form
from pyterrier_rag_axioms.tools.text import TextAnalyzer


@dataclass(frozen=True)
class Candidate:
    """One candidate statement: its text, the sentence it was cut from, its source and its length in words."""

    text: str
    sentence: str
    source: str  # the docno of the answer, or "" for a passage of the context
    words: int


def topic_facts(analyzer: TextAnalyzer, query: str, texts: list[str]) -> dict[str, list[AtomicFact]]:
    """The atomic facts of each distinct text of one topic, with what only restates ``query`` dropped."""
    distinct = list(dict.fromkeys(texts))
    return dict(zip(distinct, atomic_facts_of(distinct, query=query, analyzer=analyzer)))


def candidates_of(facts: list[AtomicFact], source: str, query: str, *, max_words: int) -> list[Candidate]:
    """The candidates of one text's atomic facts: in TREC's form, at most ``max_words`` words, each text once."""
    found: dict[str, Candidate] = {}
    for fact in facts:
        words = len(fact.text.split())
        if words <= max_words and fact.text not in found and in_trec_form(fact.text, query):
            found[fact.text] = Candidate(text=fact.text, sentence=fact.sentence, source=source, words=words)
    return list(found.values())
