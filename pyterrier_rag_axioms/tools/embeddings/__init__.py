"""Sentence embeddings: the shared sentence-transformers encoder, its ONNX and static backends, with cosine
similarity of texts; no spaCy parsing (see ``tools/text``) and no axioms."""

from pyterrier_rag_axioms.tools.embeddings.similarity import (
    BACKENDS,
    DEFAULT_SENTENCE_MODEL,
    SentenceSimilarity,
    resolve_sentence_similarity,
    sentence_model_identity,
    sentence_similarity,
)

__all__ = [
    "BACKENDS", "DEFAULT_SENTENCE_MODEL", "SentenceSimilarity", "resolve_sentence_similarity",
    "sentence_model_identity", "sentence_similarity",
]
