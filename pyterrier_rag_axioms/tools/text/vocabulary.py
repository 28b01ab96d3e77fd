"""Content words and stems of a text that needs no parse: the one stop-word list (spaCy's English stop
words), the one content-word rule (:func:`is_stop_word`) and the one stemmer of the package.

A content word is a lower-cased word of a text that is no stop word. What counts as a word is the one
thing the callers choose: Unicode letters and digits, citation markers left out (:data:`WORD`, for the
axioms), or ASCII letters and digits as TREC's form check counts them (:data:`ASCII_WORD`). A stem is the
Porter stem (``snowballstemmer``), or the suffix-stripped word of TREC's form check (``"suffixes"``).
"""

from __future__ import annotations

import functools
import importlib.metadata
import re
from typing import TYPE_CHECKING, Literal, get_args

from pyterrier_rag_axioms.tools.text.segmentation import CITATION_PATTERN

if TYPE_CHECKING:
    import snowballstemmer

#: A word: letters and digits of any script, joined by apostrophes ("don't", "1990’s"); citation markers
#: such as ``[0,1]`` are left out before.
WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")
#: A word of TREC's form check: ASCII letters and digits, an apostrophe followed by letters only.
ASCII_WORD = re.compile(r"[A-Za-z0-9]+(?:['\u2019][A-Za-z]+)*")

WordRule = Literal["unicode", "ascii"]
StemRule = Literal["porter", "suffixes"]
STEM_RULES: tuple[str, ...] = get_args(StemRule)


@functools.cache
def stop_words() -> frozenset[str]:
    """spaCy's English stop words (loaded on first use only)."""
    from pyterrier_rag_axioms.tools.text.spacy_model import import_spacy_without_torch

    import_spacy_without_torch()
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS)


def is_stop_word(word: str) -> bool:
    """Whether a word is a stop word (:func:`stop_words`, compared lower-cased): the one rule of what is no
    content word, for texts (:func:`content_words`) and parsed tokens
    (:func:`~pyterrier_rag_axioms.tools.text.words.content_lemma`) alike. spaCy's ``Token.is_stop`` gives the
    same answer for English."""
    return word.lower() in stop_words()


def words(text: str) -> list[str]:
    """The lower-cased words of a text (:data:`WORD`), without citation markers such as ``[0,1]``."""
    return WORD.findall(CITATION_PATTERN.sub(" ", text).lower())


def content_words(text: str, *, rule: WordRule = "unicode") -> list[str]:
    """The lower-cased words of a text that are no stop words (:func:`stop_words`), in text order.

    ``rule`` says what a word is: ``"unicode"`` the words of :func:`words`; ``"ascii"`` the matches of
    :data:`ASCII_WORD` in the text as it is (citation markers included), lower-cased after.
    """
    if rule == "unicode":
        found = words(text)
    elif rule == "ascii":
        found = [word.lower() for word in ASCII_WORD.findall(text)]
    else:
        raise ValueError(f"content_words: rule must be 'unicode' or 'ascii', not {rule!r}")
    stop = stop_words()  # the rule of is_stop_word, on words lower-cased already
    return [word for word in found if word not in stop]


@functools.cache
def _porter() -> snowballstemmer.stemmer:
    import snowballstemmer  # on first use: only the Porter stemmer needs it

    return snowballstemmer.stemmer("porter")


@functools.cache
def porter_version() -> str:
    """The version of ``snowballstemmer``, whose Porter stems :func:`stem` gives."""
    return importlib.metadata.version("snowballstemmer")


def _strip_suffix(word: str) -> str:
    word = word.lower().replace("\u2019", "'")
    word = word[:-2] if word.endswith("'s") else word
    for suffix in ("ing", "ies", "es", "ed", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def stem(word: str, *, rule: StemRule = "porter") -> str:
    """A word's stem: its Porter stem (``"porter"``, of the word as given), or for TREC's form check the
    lower-cased word without a possessive ``'s`` and one suffix of ``ing ies es ed s`` that leaves three
    letters (``"suffixes"``: "buying" and "buy" agree, "studies" gives "study")."""
    if rule == "porter":
        return _porter().stemWord(word)
    if rule == "suffixes":
        return _strip_suffix(word)
    raise ValueError(f"stem: rule must be one of {STEM_RULES}, not {rule!r}")


__all__ = [
    "ASCII_WORD", "STEM_RULES", "WORD", "content_words", "is_stop_word", "porter_version", "stem", "stop_words",
    "words",
]
