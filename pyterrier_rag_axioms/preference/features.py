"""The feature axioms of a :class:`~pyterrier_rag_axioms.preference.model.PreferenceModel`: resolving
them by name and transforming their values."""

from __future__ import annotations

from typing import Literal

import numpy as np

from pyterrier_rag_axioms.axioms import Axiom, FeatureAxiom
from pyterrier_rag_axioms.registry import AXIOMS

Transform = Literal["signed_log1p", "identity"]
TRANSFORMS: tuple[str, ...] = ("signed_log1p", "identity")


def _transformed(values: np.ndarray, transform: str) -> np.ndarray:
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
