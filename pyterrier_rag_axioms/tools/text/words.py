"""Which tokens are words and negations, where sentences start and end, and what text an aspect span keeps.

The rules behind :attr:`~pyterrier_rag_axioms.tools.text.TextAnalysis.is_word`,
:attr:`~pyterrier_rag_axioms.tools.text.TextAnalysis.sentences` and the aspects of a text: citation
markers and the list, heading and quote markers that open a line are no words (see
:mod:`~pyterrier_rag_axioms.tools.text.segmentation`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from pyterrier_rag_axioms.tools.text.aspects import normalize_aspect
from pyterrier_rag_axioms.tools.text.segmentation import MARKER_PATTERN
from pyterrier_rag_axioms.tools.text.vocabulary import is_stop_word

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

#: A text of citation markers (or other marks of a source) alone, with the punctuation and space around them.
CITATIONS_ONLY = re.compile(rf"(?:\s*(?:{MARKER_PATTERN.pattern})\s*[.,;:!?]?)+\s*")


#: Words that negate the clause they stand in.
NEGATIONS: frozenset[str] = frozenset(
    {"not", "n't", "never", "no", "none", "nothing", "neither", "nor", "cannot", "nobody", "nowhere"}
)


def is_negated(tokens: Iterable[Token]) -> bool:
    """Whether some tokens (a clause, a sentence) hold a negation: a word of :data:`NEGATIONS`, or
    spaCy's ``neg`` relation."""
    return any(token.dep_ == "neg" or token.lower_ in NEGATIONS for token in tokens)


#: Plural nouns that spaCy's rule lemmatizer (en_core_web_sm 3.8) reduces to another word
#: ("doses" -> "dos", "uses" -> "us"), with their lemma.
PLURAL_LEMMAS: dict[str, str] = {"doses": "dose", "uses": "use", "senses": "sense", "taxes": "tax"}


def lemma(token: Token) -> str:
    """A token's lower-cased lemma, with the plural nouns of :data:`PLURAL_LEMMAS` set right."""
    if token.pos_ in ("NOUN", "PROPN") and token.lower_ in PLURAL_LEMMAS:
        return PLURAL_LEMMAS[token.lower_]
    return token.lemma_.lower()


def content_lemma(token: Token) -> str:
    """A word's content term: its lower-cased lemma (:func:`lemma`), or ``""`` for a stop word
    (:func:`~pyterrier_rag_axioms.tools.text.vocabulary.is_stop_word`, the package's one rule) and a blank
    lemma. Whether the token is a word at all is the caller's mask (:func:`word_mask`)."""
    if is_stop_word(token.lower_) or not token.lemma_.strip():
        return ""
    return lemma(token)


def word_mask(doc: Doc, citations: np.ndarray, markup: np.ndarray) -> np.ndarray:
    """Whether each token is a word: it has a letter or digit and is neither punctuation, a
    citation marker nor a list, heading or quote marker."""
    return np.array(
        [
            any(character.isalnum() for character in token.text)
            and not (token.is_punct or token.is_space or citations[token.i] or markup[token.i])
            for token in doc
        ],
        dtype=bool,
    )


def sentence_spans(doc: Doc, is_word: np.ndarray, markup: np.ndarray) -> list[Span]:
    """The sentences of ``doc`` without the markers that open a line and without those that have
    no word; a "sentence" of citation markers alone is joined to the sentence before it."""
    sentences: list[Span] = []
    for sentence in doc.sents:
        start = sentence.start  # leave out the list, heading or quote marker and the space after it
        while start < sentence.end and (doc[start].is_space or markup[start]):
            start += 1
        if start == sentence.end:
            continue
        words = is_word[start : sentence.end].any()
        if sentences and not words and CITATIONS_ONLY.fullmatch(doc[start : sentence.end].text):
            sentences[-1] = doc[sentences[-1].start : sentence.end]
        elif words:
            sentences.append(doc[start : sentence.end])
    return sentences


def aspect_text(span: Span, is_word: np.ndarray, citations: np.ndarray) -> str:
    """A span's text without citation and line markers, lower-cased, whitespace collapsed."""
    kept = [
        token
        for token in span
        if is_word[token.i] or (token.is_punct or token.is_space) and not citations[token.i]
    ]
    while kept and not is_word[kept[0].i]:
        kept.pop(0)
    while kept and not is_word[kept[-1].i]:
        kept.pop()
    doc = span.doc
    text = []  # a dropped token (a marker, "**", "&nbsp;") separates the kept ones around it
    for token, following in zip(kept, [*kept[1:], None]):
        spaced = following is not None and (
            following.i > token.i + 1 or any(doc[i].whitespace_ for i in range(token.i, following.i))
        )
        text.append(token.text + (" " if spaced else ""))
    return normalize_aspect("".join(text))
