"""One analysed text: its spaCy parse and the values axioms read from it (sentences, words, terms,
aspects, entities and their negation), each computed on first use."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Protocol

import numpy as np

from pyterrier_rag_axioms.tools.text._cache import CACHED_FIELDS, DERIVED_PREFIX
from pyterrier_rag_axioms.tools.text.aspects import (
    normalize_aspect,
)
from pyterrier_rag_axioms.tools.text.segmentation import (
    citation_mask,
    format_mask,
    link_mask,
    markup_mask,
)
from pyterrier_rag_axioms.tools.text.spacy_model import (
    NAMED_ENTITY_TYPES,
)
from pyterrier_rag_axioms.tools.text.words import aspect_text, content_lemma, sentence_spans, word_mask

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token


class AnalysisCompleter(Protocol):
    """What an analysis asks of the analyzer that made it (a
    :class:`~pyterrier_rag_axioms.tools.text.TextAnalyzer`): to parse it, or to run the components it
    deferred, with the other analyses of its request."""

    def components_through(self, component: str | None) -> int: ...

    def complete(
        self, analyses: Sequence[TextAnalysis], *, syntax_only: bool = False, through: str | None = None
    ) -> None: ...


class TextAnalysis:
    """What spaCy finds in one text; each property is computed once, on first use.

    ``doc`` is the text parsed by the whole pipeline. An analysis made by a
    :class:`~pyterrier_rag_axioms.tools.text.TextAnalyzer` may start with the syntax only; the rest of
    the pipeline then runs when ``doc`` (or a property that needs lemmas or entities) is first used. An
    analysis read from a cache starts without a parse, with the values of :data:`CACHED_FIELDS` that
    were stored; the text is parsed (with the other texts of the same request) only when a value that
    was not stored is asked for.
    """

    def __init__(
        self,
        doc: Doc | None,
        *,
        pending: AnalysisCompleter | None = None,
        text: str | None = None,
        analyzer: AnalysisCompleter | None = None,
        stored: dict[str, object] | None = None,
        stored_derived: dict[str, object] | None = None,
    ):
        """
        Args:
            doc: the parsed text (``None``: not parsed yet; then ``text`` and ``analyzer`` are needed).
            pending: the analyzer whose deferred components have not run on ``doc`` yet (internal).
            text: the text, where ``doc`` is ``None``.
            analyzer: the analyzer that parses the text when needed, where ``doc`` is ``None``.
            stored: values of :data:`CACHED_FIELDS` a persistent cache stored for the text.
            stored_derived: values of :meth:`derived` a persistent cache stored for the text, by key.
        """
        if doc is None and (text is None or analyzer is None):
            raise ValueError("TextAnalysis: without a doc, text and analyzer are needed")
        self._doc = doc
        self._text = doc.text if doc is not None else text
        self._pending = pending
        self._components_run = 0  # of the deferred components of ``pending``, in pipeline order
        self._analyzer = analyzer if analyzer is not None else pending
        self._request: list[TextAnalysis] | None = None
        self.__dict__.update(stored or {})  # cached_property reads the instance dict first
        self._derived: dict[str, object] = dict(stored_derived or {})
        self._stored: frozenset[str] = frozenset(stored or ()) | {DERIVED_PREFIX + key for key in self._derived}

    @property
    def doc(self) -> Doc:
        """The text as parsed by the whole pipeline."""
        if self.needs_parse:
            self._analyzer.complete(self._request or [self])
        return self._doc

    # --- the lazy parse: asked for by the analyzer that made the analysis ---------------------------

    @property
    def needs_parse(self) -> bool:
        """Whether the text still lacks its parse or the analyzer's deferred components."""
        return self._doc is None or self._pending is not None

    @property
    def has_syntax(self) -> bool:
        """Whether the text has been parsed (perhaps without the deferred components)."""
        return self._doc is not None

    @property
    def awaits_components(self) -> bool:
        """Whether the analyzer's deferred components have yet to run on the parse."""
        return self._pending is not None

    @property
    def components_run(self) -> int:
        """How many of the analyzer's deferred components have run on the parse so far, in pipeline
        order (while :attr:`awaits_components`)."""
        return self._components_run

    def parse_with(self, request: list[TextAnalysis]) -> None:
        """Parse this text, when it is needed, together with the other analyses of ``request``."""
        self._request = request

    def set_syntax(self, doc: Doc, *, pending: AnalysisCompleter | None) -> None:
        """Take the parse of the text, whose deferred components ``pending`` has yet to run (``None``: none)."""
        self._doc, self._pending, self._components_run = doc, pending, 0
        if pending is None:
            self._request = None

    def ran_component(self, doc: Doc, *, complete: bool) -> None:
        """Take the parse after the next deferred component ran on it (``complete``: the last one)."""
        self._doc, self._components_run = doc, self._components_run + 1
        if complete:
            self._pending, self._request = None, None

    def unstored_values(self) -> dict[str, object]:
        """The values of :data:`CACHED_FIELDS` and of :meth:`derived` (as ``DERIVED_PREFIX + key``)
        computed since they were last stored, by cache field; from now on they count as stored."""
        computed = (self.__dict__.keys() & CACHED_FIELDS.keys()) | {DERIVED_PREFIX + key for key in self._derived}
        values = {}
        for field in sorted(computed - self._stored):
            derived = field.startswith(DERIVED_PREFIX)
            values[field] = self._derived[field[len(DERIVED_PREFIX) :]] if derived else self.__dict__[field]
        self._stored = frozenset(computed)
        return values

    @property
    def text(self) -> str:
        """The analysed text."""
        return self._text

    @property
    def lemmatized(self) -> Doc:
        """The parsed text with lemmas: the pipeline up to its lemmatizer has run (named entities and
        negation perhaps not yet, so that what needs lemmas alone never waits for them)."""
        if self._doc is None or (
            self.awaits_components and self._components_run < self._pending.components_through("lemmatizer")
        ):
            self._analyzer.complete(self._request or [self], through="lemmatizer")
        return self._doc

    @property
    def syntax(self) -> Doc:
        """The parsed text, with tags and dependency parse, perhaps without lemmas or entities."""
        if self._doc is None:
            self._analyzer.complete(self._request or [self], syntax_only=True)
        return self._doc

    def derived(self, key: str, compute: Callable[[TextAnalysis], object]) -> object:
        """The value ``compute(self)``, computed once per text and ``key``, and kept in a persistent cache
        where the analyzer has one. ``key`` must name everything the value depends on besides the
        parse (the function, the version of its code, its parameters); the value must be JSON
        (a number, string, list or dict of them)."""
        if key not in self._derived:
            self._derived[key] = compute(self)
        return self._derived[key]

    @cached_property
    def citations(self) -> np.ndarray:
        """Whether each token is (part of) a citation marker such as ``[2]`` or ``[0,1,2]``, or
        another mark of a source (``[^1]``, ``¹``, ``<sup>1</sup>``)."""
        return citation_mask(self.syntax, self.text)

    @cached_property
    def links(self) -> np.ndarray:
        """Whether each token is (part of) a web or email address (``https://...``, ``www....``,
        ``name@example.org``), bare or as the target of a Markdown link."""
        return link_mask(self.syntax, self.text)

    @cached_property
    def formatting(self) -> np.ndarray:
        """Whether each token is (part of) an HTML tag (``<br>``), a character entity (``&amp;``) or a
        Markdown emphasis mark (``**``)."""
        return format_mask(self.syntax, self.text)

    @cached_property
    def markup(self) -> np.ndarray:
        """Whether each token is (part of) a list, heading or quote marker that opens a line."""
        return markup_mask(self.syntax, self.text)

    @cached_property
    def is_word(self) -> np.ndarray:
        """Whether each token is a word: it has a letter or digit and is neither punctuation, a
        citation marker or other mark of a source (``[^1]``, ``¹``), a web or email address, an HTML
        tag or entity, nor a list, heading or quote marker (so Markdown's ``|``, ``**`` or ``→`` are
        no words)."""
        return word_mask(self.syntax, self.citations, self.markup) & ~self.links & ~self.formatting

    @cached_property
    def sentences(self) -> list[Span]:
        """The sentences, without the markers that open a line and without those that have no word.

        Lines, list items and headings are sentences of their own (see
        :mod:`~pyterrier_rag_axioms.tools.text.segmentation`); a citation marker stays with the
        sentence it closes, also after the full stop (``... in 1889. [2] It is tall.``). A
        "sentence" of citation markers alone is joined to the sentence before it.
        """
        return sentence_spans(self.syntax, self.is_word, self.markup)

    @cached_property
    def sentence_texts(self) -> list[str]:
        """The text of each sentence, stripped."""
        return [sentence.text.strip() for sentence in self.sentences]

    def sentence_share(self, pattern: re.Pattern) -> float:
        """The share of sentences in which ``pattern`` occurs (NaN for a text without sentences)."""
        sentences = self.sentence_texts
        if not sentences:
            return float("nan")
        return sum(bool(pattern.search(sentence)) for sentence in sentences) / len(sentences)

    @cached_property
    def words(self) -> list[Token]:
        """The word tokens (see :attr:`is_word`), in text order."""
        return [token for token in self.syntax if self.is_word[token.i]]

    def sentence_words(self, sentence: Span) -> list[Token]:
        """The word tokens of one of :attr:`sentences`."""
        return [token for token in sentence if self.is_word[token.i]]

    @cached_property
    def word_texts(self) -> list[str]:
        """The text of each of :attr:`words`."""
        return [token.text for token in self.words]

    @cached_property
    def terms(self) -> list[str]:
        """Lower-cased lemmas of the words that are no stop words, in text order."""
        return [term for token in self.lemmatized if self.is_word[token.i] and (term := content_lemma(token))]

    def _aspect_text(self, span: Span) -> str:
        """A span's text without citation and line markers, lower-cased, whitespace collapsed."""
        return aspect_text(span, self.is_word, self.citations | self.formatting)

    @cached_property
    def noun_chunk_spans(self) -> tuple[Span, ...]:
        """spaCy's noun chunks that hold at least one word, cut at table pipes (``| Drug | Dose |``
        gives ``Drug`` and ``Dose``, not one chunk across the cells)."""
        doc = self.syntax
        parts = []
        for chunk in doc.noun_chunks:
            start = chunk.start
            for token in chunk:
                if token.text == "|":
                    parts.append(doc[start : token.i])
                    start = token.i + 1
            parts.append(doc[start : chunk.end])
        return tuple(part for part in parts if len(part) and self.is_word[part.start : part.end].any())

    def noun_chunk_texts(self, *, pronouns: bool = False) -> tuple[str, ...]:
        """Distinct noun chunks without citation and line markers, lower-cased, in order of first
        occurrence; chunks headed by a pronoun ("it", "they", "which") only with ``pronouns=True``."""
        return tuple(
            dict.fromkeys(
                text
                for chunk in self.noun_chunk_spans
                if (pronouns or not self._is_pronoun_chunk(chunk)) and (text := self._aspect_text(chunk))
            )
        )

    def _is_pronoun_chunk(self, chunk: Span) -> bool:
        """Whether a noun chunk is headed by a pronoun. Where spaCy took a citation marker for the
        root ("these [2]", parsed as a determiner and a proper noun), the chunk's words decide: a
        pronoun chunk has pronouns and determiners only."""
        if self.is_word[chunk.root.i]:
            return chunk.root.pos_ == "PRON"
        return all(token.pos_ in ("PRON", "DET") for token in chunk if self.is_word[token.i])

    @cached_property
    def noun_chunks(self) -> tuple[str, ...]:
        """Distinct noun chunks without pronouns, citation and line markers, lower-cased (see
        :meth:`noun_chunk_texts`)."""
        return self.noun_chunk_texts()

    @cached_property
    def noun_chunks_with_pronouns(self) -> tuple[str, ...]:
        """:attr:`noun_chunks` with the chunks headed by a pronoun."""
        return self.noun_chunk_texts(pronouns=True)

    @cached_property
    def entities(self) -> tuple[str, ...]:
        """Distinct named entities (all types), lower-cased, in order of first occurrence."""
        return tuple(dict.fromkeys(text for entity in self.doc.ents if (text := self._aspect_text(entity))))

    @cached_property
    def entity_polarities(self) -> dict[str, frozenset[bool]]:
        """Distinct named entities of :data:`NAMED_ENTITY_TYPES` (lower-cased), each with whether it
        occurs negated (``True``, by negspaCy) and not negated (``False``)."""
        polarities: dict[str, set[bool]] = {}
        for entity in self.doc.ents:
            if entity.label_ in NAMED_ENTITY_TYPES:
                polarities.setdefault(normalize_aspect(entity.text), set()).add(bool(entity._.negex))
        return {entity: frozenset(polarity) for entity, polarity in polarities.items()}
