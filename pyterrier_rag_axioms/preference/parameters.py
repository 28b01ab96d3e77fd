"""How a :class:`~pyterrier_rag_axioms.preference.PreferenceModel` checks and stores its declared
parameters: one resolver per parameter that the declaration's bounds cannot describe."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from pyterrier_rag_axioms.axioms import FeatureAxiom
from pyterrier_rag_axioms.preference._view import ModelView
from pyterrier_rag_axioms.preference.features import _resolve_feature


def features(model: ModelView, axioms: Sequence[FeatureAxiom | str]) -> tuple[FeatureAxiom, ...]:
    kind = model.short_name
    features = tuple(_resolve_feature(axiom, kind) for axiom in axioms)
    if not features:
        raise ValueError(f"{kind}: needs at least one feature axiom")
    names = [feature.name for feature in features]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(f"{kind}: feature axioms must have distinct names, but {duplicates} occur more than once")
    return features


def per_feature(what: str, *, positive: bool, default: float | None = None):
    """A resolver of one finite number per feature axiom (``None``: ``default`` each, or no numbers)."""

    def resolve(model: ModelView, numbers: Sequence[float] | None) -> tuple[float, ...] | None:
        if numbers is None:
            return None if default is None else (default,) * len(model.axioms)
        array = np.asarray(list(numbers), dtype=float)
        if array.shape != (len(model.axioms),):
            raise ValueError(f"{model.short_name}: got {array.size} {what} for {len(model.axioms)} feature axioms")
        if not np.isfinite(array).all() or (positive and not (array > 0).all()):
            raise ValueError(f"{model.short_name}: {what} must be finite{' and positive' if positive else ''}")
        return tuple(float(number) for number in array)

    return resolve


def regularization(model: ModelView, regularization: float) -> float:
    if not (isinstance(regularization, int | float) and regularization > 0 and math.isfinite(regularization)):
        raise ValueError(f"{model.short_name}: regularization must be a positive number, not {regularization!r}")
    return float(regularization)


def min_confidence(model: ModelView, min_confidence: float) -> float:
    if not (isinstance(min_confidence, int | float) and 0.0 <= min_confidence < 0.5):
        raise ValueError(f"{model.short_name}: min_confidence must lie in [0, 0.5), not {min_confidence!r}")
    return float(min_confidence)


def listed(numbers: Sequence[float] | None) -> list[float] | None:
    return None if numbers is None else list(numbers)


def term_weight(name: str):
    """The resolver of the weight of a log-odds term (``reference_weight``, ``grounding_weight``): the
    weight as a float; the declared bound has refused a bool, a non-number, a negative number and NaN."""

    def resolve(model: ModelView, weight: float) -> float:
        if not math.isfinite(weight):
            raise ValueError(f"{model.short_name}: {name} must be a finite number >= 0, not {weight!r}")
        return float(weight)

    return resolve


reference_weight = term_weight("reference_weight")
