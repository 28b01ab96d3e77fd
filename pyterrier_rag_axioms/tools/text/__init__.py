"""Text analysis with spaCy: parsing, sentences and their segmentation, words, aspects, and the on-disk store
of what was computed; no embeddings (``tools/embeddings``), no atomic facts (``nuggets/facts``), no axioms."""

from pyterrier_rag_axioms.tools.text._cache import CACHED_FIELDS, DERIVED_PREFIX, derivation_version
from pyterrier_rag_axioms.tools.text.analysis import TextAnalysis
from pyterrier_rag_axioms.tools.text.analyzer import TextAnalyzer, resolve_text_analyzer, text_analyzer
from pyterrier_rag_axioms.tools.text.aspects import (
    AspectExtraction,
    AspectsArgument,
    EntityAspects,
    NounChunkAspects,
    normalize_aspect,
    resolve_aspects,
)
from pyterrier_rag_axioms.tools.text.segmentation import CITATION_PATTERN, MARKER_PATTERN
from pyterrier_rag_axioms.tools.text.spacy_model import (
    DEFAULT_SPACY_MODELS,
    DEFERRED_COMPONENTS,
    NAMED_ENTITY_TYPES,
    load_spacy_model,
    spacy_model_identity,
)

__all__ = [
    "CACHED_FIELDS", "CITATION_PATTERN", "DEFAULT_SPACY_MODELS", "DEFERRED_COMPONENTS", "DERIVED_PREFIX",
    "MARKER_PATTERN", "NAMED_ENTITY_TYPES", "AspectExtraction", "AspectsArgument", "EntityAspects",
    "NounChunkAspects", "TextAnalysis", "TextAnalyzer", "derivation_version", "load_spacy_model",
    "normalize_aspect", "resolve_aspects", "resolve_text_analyzer", "spacy_model_identity", "text_analyzer",
]
