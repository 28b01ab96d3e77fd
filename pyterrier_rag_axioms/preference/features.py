"""The feature axioms of a :class:`~pyterrier_rag_axioms.preference.model.PreferenceModel`: resolving
them by name and transforming their values."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, get_args

import numpy as np

from pyterrier_rag_axioms.axioms import Axiom, FeatureAxiom
from pyterrier_rag_axioms.declaration import declares, replaced, same
from pyterrier_rag_axioms.registry import AXIOMS
from pyterrier_rag_axioms.tools.embeddings.backends import BACKENDS, backend_class
from pyterrier_rag_axioms.tools.embeddings.naming import parse_encoder
from pyterrier_rag_axioms.tools.embeddings.similarity import (
    SentenceSimilarity,
    batch_independent_similarity,
    sentence_similarity,
)

Transform = Literal["signed_log1p", "identity"]
TRANSFORMS: tuple[str, ...] = get_args(Transform)
#: The encoders a model may compute its embedding features with (``PreferenceModel.encoder``): a backend,
#: given as ``"BACKEND"`` or ``":BACKEND"`` (the features keep their own models).
ENCODERS: tuple[str, ...] = BACKENDS


def model_encoder(model: object, encoder: object) -> str:
    """The backend a preference model's ``encoder`` argument names (``"static"`` or ``":static"``: ``"static"``);
    a ``ValueError`` naming the model's class for anything else (a model, or no backend)."""
    label = type(model).__name__
    parsed = parse_encoder(encoder, label) if isinstance(encoder, str) else (None, None)
    if parsed[0] is not None or parsed[1] is None:
        raise ValueError(
            f"{label}: encoder must name a backend, one of {', '.join(map(repr, ENCODERS))} (or ':BACKEND'); "
            f"the features keep their own models; not {encoder!r}"
        )
    return parsed[1]


def transformed_values(values: np.ndarray, transform: str) -> np.ndarray:
    """A sign-preserving transform of per-response values: ``sign(x) * log(1 + |x|)`` or ``x``."""
    if transform == "signed_log1p":
        return np.sign(values) * np.log1p(np.abs(values))
    return values


def axiom_classes() -> dict[str, type[FeatureAxiom]]:
    """The feature axiom classes of the registry, by short name."""
    return {name: cls for name, cls in AXIOMS.items() if issubclass(cls, FeatureAxiom)}


def _resolve_feature(feature: FeatureAxiom | str, where: str) -> FeatureAxiom:
    """A feature axiom from an instance or a short name (e.g. ``"LEN1"``)."""
    if isinstance(feature, str):
        classes = axiom_classes()
        if feature not in classes:
            raise ValueError(
                f"{where}: unknown feature axiom {feature!r}; known: {', '.join(sorted(classes))}"
            )
        return classes[feature]()
    if not isinstance(feature, FeatureAxiom):
        kind = "an axiom without per-response values" if isinstance(feature, Axiom) else type(feature).__name__
        raise TypeError(
            f"{where}: a feature must be a feature axiom (one value per response) or its short name, "
            f"not {kind} {feature!r}"
        )
    return feature


def encoded_with(axioms: Sequence[FeatureAxiom], encoder: str) -> tuple[FeatureAxiom, ...]:
    """The feature axioms as a model computes them with ``encoder``.

    Each axiom whose declared ``encoder`` is the shared default encoder of its sentence
    model (sentence-transformers with torch, in batches) gets the shared encoder of the same model
    with ``encoder``'s backend instead; for the ONNX backends each text is encoded alone
    (:func:`~pyterrier_rag_axioms.tools.embeddings.similarity.batch_independent_similarity`), so a
    value never depends on which other texts were encoded with it. Other axioms, and encoders a
    user chose for an axiom, stay as they are (``"torch"``: every axiom as it is).
    """
    if not backend_class(encoder).batch_independent:  # torch: as declared
        return tuple(axioms)
    computed = []
    for axiom in axioms:
        tool = getattr(axiom, "encoder", None)
        if isinstance(tool, SentenceSimilarity) and declares(axiom, "encoder"):
            if same(tool, sentence_similarity(tool.model)):
                axiom = replaced(axiom, encoder=batch_independent_similarity(tool.model, backend=encoder))
        computed.append(axiom)
    return tuple(computed)
