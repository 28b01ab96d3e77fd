"""A faster sentence encoder: a sentence-transformers model exported to ONNX and run by onnxruntime.

Opt-in with ``encoder="MODEL:onnx"`` (``SentenceSimilarity(backend="onnx")``; the same float32 weights: embeddings agree
with sentence-transformers' to about 1e-7), ``backend="onnx-int8"`` (weights quantized to 8-bit
integers by onnxruntime's dynamic quantization, one scale per weight matrix: faster, embeddings
differ by up to a few percent) or ``backend="onnx-int8-per-channel"`` (one scale per output
channel of each matrix: as fast, embeddings closer to float32's, mean cosine 0.994 against 0.966).
Needs ``pip install "pyterrier-rag-axioms[onnx]"`` (onnxruntime and onnx).

sentence-transformers' own ONNX backend needs ``optimum-onnx``, whose releases require
transformers < 4.58 while sentence-transformers 6 requires transformers 5, so the export is done
here with ``torch.onnx.export`` from the local model files (no hub access): the transformer with
the model's mean pooling, as one graph. The export is built once per model (and precision), by
one process, deterministically, and checked against its recorded hash before every use (see
:mod:`~pyterrier_rag_axioms.tools.embeddings.onnx_build`); later processes then run without
torch: tokenization by the model's ``tokenizer.json`` with Hugging Face ``tokenizers``, inference
by onnxruntime.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cached_property
from pathlib import Path

import numpy as np

from pyterrier_rag_axioms.declaration import declared_repr, parameter, parameters
from pyterrier_rag_axioms.runtime.model_files import default_model_files_dir
from pyterrier_rag_axioms.runtime.threads import usable_cores
from pyterrier_rag_axioms.tools.embeddings.encoder import SentenceEncoder, local_model_path
from pyterrier_rag_axioms.tools.embeddings.onnx_build import (
    OnnxExportError,
    ensure_built,
    export_directory,
    export_file_name,
)

#: The most texts :class:`OnnxSentenceEncoder` runs through the model at the same time by default.
MAX_THREADS = 4
#: Each backend of :class:`~pyterrier_rag_axioms.tools.embeddings.similarity.SentenceSimilarity` served by
#: this module, with its weights: ``(quantize, per_channel)`` of :class:`OnnxSentenceEncoder`.
ONNX_WEIGHTS: dict[str, tuple[bool, bool]] = {
    "onnx": (False, False),
    "onnx-int8": (True, False),
    "onnx-int8-per-channel": (True, True),
}
#: The backends served by this module.
ONNX_BACKENDS: tuple[str, ...] = tuple(ONNX_WEIGHTS)


def default_export_dir() -> Path:
    """Where exports go when no cache directory is set: ``$XDG_CACHE_HOME/pyterrier-rag-axioms/onnx``."""
    return default_model_files_dir() / "onnx"


def _read_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}



def check_exportable(model_path: Path) -> None:
    """Raise ``ValueError`` unless the model is a local sentence-transformers model this module can export."""
    if not model_path.is_dir():
        raise ValueError(f"ONNX backend: {str(model_path)!r} is not a local model directory")
    modules = _read_json(model_path / "modules.json")
    types = [module.get("type", "").rsplit(".", 1)[-1] for module in modules] if isinstance(modules, list) else []
    if not types or types[0] != "Transformer" or any(kind not in {"Pooling", "Normalize"} for kind in types[1:]):
        raise ValueError(
            f"ONNX backend: {str(model_path)!r} is not a Transformer + Pooling (+ Normalize) model ({types})"
        )
    pooling_dirs = [module.get("path", "") for module in modules if module.get("type", "").endswith("Pooling")]
    for directory in pooling_dirs:
        pooling = _read_json(model_path / directory / "config.json")
        modes = [key for key, value in pooling.items() if key.startswith("pooling_mode") and value]
        if modes != ["pooling_mode_mean_tokens"]:
            raise ValueError(f"ONNX backend: only mean pooling is supported, {str(model_path)!r} uses {modes}")
    if not (model_path / "tokenizer.json").is_file():
        raise ValueError(f"ONNX backend: {str(model_path)!r} has no tokenizer.json")



def _check_model_path(encoder: OnnxSentenceEncoder, model_path: str | os.PathLike) -> None:
    check_exportable(Path(model_path))


def _check_per_channel(encoder: OnnxSentenceEncoder, per_channel: bool) -> None:
    if per_channel and not encoder.quantize:
        raise ValueError("OnnxSentenceEncoder: per_channel needs quantize=True")


@parameters
class OnnxSentenceEncoder(SentenceEncoder):
    """Encodes texts like ``SentenceTransformer.encode`` with an ONNX export of the model, each text alone.

    Supports models made of a Transformer, mean pooling and (optionally) normalisation, such as
    all-MiniLM-L6-v2. The backends ``"onnx"``, ``"onnx-int8"`` and ``"onnx-int8-per-channel"``
    (:data:`ONNX_WEIGHTS`).
    """

    modules = ("onnxruntime", "onnx", "tokenizers")
    install = '"pyterrier-rag-axioms[onnx]"'
    runtime = (*SentenceEncoder.runtime, "onnxruntime")
    #: 2 since each text is encoded alone (entries of batched encoding are not read).
    embedding_version = 2
    batch_independent = True
    builds_files = True

    #: Local directory of the sentence-transformers model (stored as a ``Path``, shown as text).
    model_path: str | os.PathLike = local_model_path(_check_model_path)
    #: Use 8-bit integer weights (onnxruntime dynamic quantization).
    quantize: bool = parameter(False, always_shown=True)
    #: With ``quantize``, one scale per output channel of each weight matrix instead of one per matrix
    #: (embeddings closer to float32's, as fast).
    per_channel: bool = parameter(False, check=_check_per_channel)
    #: Directory of exports (default: :func:`default_export_dir`); each model has its own subdirectory,
    #: named by a fingerprint of its files and of the versions that build it.
    export_dir: Path | None = parameter(None, in_repr=False)
    #: How many texts run through the model at the same time, each on one thread (default: the CPU
    #: cores this process may use, at most :data:`MAX_THREADS`).
    threads: int | None = parameter(None, whole=True, at_least=1, in_repr=False)

    def __post_init__(self) -> None:
        self.export_path = export_directory(
            self.model_path, self.export_dir or default_export_dir()
        ) / export_file_name(quantize=self.quantize, per_channel=self.per_channel)
        config = _read_json(self.model_path / "sentence_bert_config.json")
        self.max_seq_length = int(config.get("max_seq_length") or 512)
        modules = _read_json(self.model_path / "modules.json")
        self.normalize = any(module.get("type", "").endswith("Normalize") for module in modules)

    @classmethod
    def open(cls, model_path: str, *, device: str | None, cache_dir: Path | None, **options) -> OnnxSentenceEncoder:
        """The encoder of a local model, its exports in ``cache_dir/onnx`` (else :func:`default_export_dir`);
        ``options``: ``quantize`` and ``per_channel``. Runs on the CPU whatever ``device``."""
        return cls(model_path, export_dir=cache_dir / "onnx" if cache_dir else None, **options)

    @cached_property
    def session(self):
        """The onnxruntime inference session (exporting the model first where needed), one thread per run.

        A text alone is too small a piece of work to share among threads: onnxruntime's pool of
        threads, spinning while it waits, took 2.5x the CPU of one thread for the same embeddings
        (the same bits). The cores are used by running several texts at once instead (``threads``).
        """
        import onnxruntime

        digest = self.prepare()
        model = self.export_path.read_bytes()  # the bytes checked are the bytes run
        if hashlib.sha256(model).hexdigest() != digest:
            raise OnnxExportError(f"{self.export_path}: the ONNX model file changed while it was read; run again")
        options = onnxruntime.SessionOptions()
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        return onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])

    def prepare(self) -> str:
        """Build the export where it is missing or damaged (see
        :func:`~pyterrier_rag_axioms.tools.embeddings.onnx_build.ensure_built`), and return its SHA-256.

        Call it before worker processes fork, so that none of them builds; cheap once built (the
        file is hashed once per process)."""
        return ensure_built(self.model_path, self.export_path, quantize=self.quantize, per_channel=self.per_channel)

    @property
    def workers(self) -> int:
        """How many texts run through the model at the same time (see ``threads``; one in a worker
        process of split topics, :mod:`~pyterrier_rag_axioms.runtime.processes`)."""
        if self.threads is not None:
            return self.threads
        return max(1, min(usable_cores(), MAX_THREADS))

    @cached_property
    def tokenizer(self):
        """The model's fast tokenizer, truncating to its maximum sequence length (no padding)."""
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(self.model_path / "tokenizer.json"))
        tokenizer.enable_truncation(max_length=self.max_seq_length)
        tokenizer.no_padding()  # each text runs alone: nothing to pad
        return tokenizer

    @property
    def dimension(self) -> int:
        """Length of the embeddings."""
        return int(self.encode(["dimension"]).shape[1])

    def encode(
        self,
        texts: Sequence[str],
        *,
        batch_size: int = 64,
        normalize_embeddings: bool = True,
        show_progress_bar: bool = False,
        convert_to_numpy: bool = True,
    ) -> np.ndarray:
        """Embeddings of ``texts`` (one float32 row each).

        Each text runs through the model alone (a batch of one, without padding), so its embedding
        is the same bits whatever other texts are encoded with it: onnxruntime's kernels (and the
        8-bit model's quantization of activations, scaled per batch) give results that depend on
        the batch's shape and content. ``batch_size`` sets how many texts are tokenized at once;
        the texts of a batch run :attr:`workers` at a time, each on one thread (the same bits).
        """
        import pyterrier as pt

        texts = list(texts)
        session = self.session

        def run(encoding) -> np.ndarray:
            inputs = {
                "input_ids": np.array([encoding.ids], dtype=np.int64),
                "attention_mask": np.array([encoding.attention_mask], dtype=np.int64),
                "token_type_ids": np.array([encoding.type_ids], dtype=np.int64),
            }
            vector = session.run(None, inputs)[0][0]
            if normalize_embeddings or self.normalize:
                vector = vector / max(float(np.sqrt(np.dot(vector, vector))), 1e-12)
            return vector

        vectors = np.zeros((len(texts), 0), dtype=np.float32)
        starts = range(0, len(texts), batch_size)
        if show_progress_bar:
            starts = pt.tqdm(starts, desc="ONNX encoder", unit="batch")
        with contextlib.ExitStack() as stack:
            pool = None
            if self.workers > 1 and len(texts) > 1:
                pool = stack.enter_context(ThreadPoolExecutor(min(self.workers, len(texts))))
            for start in starts:
                encodings = self.tokenizer.encode_batch(texts[start : start + batch_size])
                for position, vector in enumerate(pool.map(run, encodings) if pool else map(run, encodings)):
                    if vectors.shape[1] == 0:
                        vectors = np.zeros((len(texts), len(vector)), dtype=np.float32)
                    vectors[start + position] = vector
        return vectors

    __repr__ = declared_repr
