"""Nugget candidates: the short statements of a topic's answers and passages, cleaned to stand alone.

A candidate is a sentence or a clause (see :mod:`~pyterrier_rag_axioms.nuggets._evidence`) of an
answer or of a context passage, with its citation markers, list and emphasis marks, opening
discourse markers ("However,", "In addition,") and hedges ("It is important to note that",
"Studies suggest that") taken off, its first letter upper-cased and its end closed by a full stop.
Candidates that are headings or lead-ins (ending in ``:``), too short, too long, or that only
restate the query (too few content lemmas beyond the query's) are no candidates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pyterrier_rag_axioms.nuggets._evidence import text_evidence
from pyterrier_rag_axioms.tools.text import CITATION_PATTERN, MARKER_PATTERN, TextAnalyzer

#: Opening discourse markers and hedges taken off a candidate (case-insensitive, repeatedly).
HEDGE_PATTERN = re.compile(
    r"^(?:(?:however|additionally|furthermore|moreover|also|overall|thus|therefore|hence|finally|lastly|"
    r"first(?:ly)?|second(?:ly)?|third(?:ly)?|next|then|notably|importantly|specifically|ultimately|"
    r"generally|typically|essentially|basically|in (?:summary|conclusion|addition|general|short|fact|particular)|"
    r"for (?:example|instance)|as a result|on the other hand|in other words|to summari[sz]e|in essence|"
    r"according to (?:the |some |several )?(?:sources?|studies|research|experts|reports?|passages?)"
    r"(?: provided)?|based on (?:the )?(?:provided |given )?(?:context|information|passages?|sources?))"
    r"\s*[,:]?\s+"
    r"|(?:it is|it's) (?:(?:also )?(?:important|worth|crucial|essential|interesting) (?:to note|noting|"
    r"mentioning|to mention|to remember)|(?:widely |generally |commonly )?(?:believed|known|reported|"
    r"suggested|thought)) that\s+"
    r"|(?:some |many |several |recent )?(?:studies|research|researchers|experts|sources|reports|evidence)"
    r" (?:suggests?|shows?|indicates?|finds?|found|say|says|believe|claims?|notes?) that\s+)",
    re.IGNORECASE,
)
#: List, heading, quote and emphasis marks, and leftover brackets of a cut clause.
LAYOUT_PATTERN = re.compile(r"\*\*|__|`|^#+\s*|^>\s*|^\s*(?:[-*+•]|\d+[.)]|\(\d+\)|[a-z][.)])\s+", re.MULTILINE)
#: First words of a clause that cannot stand alone (a relative or subordinate clause, a predicate
#: without its subject).
DANGLING_STARTS: frozenset[str] = frozenset(
    {
        "which",
        "who",
        "whom",
        "whose",
        "where",
        "that",
        "when",
        "while",
        "whereas",
        "although",
        "though",
        "because",
        "since",
        "if",
        "unless",
        "can",
        "could",
        "may",
        "might",
        "will",
        "would",
        "should",
        "must",
        "is",
        "are",
        "was",
        "were",
        "has",
        "have",
        "had",
        "does",
        "do",
        "did",
        "this",
        "these",
        "it",
        "they",
    }
)
#: Words that may not end a candidate (a clause cut before its conjoined part).
TRAILING_WORDS = re.compile(
    r"(?:[\s,;:–—-]+(?:and|or|but|while|whereas|which|that|as|so|because))+\s*[.,;:]*$", re.IGNORECASE
)


@dataclass(frozen=True)
class Candidate:
    """One candidate statement: its cleaned text, the text it was cut from, its source and content lemmas."""

    text: str
    sentence: str
    source: str  # the docno of the answer, or "" for a passage of the context
    lemmas: frozenset[str]
    words: int


def clean_statement(text: str) -> str:
    """A statement without citation markers, layout marks, opening hedges or trailing conjunctions,
    with an upper-case first letter and a closing full stop (``""`` where nothing is left)."""
    text = MARKER_PATTERN.sub(" ", CITATION_PATTERN.sub(" ", text))
    text = LAYOUT_PATTERN.sub("", text)
    text = re.sub(r"\s+", " ", text).strip(" \t\n,;:-–—")
    previous = None
    while previous != text:
        previous = text
        text = HEDGE_PATTERN.sub("", text).strip(" ,;")
    text = TRAILING_WORDS.sub("", text).strip(" ,;-–—")
    text = re.sub(r"\s+([.,;:!?])", r"\1", text)
    text = re.sub(r"[,;:]+$", "", text)
    if not text:
        return ""
    if text[-1] not in ".!?":
        text += "."
    return text[0].upper() + text[1:]


def statements(
    analyzer: TextAnalyzer, texts: list[str], *, verbose: bool = False
) -> dict[str, list[tuple[str, str, frozenset[str]]]]:
    """For each distinct text: its sentences and clauses as (raw text, sentence text, content lemmas),
    sentences first, in text order (a clause only where its sentence has more than one)."""
    found = {}
    for analysis in analyzer.analyse(list(dict.fromkeys(texts)), verbose=verbose):
        evidence = text_evidence(analysis, entities=False)  # lemmas suffice: no named entities
        sentence_of = {passage.sentence: passage.text for passage in evidence.sentences}
        found[analysis.text] = [
            (passage.text, sentence_of[passage.sentence], passage.lemmas)
            for passage in (*evidence.sentences, *evidence.clauses)
        ]
    return found


def candidates_of(
    parts: list[tuple[str, str, frozenset[str]]],
    source: str,
    query_lemmas: frozenset[str],
    *,
    min_new_terms: int,
    max_words: int,
) -> list[Candidate]:
    """The candidates of one text's statements (see :func:`statements`): cleaned, each text once,
    without headings, lead-ins, clauses that cannot stand alone (:data:`DANGLING_STARTS`),
    statements of more than ``max_words`` words or with fewer than ``min_new_terms`` content
    lemmas that the query lacks."""
    found: dict[str, Candidate] = {}
    for raw, sentence, lemmas in parts:
        if raw.rstrip().endswith(":"):
            continue  # a heading or the lead-in of a list
        text = clean_statement(raw)
        words = len(text.split())
        if not text or text.split()[0].lower().strip(",") in DANGLING_STARTS:
            continue
        if not text or words > max_words or len(lemmas - query_lemmas) < min_new_terms or text in found:
            continue
        found[text] = Candidate(
            text=text, sentence=clean_statement(sentence), source=source, lemmas=lemmas, words=words
        )
    return list(found.values())
