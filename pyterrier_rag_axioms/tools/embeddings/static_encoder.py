"""A static sentence encoder: a sentence-transformers model distilled into one vector per token.

``encoder="MODEL:static"`` (``SentenceSimilarity(backend="static")``). model2vec distills the model here,
from its local files with no hub access: every token of the model's vocabulary goes through the transformer once, and
the outputs, reduced to 256 dimensions by PCA and weighted by the tokens' frequency (SIF), become
a table of token vectors. A text's embedding is then the mean of its tokens' vectors: a table
lookup, about a hundred times faster than the transformer on a CPU, and the same bits whatever
other texts are encoded with it. Its similarities are flatter than the transformer's, so a fitted
model reads them only where it was fitted on them (saved models name their encoder).

The distilled model is built once per model and version of the libraries that make it, by one
process, on the CPU (the same bytes on every run), and checked against its recorded hash before
every use, as every model file built at first use is (see :mod:`~pyterrier_rag_axioms.runtime.model_files`):
one file, ``static-256.safetensors``, holding the token vectors and the tokenizer. Distilling
needs ``pip install "pyterrier-rag-axioms[models]"`` (``model2vec[distill]``); reading the built
file needs only ``model2vec``.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path

import numpy as np

from pyterrier_rag_axioms.declaration import REQUIRED, declared_repr, parameter, parameters
from pyterrier_rag_axioms.runtime.model_files import (
    ModelFileError,
    default_model_files_dir,
    ensure_file,
    install,
    model_folder,
)
from pyterrier_rag_axioms.tools.embeddings.encoder import SentenceEncoder, local_model_path

#: Dimensions of the distilled token vectors (model2vec's PCA).
STATIC_DIMENSIONS = 256
#: Version of how the static model is distilled and stored here; part of its directory's name.
STATIC_VERSION = 1
#: The packages whose versions decide the distilled model's bytes; part of its directory's name.
STATIC_PACKAGES: tuple[str, ...] = (
    "pyterrier-rag-axioms", "model2vec", "torch", "transformers", "tokenizers", "scikit-learn", "numpy",
)
#: The file's one metadata entry: the tokenizer and settings, as JSON.
METADATA_KEY = "static_model"
#: What the file is called in notes and errors.
WHAT = "static embedding model file"


def default_static_dir() -> Path:
    """Where distilled models go when no cache directory is set: ``$XDG_CACHE_HOME/pyterrier-rag-axioms/static``."""
    return default_model_files_dir() / "static"


def static_file_name(dimensions: int = STATIC_DIMENSIONS) -> str:
    """The file name of a distilled model: ``static-256.safetensors``."""
    return f"static-{dimensions}.safetensors"


def _distill(model_path: Path, target: Path, dimensions: int) -> None:
    """Distill the model at ``model_path`` on the CPU and write its token vectors and tokenizer to ``target``."""
    from model2vec.distill import distill
    from safetensors.numpy import save_file

    with contextlib.redirect_stderr(io.StringIO()):  # model2vec's progress bar and transformers' load report
        model = distill(model_name=str(model_path), device="cpu", pca_dims=dimensions)
    tensors = {"embeddings": np.ascontiguousarray(model.embedding)}
    if model.weights is not None:
        tensors["weights"] = np.ascontiguousarray(model.weights)
    if model.token_mapping is not None:
        tensors["token_mapping"] = np.ascontiguousarray(model.token_mapping)
    settings = {"tokenizer": model.tokenizer.to_str(), "normalize": bool(model.normalize),
                "max_length": model.config.get("max_length")}
    # one metadata entry: safetensors writes several in no fixed order, and the bytes must not vary
    save_file(tensors, str(target), metadata={METADATA_KEY: json.dumps(settings, sort_keys=True)})


def _read(data: bytes):
    """The ``model2vec.StaticModel`` stored in a file's bytes (see :func:`_distill`)."""
    from model2vec import StaticModel
    from safetensors.numpy import load
    from tokenizers import Tokenizer

    tensors = load(data)
    header_length = int.from_bytes(data[:8], "little")  # safetensors: the header's length, then the header
    settings = json.loads(json.loads(data[8:8 + header_length])["__metadata__"][METADATA_KEY])
    return StaticModel(
        tensors["embeddings"],
        Tokenizer.from_str(settings["tokenizer"]),
        normalize=settings["normalize"],
        weights=tensors.get("weights"),
        token_mapping=tensors.get("token_mapping"),
        max_length=settings["max_length"],
    )


def _check_model_directory(encoder: StaticSentenceEncoder, model_path: str | os.PathLike) -> None:
    if not Path(model_path).is_dir():
        raise ModelFileError(
            f"StaticSentenceEncoder: {str(model_path)!r} is not a local model directory; the static "
            "encoder is distilled from a model's local files (no hub access)"
        )


@parameters
class StaticSentenceEncoder(SentenceEncoder):
    """Encodes texts like ``SentenceTransformer.encode`` with a static model distilled from the transformer.

    The backend ``"static"``: each text's embedding is the mean of its own tokens' vectors."""

    modules = ("model2vec", "safetensors", "tokenizers")
    install = '"pyterrier-rag-axioms[models]"'
    runtime = (*SentenceEncoder.runtime, "model2vec")
    batch_independent = True
    same_embeddings = False
    builds_files = True

    #: Local directory of the sentence-transformers model (stored as a ``Path``, shown as text).
    model_path: str | os.PathLike = local_model_path(_check_model_directory)
    #: Directory of built model files; each model has its own subdirectory, named by a fingerprint of
    #: its files and of the versions that build it.
    export_dir: Path = parameter(REQUIRED, in_repr=False)
    #: Dimensions of the token vectors.
    dimensions: int = parameter(STATIC_DIMENSIONS, always_shown=True)

    def __post_init__(self) -> None:
        self.export_path = model_folder(
            self.model_path, self.export_dir, packages=STATIC_PACKAGES, version=STATIC_VERSION
        ) / static_file_name(self.dimensions)

    @classmethod
    def open(cls, model_path: str, *, device: str | None, cache_dir: Path | None, **options) -> StaticSentenceEncoder:
        """The encoder of a local model, its distilled file in ``cache_dir/static`` (else
        :func:`default_static_dir`). Distilled on the CPU, and runs there, whatever ``device``."""
        return cls(model_path, export_dir=cache_dir / "static" if cache_dir else default_static_dir(), **options)

    def prepare(self) -> str:
        """Distill the model where its file is missing or damaged, and return the file's SHA-256.

        Call it before worker processes fork, so that none of them builds; cheap once built."""
        def build(private: Path) -> str:
            _distill(self.model_path, private / self.export_path.name, self.dimensions)
            return install(private / self.export_path.name, self.export_path, self.model_path,
                           load=lambda path: _read(path.read_bytes()), packages=STATIC_PACKAGES)

        return ensure_file(self.export_path, build, what=WHAT, takes="one to two minutes")

    @cached_property
    def model(self):
        """The ``model2vec.StaticModel``, read from the checked bytes."""
        digest = self.prepare()
        data = self.export_path.read_bytes()  # the bytes checked are the bytes read
        if hashlib.sha256(data).hexdigest() != digest:
            raise ModelFileError(f"{self.export_path}: the {WHAT} changed while it was read; run again")
        return _read(data)

    @property
    def dimension(self) -> int:
        """Length of the embeddings."""
        return int(self.model.dim)

    def encode(
        self,
        texts: Sequence[str],
        *,
        batch_size: int = 64,
        normalize_embeddings: bool = True,
        show_progress_bar: bool = False,
        convert_to_numpy: bool = True,
    ) -> np.ndarray:
        """Unit-length embeddings of ``texts`` (one float32 row each): the mean of each text's token vectors.

        Each text's embedding depends on its own tokens alone, so it is the same bits in any batch.
        """
        vectors = self.model.encode(list(texts), batch_size=max(batch_size, 1024), use_multiprocessing=False,
                                    show_progress_bar=show_progress_bar)
        vectors = np.asarray(vectors, dtype=np.float32).reshape(len(texts), -1)
        if normalize_embeddings:
            norms = np.linalg.norm(vectors, axis=1, keepdims=True)
            vectors = vectors / np.maximum(norms, 1e-12)
        return vectors

    __repr__ = declared_repr
