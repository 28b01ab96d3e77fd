"""The fitted decision of the nugget assigner: a logistic regression over the pair features and two thresholds.

The probability that an answer supports a nugget (fully or partly) is a logistic function of the
standardised features of :data:`~pyterrier_rag_axioms.nuggets._features.FEATURES`. An assignment is
``support`` from the support threshold up, ``partial_support`` from the partial threshold up, and
``not_support`` below. The shipped model (``nugget-model.json``) was fitted on the TREC 2024 RAG
development assignments with all-MiniLM-L6-v2 embeddings; :func:`fit_nugget_model` fits another one
(inverse regularisation strength and thresholds chosen by leave-one-topic-out cross-validation).
A model records the range of its length feature over the pairs it was fitted on (``ranges``) and
clips that feature to it, so a length never seen in fitting is read as the nearest one seen, and
the encoder it was fitted on (``encoder``; files of earlier versions name it ``embedder``, and still load).
Fitting needs scikit-learn; applying a model needs numpy only.
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pyterrier_rag_axioms.declaration import DECISION, REQUIRED, declared, declared_repr, parameter, parameters
from pyterrier_rag_axioms.io import atomic_write_text, strict_json
from pyterrier_rag_axioms.nuggets._features import FEATURES, LENGTH_FEATURES
from pyterrier_rag_axioms.tools.embeddings.naming import (
    DEFAULT_ENCODER_NAME,
    check_fitted_encoder,
    recorded_encoder_name,
)

#: The assignments, from most to least support.
ASSIGNMENTS: tuple[str, ...] = ("support", "partial_support", "not_support")
#: The inverse L2 regularisation strengths tried by :func:`fit_nugget_model`.
DEFAULT_CS: tuple[float, ...] = (0.1, 1.0, 10.0)
#: The file of the shipped model, in the package's ``nuggets`` directory.
DEFAULT_MODEL_FILE = "nugget-model.json"


#: The fields that a file written before they existed lacks (their defaults apply).
ADDED_FIELDS: tuple[str, ...] = ("ranges",)
#: The fields of files of earlier versions under their names there: ``{old: field}``.
RENAMED_FIELDS: dict[str, str] = {"embedder": "encoder"}

#: The encoder the shipped model was fitted on, as
#: :func:`~pyterrier_rag_axioms.tools.embeddings.naming.encoder_name` names it.
DEFAULT_ENCODER = DEFAULT_ENCODER_NAME


def _number(value: object, name: str) -> float:
    """A finite real number, else a ``ValueError`` naming the field."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a number, not {type(value).__name__} {str(value)[:40]!r}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite number, not {str(value)[:40]}")
    return number


def _checked(values: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of a model, checked and normalised (tuples of floats); a ``ValueError`` names the first problem."""
    features = values["features"]
    if isinstance(features, str) or not isinstance(features, (list, tuple)):
        raise ValueError(f"features must be a list of feature names, not {type(features).__name__}")
    if not features:
        raise ValueError(f"features is empty; a model needs at least one of {', '.join(FEATURES)}")
    for name in features:
        if name not in FEATURES:
            raise ValueError(f"unknown feature {str(name)[:40]!r}; known: {', '.join(FEATURES)}")
    if len(set(features)) != len(features):
        raise ValueError("features names a feature twice")
    checked: dict[str, Any] = {"features": tuple(features)}
    for field in ("means", "scales", "weights"):
        items = values[field]
        if isinstance(items, str) or not isinstance(items, (list, tuple, np.ndarray)):
            raise ValueError(f"{field} must be a list of numbers, one per feature, not {type(items).__name__}")
        if len(items) != len(features):
            raise ValueError(f"{field} has {len(items)} entries, but features has {len(features)}; one per feature")
        checked[field] = tuple(_number(item, f"{field}[{position}]") for position, item in enumerate(items))
    for position, scale in enumerate(checked["scales"]):
        if scale <= 0:
            raise ValueError(f"scales[{position}] must be > 0 (it divides the feature), not {scale}")
    for field in ("intercept", "partial_threshold", "support_threshold"):
        checked[field] = _number(values[field], field)
    if not 0.0 <= checked["partial_threshold"] <= checked["support_threshold"] <= 1.0:
        raise ValueError("needs 0 <= partial_threshold <= support_threshold <= 1")
    encoder = values["encoder"]
    if not isinstance(encoder, str) or not encoder.strip():
        raise ValueError(f"encoder must name a sentence encoder, not {encoder!r}")
    checked["encoder"] = recorded_encoder_name(encoder)
    checked["ranges"] = _checked_ranges(values.get("ranges", ()), checked["features"])
    return checked


def _checked_ranges(ranges: object, features: tuple[str, ...]) -> tuple[tuple[str, float, float], ...]:
    """The fitted ranges of some features, as ``(name, low, high)`` in the order of ``features``."""
    if isinstance(ranges, str) or not isinstance(ranges, (list, tuple)):
        raise ValueError(f"ranges must be a list of [feature, low, high], not {type(ranges).__name__}")
    read: dict[str, tuple[str, float, float]] = {}
    for position, item in enumerate(ranges):
        if isinstance(item, str) or not isinstance(item, (list, tuple)) or len(item) != 3:
            raise ValueError(f"ranges[{position}] must be [feature, low, high], not {str(item)[:40]!r}")
        name = item[0]
        if name not in features:
            raise ValueError(f"ranges[{position}] names {str(name)[:40]!r}, which is not among the model's features")
        if name in read:
            raise ValueError(f"ranges names {name!r} twice")
        low, high = _number(item[1], f"ranges[{position}] low"), _number(item[2], f"ranges[{position}] high")
        if low > high:
            raise ValueError(f"ranges[{position}]: low {low} is above high {high}")
        read[name] = (name, low, high)
    return tuple(read[name] for name in features if name in read)


@parameters(frozen=True, eq=True)
class NuggetModel:
    """A logistic regression over standardised pair features, and the thresholds of the assignments.

    Every field is checked on construction: one known feature name at least, no name twice, one
    finite mean, scale (> 0) and weight per feature, a finite intercept, thresholds with
    ``0 <= partial <= support <= 1``, and the name of the encoder (``encoder``). A model is
    a value: its fields are fixed, two models with equal fields are equal, and its ``repr``
    evaluates back into it. Its fields are declared once (:mod:`~pyterrier_rag_axioms.declaration`):
    the constructor, ``repr``, :meth:`save` and :meth:`load` read that one list.
    """

    #: The features the regression weighs, by name (of :data:`FEATURES`).
    features: tuple[str, ...] = parameter(REQUIRED)
    #: The mean of each feature, subtracted before the regression.
    means: tuple[float, ...] = parameter(REQUIRED)
    #: The scale (> 0) of each feature, dividing it before the regression.
    scales: tuple[float, ...] = parameter(REQUIRED)
    #: The weight of each standardised feature.
    weights: tuple[float, ...] = parameter(REQUIRED)
    #: The intercept of the regression.
    intercept: float = parameter(REQUIRED)
    #: Probabilities from here up assign ``partial_support`` (or ``support``).
    partial_threshold: float = parameter(REQUIRED, role=DECISION)
    #: Probabilities from here up assign ``support``.
    support_threshold: float = parameter(REQUIRED, role=DECISION)
    #: The encoder whose embeddings the model was fitted on, by
    #: :func:`~pyterrier_rag_axioms.tools.embeddings.naming.encoder_name` (``"all-MiniLM-L6-v2"``,
    #: ``"all-MiniLM-L6-v2:static"``).
    encoder: str = parameter(DEFAULT_ENCODER)
    #: ``(feature, low, high)``: the range of a length feature
    #: (:data:`~pyterrier_rag_axioms.nuggets._features.LENGTH_FEATURES`) over the pairs the model was
    #: fitted on; a value beyond it is clipped to it (an older file without ranges clips nothing).
    ranges: tuple[tuple[str, float, float], ...] = parameter(())

    def __post_init__(self) -> None:
        try:
            checked = _checked({field.name: getattr(self, field.name) for field in declared(self)})
        except ValueError as error:
            raise ValueError(f"NuggetModel: {error}") from None
        for field, value in checked.items():
            object.__setattr__(self, field, value)  # frozen: normalised once, here

    __repr__ = declared_repr

    def probability(self, features: np.ndarray) -> np.ndarray:
        """The probability of (at least partial) support of each row of a matrix over :data:`FEATURES`."""
        columns = [FEATURES.index(name) for name in self.features]
        values = np.asarray(features, dtype=float)[:, columns]
        for name, low, high in self.ranges:  # a length beyond those fitted on reads as the nearest fitted one
            column = self.features.index(name)
            values[:, column] = np.clip(values[:, column], low, high)
        values = (values - np.array(self.means)) / np.array(self.scales)
        from scipy.special import expit  # the logistic function, without overflow

        return expit(values @ np.array(self.weights) + self.intercept)

    def assign(self, probability: np.ndarray) -> np.ndarray:
        """The assignment of each probability."""
        probability = np.asarray(probability, dtype=float)
        return np.where(
            probability >= self.support_threshold,
            "support",
            np.where(probability >= self.partial_threshold, "partial_support", "not_support"),
        ).astype(object)

    def check_encoder(self, encoder: object, source: str = "the nugget model") -> None:
        """Refuse an encoder other than the one the model was fitted on (see
        :func:`~pyterrier_rag_axioms.tools.embeddings.naming.check_fitted_encoder`).

        Raises:
            ValueError: the names differ; the message names ``source`` and both encoders.
        """
        check_fitted_encoder(self.encoder, encoder, source, refit="fit_nugget_model(..., encoder={encoder})")

    def save(self, path: str | Path) -> None:
        """Write the model as JSON, atomically (see :func:`~pyterrier_rag_axioms.io.atomic_write`).

        Raises:
            ValueError: a number is not finite (JSON has no NaN); nothing is written.
        """
        values = {field.name: getattr(self, field.name) for field in declared(self)}
        values = {field: list(value) if isinstance(value, tuple) else value for field, value in values.items()}
        try:
            text = json.dumps(values, indent=2, allow_nan=False) + "\n"
        except ValueError:
            raise ValueError(f"{path}: NuggetModel.save: a number of the model is not finite; nothing written") \
                from None
        atomic_write_text(Path(path), text)

    @classmethod
    def load(cls, path: str | Path) -> NuggetModel:
        """Read a model written by :meth:`save`, strictly (see :mod:`pyterrier_rag_axioms.io.strict_json`).

        Raises:
            FileNotFoundError: no such file.
            ValueError: the file is not strict JSON, not an object with exactly the fields of a
                model, or a field is malformed (see :class:`NuggetModel`); one line naming the file.
        """
        values = strict_json.load_file(path)
        fields = [field.name for field in declared(cls)]  # the declared parameters, in the order save writes them
        if not isinstance(values, dict):
            raise ValueError(
                f"{path}: not a nugget model: expected a JSON object with {', '.join(fields)}, found "
                f"{type(values).__name__}"
            )
        for old, field in RENAMED_FIELDS.items():  # a file of an earlier version
            if old in values and field not in values:
                values = {field if key == old else key: value for key, value in values.items()}
        unknown = [key for key in values if key not in fields]
        missing = [field for field in fields if field not in values and field not in ADDED_FIELDS]
        if unknown or missing:
            problem = f"unknown field {unknown[0][:40]!r}" if unknown else f"field {missing[0]!r} is missing"
            raise ValueError(f"{path}: not a nugget model: {problem}; a model has {', '.join(fields)}")
        try:
            return cls(**_checked(values))
        except ValueError as error:
            raise ValueError(f"{path}: not a nugget model: {error}") from None

    @classmethod
    def default(cls) -> NuggetModel:
        """The shipped model, fitted on the TREC 2024 RAG development assignments."""
        with resources.as_file(resources.files("pyterrier_rag_axioms.nuggets") / DEFAULT_MODEL_FILE) as path:
            return cls.load(path)


def resolve_nugget_model(model: NuggetModel | str | Path | None) -> NuggetModel:
    """A model from itself, the path of a JSON file, or ``None`` for the shipped one."""
    if model is None:
        return NuggetModel.default()
    if isinstance(model, NuggetModel):
        return model
    return NuggetModel.load(model)


def _supported(labels: Sequence[str]) -> np.ndarray:
    return np.asarray([label != "not_support" for label in labels], dtype=int)


def _thresholds(probability: np.ndarray, labels: np.ndarray) -> tuple[float, float, float]:
    """The partial threshold with the best Cohen's kappa of support-or-partial vs not, then the support
    threshold with the best three-way kappa; returns (binary kappa, partial, support)."""
    from sklearn.metrics import cohen_kappa_score

    grid = np.round(np.arange(0.05, 0.96, 0.01), 2)
    supported = labels != "not_support"
    binary = [(cohen_kappa_score(supported, probability >= t), -abs(t - 0.5), t) for t in grid]
    kappa, _, partial = max(binary)
    three_way = []
    for t in grid[grid >= partial]:
        assigned = np.where(probability >= t, "support", np.where(probability >= partial, "partial_support",
                                                                   "not_support"))
        three_way.append((cohen_kappa_score(labels, assigned), t))
    _, support = max(three_way)
    return float(kappa), float(partial), float(support)


def _fitted(features: np.ndarray, supported: np.ndarray, c: float):
    from sklearn.linear_model import LogisticRegression

    means = features.mean(axis=0)
    scales = np.where(features.std(axis=0) > 0, features.std(axis=0), 1.0)
    regression = LogisticRegression(C=c, max_iter=5000).fit((features - means) / scales, supported)
    return means, scales, regression


def fit_nugget_model(
    features: pd.DataFrame, labels: Sequence[str], topics: Sequence[str], *, cs: Sequence[float] = DEFAULT_CS,
    encoder: str = DEFAULT_ENCODER,
    **renamed: str,
) -> NuggetModel:
    """Fit a :class:`NuggetModel` on human assignments.

    The regularisation strength and both thresholds are chosen by leave-one-topic-out
    cross-validation over ``topics`` (each topic's pairs predicted by a model fitted on the other
    topics; the strength with the best binary kappa wins); the final regression is then fitted on
    all pairs. With a single topic there is nothing to cross-validate over: the middle strength is
    taken and the thresholds are chosen on the training pairs.

    Args:
        features: one row per pair, one column per feature of :data:`FEATURES`.
        labels: the human assignment of each pair (support, partial_support, not_support).
        topics: the topic of each pair.
        cs: the inverse L2 regularisation strengths to try.
        encoder: the name of the encoder of the features
            (:func:`~pyterrier_rag_axioms.tools.embeddings.naming.encoder_name`); ``embedder=``, its
            name before, still works in this release, with a ``DeprecationWarning``.
    """
    if set(renamed) - {"embedder"}:
        raise TypeError(f"fit_nugget_model has no argument {sorted(set(renamed))[0]!r}")
    if renamed:
        warnings.warn("fit_nugget_model: embedder= is now called encoder=", DeprecationWarning, stacklevel=2)
        encoder = renamed["embedder"]
    missing = [name for name in FEATURES if name not in features.columns]
    if missing:
        raise ValueError(f"fit_nugget_model: features has no column {missing[0]!r}; needs {', '.join(FEATURES)}")
    matrix = features[list(FEATURES)].to_numpy(dtype=float)
    labels = np.asarray(list(labels), dtype=object)
    topics = np.asarray(list(topics), dtype=object)
    if not len(matrix) == len(labels) == len(topics):
        raise ValueError(
            f"fit_nugget_model: {len(matrix)} rows of features, {len(labels)} labels and {len(topics)} topics; "
            "give one label and one topic per row"
        )
    unknown = [position for position, label in enumerate(labels) if label not in ASSIGNMENTS]
    if unknown:
        raise ValueError(
            f"fit_nugget_model: label {labels[unknown[0]]!r} (position {unknown[0]}) is none of "
            f"{', '.join(map(repr, ASSIGNMENTS))}"
        )
    if not np.isfinite(matrix).all():
        row = int(np.flatnonzero(~np.isfinite(matrix).all(axis=1))[0])
        raise ValueError(f"fit_nugget_model: features row {row} holds a value that is not a finite number")
    supported = _supported(labels)
    if not len(set(topics)):
        raise ValueError("fit_nugget_model: no pairs to fit on")
    if len(set(topics)) == 1:  # nothing to cross-validate over: the middle strength, thresholds in sample
        c = sorted(cs)[len(cs) // 2]
        means, scales, regression = _fitted(matrix, supported, c)
        probability = regression.predict_proba((matrix - means) / scales)[:, 1]
        return _model(means, scales, regression, *_thresholds(probability, labels)[1:], encoder, matrix)
    best = None
    for c in cs:
        probability = np.zeros(len(matrix))
        for topic in sorted(set(topics)):
            held_out = topics == topic
            means, scales, regression = _fitted(matrix[~held_out], supported[~held_out], c)
            probability[held_out] = regression.predict_proba((matrix[held_out] - means) / scales)[:, 1]
        kappa, partial, support = _thresholds(probability, labels)
        if best is None or kappa > best[0]:
            best = (kappa, c, partial, support)
    _, c, partial, support = best
    means, scales, regression = _fitted(matrix, supported, c)
    return _model(means, scales, regression, partial, support, encoder, matrix)


def fitted_ranges(matrix: np.ndarray) -> tuple[tuple[str, float, float], ...]:
    """The range of each length feature over the rows of a feature matrix (one column per :data:`FEATURES`)."""
    return tuple((name, float(matrix[:, FEATURES.index(name)].min()), float(matrix[:, FEATURES.index(name)].max()))
                 for name in LENGTH_FEATURES)


def _model(means, scales, regression, partial: float, support: float, encoder: str, matrix) -> NuggetModel:
    return NuggetModel(
        features=FEATURES,
        means=tuple(float(value) for value in means),
        scales=tuple(float(value) for value in scales),
        weights=tuple(float(value) for value in regression.coef_[0]),
        intercept=float(regression.intercept_[0]),
        partial_threshold=partial,
        support_threshold=support,
        encoder=encoder,
        ranges=fitted_ranges(matrix),
    )
