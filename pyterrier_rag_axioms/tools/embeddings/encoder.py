"""What every sentence encoder backend offers: :class:`SentenceEncoder`.

A backend turns texts into unit-length float32 embeddings, one row each. The backends
(:mod:`~pyterrier_rag_axioms.tools.embeddings.backends` lists them by name) differ in what runs the
model (torch, onnxruntime, a table of token vectors) and in whether a text's embedding depends on
the other texts encoded with it; :class:`~pyterrier_rag_axioms.tools.embeddings.SentenceSimilarity`
caches what they compute and never asks which one it holds.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from pyterrier_rag_axioms.declaration import REQUIRED, parameter


def _as_path(encoder: object, model_path: str | os.PathLike) -> Path:
    return Path(model_path)


def local_model_path(check: Callable[[Any, Any], None]) -> Any:
    """The declared ``model_path`` of a backend that reads a model's local directory: required and
    positional, checked by ``check(encoder, model_path)``, stored as a ``Path`` and shown as text."""
    return parameter(REQUIRED, positional=True, check=check, resolve=_as_path, shown=str)


class MissingPackageError(ImportError):
    """A backend's packages are not installed: the message names the backend, the packages and the extra."""


class SentenceEncoder(ABC):
    """One way to run a sentence-transformers model: texts in, unit-length embeddings out.

    A subclass is built by :meth:`open` from the model's path, the device and the cache directory
    (where it keeps model files it builds), and loads its model on first use, so that building one
    is cheap.
    """

    #: The modules the backend imports to encode (checked by :meth:`check_installed`).
    modules: ClassVar[tuple[str, ...]] = ()
    #: The ``pip install`` argument that installs them.
    install: ClassVar[str] = ""
    #: The distributions whose versions decide its embeddings (part of every persistent cache key).
    runtime: ClassVar[tuple[str, ...]] = ("sentence-transformers", "transformers", "torch", "tokenizers")
    #: Version of how its embeddings are made (part of every persistent cache key).
    embedding_version: ClassVar[int] = 1
    #: Whether a text's embedding is the same bits whatever other texts are encoded with it.
    batch_independent: ClassVar[bool] = False
    #: Whether its embeddings are the model's own (up to rounding), so that a model fitted on one
    #: backend's reads another's (a static model distilled from it is another embedding space).
    same_embeddings: ClassVar[bool] = True
    #: Whether it builds a model file at first use (:meth:`prepare`; ``rag-axioms cache --build`` builds it).
    builds_files: ClassVar[bool] = False

    @classmethod
    @abstractmethod
    def open(cls, model_path: str, *, device: str | None, cache_dir: Path | None, **options) -> SentenceEncoder:
        """The encoder of the model at ``model_path`` (a local path or a hub name); ``cache_dir`` is the
        persistent cache's directory (``None``: none set), where built model files go."""

    @classmethod
    def missing_modules(cls) -> list[str]:
        """The modules of :attr:`modules` that cannot be imported here."""
        return [module for module in cls.modules if importlib.util.find_spec(module) is None]

    @classmethod
    def check_installed(cls, backend: str) -> None:
        """Raise :class:`MissingPackageError` naming ``backend`` and the way to install what it lacks."""
        missing = cls.missing_modules()
        if missing:
            raise MissingPackageError(
                f"SentenceSimilarity: the {backend!r} encoder needs {', '.join(missing)}, which "
                f"{'is' if len(missing) == 1 else 'are'} not installed; pip install {cls.install}"
            )

    @abstractmethod
    def encode(self, texts: Sequence[str], *, batch_size: int = 64) -> np.ndarray:
        """Unit-length float32 embeddings of ``texts``, one row each (``batch_size``: texts per batch)."""

    @property
    @abstractmethod
    def dimension(self) -> int:
        """Length of the embeddings."""

    def get_sentence_embedding_dimension(self) -> int:
        """:attr:`dimension`, by sentence-transformers' name."""
        return self.dimension

    def prepare(self) -> str | None:
        """Build the model file the backend runs where it is missing or damaged, check it, and return its
        SHA-256 (``None``: a backend that builds no file, :attr:`builds_files`). Call it before worker
        processes fork, so that none of them builds."""
        return None

    def load(self) -> None:  # noqa: B027 (optional hook)
        """Load the model into memory where loading is slow (torch), so that worker processes forked
        after share it; nothing by default."""

    def limited(self, one_thread: bool) -> contextlib.AbstractContextManager:
        """A context in which :meth:`encode` runs on one intra-op thread where ``one_thread`` (the same bits)."""
        return contextlib.nullcontext()
