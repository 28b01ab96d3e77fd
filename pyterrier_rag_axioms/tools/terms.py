"""Terms of a text for the retrieval axioms: lemmas (or Porter stems) without stop words, with positions.

Terms are read from the spaCy parse that :class:`~pyterrier_rag_axioms.tools.text.TextAnalyzer`
keeps for each distinct text, so a text is parsed once whichever axioms ask for its terms, and
:class:`TermExtractor` keeps one :class:`TermProfile` per distinct text. Terms are made of the
analysis's words (:attr:`~pyterrier_rag_axioms.tools.text.TextAnalysis.is_word`): citation markers
such as ``[0]`` or ``[1, 2]``, also where glued to a word (``kidneys[10]``), and the list and
heading markers that open a line are not terms.

The values of a profile are kept with the text's analysis
(:meth:`~pyterrier_rag_axioms.tools.text.TextAnalysis.derived`), so with a persistent cache (see
:mod:`pyterrier_rag_axioms.runtime.cache`) a later process reads them without parsing the text.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Literal, get_args

import numpy as np

from pyterrier_rag_axioms.declaration import parameter, parameters
from pyterrier_rag_axioms.runtime.cache import derived_key
from pyterrier_rag_axioms.tools._shared import SharedTool
from pyterrier_rag_axioms.tools.text import TextAnalysis, TextAnalyzer, resolve_text_analyzer
from pyterrier_rag_axioms.tools.text.vocabulary import is_stop_word, porter_version, stem
from pyterrier_rag_axioms.tools.text.words import lemma

if TYPE_CHECKING:
    from spacy.tokens import Token

#: How a token becomes a term: its lower-cased spaCy lemma, or the Porter stem of its lower-cased text.
Stemmer = Literal["lemma", "porter"]
STEMMERS: tuple[str, ...] = get_args(Stemmer)


class TermProfile:
    """The terms of one text, in text order, with what the retrieval axioms read from them.

    Attributes:
        terms: the terms in text order.
        offsets: the character offset in the text of the token behind each term.
        sentence_lengths: the number of words (tokens that are neither punctuation, whitespace,
            citation nor line marker; stop words count) of each sentence.
    """

    def __init__(self, terms: Sequence[str], offsets: Sequence[int], sentence_lengths: Sequence[int]):
        self.terms: tuple[str, ...] = tuple(terms)
        self.offsets: tuple[int, ...] = tuple(offsets)
        self.sentence_lengths: tuple[int, ...] = tuple(sentence_lengths)

    def __len__(self) -> int:
        """The length of the text in terms."""
        return len(self.terms)

    @cached_property
    def counts(self) -> Counter[str]:
        """How often each term occurs."""
        return Counter(self.terms)

    @cached_property
    def distinct(self) -> tuple[str, ...]:
        """The distinct terms, in order of first occurrence."""
        return tuple(dict.fromkeys(self.terms))

    @cached_property
    def vocabulary(self) -> frozenset[str]:
        """The set of distinct terms."""
        return frozenset(self.terms)

    @cached_property
    def positions(self) -> dict[str, np.ndarray]:
        """For each distinct term, its positions (indices into :attr:`terms`), ascending."""
        positions: dict[str, list[int]] = {}
        for index, term in enumerate(self.terms):
            positions.setdefault(term, []).append(index)
        return {term: np.array(indices, dtype=int) for term, indices in positions.items()}

    def __repr__(self) -> str:
        return f"TermProfile(terms={self.terms!r})"


def _check_stop_words(extractor: TermExtractor, stop_words: bool | Collection[str]) -> None:
    if not isinstance(stop_words, bool) and isinstance(stop_words, str):
        raise TypeError("TermExtractor: stop_words must be True, False or a collection of words, not a string")


def _stop_words(extractor: TermExtractor, stop_words: bool | Collection[str]) -> bool | frozenset[str]:
    return stop_words if isinstance(stop_words, bool) else frozenset(word.lower() for word in stop_words)


def _shown_stop_words(stop_words: bool | frozenset[str]) -> bool | list[str]:
    return stop_words if isinstance(stop_words, bool) else sorted(stop_words)


@parameters
class TermExtractor(SharedTool):
    """Turns texts into :class:`TermProfile` records, one per distinct text, from cached spaCy parses.

    A term is a word (neither punctuation, whitespace, citation marker nor line marker) that is no
    stop word, as its lower-cased lemma (default) or the Porter stem of its lower-cased text. Use
    :func:`term_extractor` for the instance shared by all axioms for an analyzer and stemmer.
    """

    #: A :class:`TextAnalyzer` or spaCy model name (default: the shared analyzer).
    text_analyzer: TextAnalyzer | str | None = parameter(
        None, positional=True, always_shown=True, resolve=lambda extractor, analyzer: resolve_text_analyzer(analyzer)
    )
    #: ``"lemma"`` (lower-cased spaCy lemmas) or ``"porter"`` (Porter stems, from ``snowballstemmer``).
    stemmer: Stemmer = parameter("lemma", choices=STEMMERS, always_shown=True)
    #: ``True`` drops spaCy's stop words, ``False`` keeps all words, or a collection of lower-cased words to
    #: drop instead (stored as a frozenset, shown sorted).
    stop_words: bool | Collection[str] = parameter(
        True, always_shown=True, check=_check_stop_words, resolve=_stop_words, shown=_shown_stop_words
    )

    def __post_init__(self) -> None:
        self._cache: dict[str, TermProfile] = {}

    def _is_stop_word(self, token: Token) -> bool:
        if self.stop_words is True:
            return is_stop_word(token.lower_)
        if self.stop_words is False:
            return False
        return token.lower_ in self.stop_words

    def _term(self, token: Token) -> str:
        if self.stemmer == "porter":
            return stem(token.lower_)
        return lemma(token).strip()

    def value_key(self) -> str:
        """The name under which each text keeps its profile's values (:meth:`TextAnalysis.derived`),
        also in a persistent cache: the class, a hash of its module's source, the stemmer (with
        snowballstemmer's version) and the stop words."""
        stop_words = self.stop_words
        if not isinstance(stop_words, bool):
            stop_words = hashlib.sha256("\n".join(sorted(stop_words)).encode("utf-8")).hexdigest()
        parameters: dict[str, object] = {"stemmer": self.stemmer, "stop_words": stop_words}
        if self.stemmer == "porter":
            parameters["snowballstemmer"] = porter_version()
        return derived_key(type(self), parameters)

    def profile_of(self, analysis: TextAnalysis) -> TermProfile:
        """The terms of an analysed text (cached by its text, and with the analysis)."""
        profile = self._cache.get(analysis.text)
        if profile is None:
            profile = TermProfile(**analysis.derived(self.value_key(), self._profile_values))
            self._cache[analysis.text] = profile
        return profile

    def _profile_values(self, analysis: TextAnalysis) -> dict[str, list]:
        """The values of a :class:`TermProfile` of an analysed text, as JSON (read from its parse)."""
        doc = analysis.doc
        is_word = analysis.is_word
        terms: list[str] = []
        offsets: list[int] = []
        for token in doc:
            if not is_word[token.i] or self._is_stop_word(token):
                continue
            term = self._term(token)
            if term:
                terms.append(term)
                offsets.append(token.idx)
        sentence_lengths = [len(analysis.sentence_words(sentence)) for sentence in analysis.sentences]
        return {
            "terms": terms,
            "offsets": offsets,
            "sentence_lengths": [length for length in sentence_lengths if length > 0],
        }

    def profiles(self, texts: Iterable[str], *, verbose: bool = False) -> list[TermProfile]:
        """The term profiles of ``texts`` in order; texts not parsed before are parsed in one batch."""
        texts = list(texts)
        missing = [text for text in dict.fromkeys(texts) if text not in self._cache]
        for analysis in self.text_analyzer.analyse(missing, verbose=verbose):
            self.profile_of(analysis)
        return [self._cache[text] for text in texts]

    def terms(self, text: str) -> tuple[str, ...]:
        """The terms of one text, in text order."""
        return self.profiles([text])[0].terms

    def __len__(self) -> int:
        return len(self._cache)


def term_extractor(text_analyzer: TextAnalyzer | str | None = None, stemmer: Stemmer = "lemma") -> TermExtractor:
    """The process-wide :class:`TermExtractor` for an analyzer (default: the shared one) and stemmer."""
    return TermExtractor.shared(text_analyzer=text_analyzer, stemmer=stemmer)


def resolve_term_extractor(
    extractor: TermExtractor | None = None,
    *,
    text_analyzer: TextAnalyzer | str | None = None,
    stemmer: Stemmer = "lemma",
    owner: object = None,
) -> TermExtractor:
    """A term extractor: the given one, else the shared one for ``text_analyzer`` and ``stemmer`` (checked by
    :class:`TermExtractor`'s declaration, or first by that of the ``owner`` that passes them on)."""
    if extractor is not None:
        if text_analyzer is not None or stemmer != "lemma":
            raise ValueError(
                f"{owner or 'resolve_term_extractor'}: pass either term_extractor or text_analyzer/stemmer, not both"
            )
        if not isinstance(extractor, TermExtractor):
            raise TypeError(f"{owner or 'resolve_term_extractor'}: term_extractor must be a TermExtractor")
        return extractor
    return term_extractor(text_analyzer, stemmer)
