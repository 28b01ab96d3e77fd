"""Sentence embeddings: the shared sentence encoder (one ``encoder`` argument everywhere), its backends
(torch, ONNX, static) and cosine similarity of texts; no spaCy parsing (see ``tools/text``) and no axioms."""

from pyterrier_rag_axioms.tools.embeddings.backends import BACKENDS, ENCODER_BACKENDS
from pyterrier_rag_axioms.tools.embeddings.encoder import MissingPackageError, SentenceEncoder
from pyterrier_rag_axioms.tools.embeddings.naming import (
    check_fitted_encoder,
    encoder_argument,
    encoder_name,
    parse_encoder,
    resolve_encoder,
)
from pyterrier_rag_axioms.tools.embeddings.similarity import (
    DEFAULT_SENTENCE_MODEL,
    SentenceSimilarity,
    sentence_model_identity,
    sentence_similarity,
)

__all__ = [
    "BACKENDS", "DEFAULT_SENTENCE_MODEL", "ENCODER_BACKENDS", "MissingPackageError", "SentenceEncoder",
    "SentenceSimilarity", "check_fitted_encoder", "encoder_argument", "encoder_name", "parse_encoder",
    "resolve_encoder", "sentence_model_identity", "sentence_similarity",
]
