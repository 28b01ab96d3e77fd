"""The sentence encoder backends, by name: the one table that says which class runs each.

======================== ============================================================ ====================
backend                  runs                                                          each text alone
======================== ============================================================ ====================
``torch``                sentence-transformers (CPU or GPU), whole lists in batches     no (batched by length)
``onnx``                 the model exported to ONNX, float32, onnxruntime on the CPU   yes
``onnx-int8``            the same with 8-bit weights (one scale per matrix)            yes
``onnx-int8-per-channel`` 8-bit weights, one scale per output channel                  yes
``static``               the model distilled to one vector per token (model2vec)       yes
======================== ============================================================ ====================

Each class implements :class:`~pyterrier_rag_axioms.tools.embeddings.encoder.SentenceEncoder`;
:func:`encoder_backend` builds one from its name. Nothing else in the package tests a backend's name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyterrier_rag_axioms.tools.embeddings.encoder import SentenceEncoder
from pyterrier_rag_axioms.tools.embeddings.onnx_encoder import ONNX_WEIGHTS, OnnxSentenceEncoder
from pyterrier_rag_axioms.tools.embeddings.static_encoder import StaticSentenceEncoder
from pyterrier_rag_axioms.tools.embeddings.torch_encoder import TorchSentenceEncoder

#: Each backend's class and the options its :meth:`~SentenceEncoder.open` takes.
ENCODER_BACKENDS: dict[str, tuple[type[SentenceEncoder], dict[str, Any]]] = {
    "torch": (TorchSentenceEncoder, {}),
    **{
        name: (OnnxSentenceEncoder, {"quantize": quantize, "per_channel": per_channel})
        for name, (quantize, per_channel) in ONNX_WEIGHTS.items()
    },
    "static": (StaticSentenceEncoder, {}),
}
#: The backend names, in the order the docs list them.
BACKENDS: tuple[str, ...] = tuple(ENCODER_BACKENDS)


def backend_class(backend: str) -> type[SentenceEncoder]:
    """The class that runs ``backend`` (``ValueError`` naming the backends otherwise)."""
    if backend not in ENCODER_BACKENDS:
        choices = ", ".join(map(repr, BACKENDS))
        raise ValueError(f"SentenceSimilarity: backend must be one of {choices}, not {backend!r}")
    return ENCODER_BACKENDS[backend][0]


def encoder_backend(backend: str, model_path: str, *, device: str | None, cache_dir: Path | None) -> SentenceEncoder:
    """The encoder of ``backend`` for a model (its model loaded on first use); a clear
    :class:`~pyterrier_rag_axioms.tools.embeddings.encoder.MissingPackageError` where its packages are missing."""
    cls = backend_class(backend)
    cls.check_installed(backend)
    return cls.open(model_path, device=device, cache_dir=cache_dir, **ENCODER_BACKENDS[backend][1])
