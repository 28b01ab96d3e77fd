"""The fitted decision of the nugget assigner: a logistic regression over the pair features and two thresholds.

The probability that an answer supports a nugget (fully or partly) is a logistic function of the
standardised features of :data:`~pyterrier_rag_axioms.nuggets._features.FEATURES`. An assignment is
``support`` from the support threshold up, ``partial_support`` from the partial threshold up, and
``not_support`` below. The shipped model (``nugget-model.json``) was fitted on the TREC 2024 RAG
development assignments with all-MiniLM-L6-v2 embeddings; :func:`fit_nugget_model` fits another one
(inverse regularisation strength and thresholds chosen by leave-one-topic-out cross-validation).
Fitting needs scikit-learn; applying a model needs numpy only.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

from pyterrier_rag_axioms.nuggets._features import FEATURES

#: The assignments, from most to least support.
ASSIGNMENTS: tuple[str, ...] = ("support", "partial_support", "not_support")
#: The inverse L2 regularisation strengths tried by :func:`fit_nugget_model`.
DEFAULT_CS: tuple[float, ...] = (0.1, 1.0, 10.0)
#: The file of the shipped model, in the package's ``nuggets`` directory.
DEFAULT_MODEL_FILE = "nugget-model.json"


@dataclass(frozen=True)
class NuggetModel:
    """A logistic regression over standardised pair features, and the thresholds of the assignments."""

    features: tuple[str, ...]
    means: tuple[float, ...]
    scales: tuple[float, ...]
    weights: tuple[float, ...]
    intercept: float
    #: Probabilities from here up assign ``partial_support`` (or ``support``).
    partial_threshold: float
    #: Probabilities from here up assign ``support``.
    support_threshold: float
    #: The sentence-transformers model whose embeddings the model was fitted on.
    embedder: str = "all-MiniLM-L6-v2"

    def __post_init__(self) -> None:
        sizes = {len(self.features), len(self.means), len(self.scales), len(self.weights)}
        if len(sizes) != 1:
            raise ValueError("NuggetModel: features, means, scales and weights must have one entry per feature")
        unknown = [name for name in self.features if name not in FEATURES]
        if unknown:
            raise ValueError(f"NuggetModel: unknown feature {unknown[0]!r}; known: {', '.join(FEATURES)}")
        if not 0.0 <= self.partial_threshold <= self.support_threshold <= 1.0:
            raise ValueError("NuggetModel: needs 0 <= partial_threshold <= support_threshold <= 1")

    def probability(self, features: np.ndarray) -> np.ndarray:
        """The probability of (at least partial) support of each row of a matrix over :data:`FEATURES`."""
        columns = [FEATURES.index(name) for name in self.features]
        values = (np.asarray(features, dtype=float)[:, columns] - np.array(self.means)) / np.array(self.scales)
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

    def save(self, path: str | Path) -> None:
        """Write the model as JSON."""
        Path(path).write_text(json.dumps(asdict(self), indent=2) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> NuggetModel:
        """Read a model written by :meth:`save`."""
        try:
            values = json.loads(Path(path).read_text(encoding="utf-8"))
            return cls(**{key: tuple(value) if isinstance(value, list) else value for key, value in values.items()})
        except (json.JSONDecodeError, TypeError) as error:
            raise ValueError(f"{path}: not a nugget model ({error})") from None

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
    embedder: str = "all-MiniLM-L6-v2",
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
    """
    matrix = features[list(FEATURES)].to_numpy(dtype=float)
    labels = np.asarray(labels, dtype=object)
    topics = np.asarray(topics, dtype=object)
    supported = _supported(labels)
    if not len(set(topics)):
        raise ValueError("fit_nugget_model: no pairs to fit on")
    if len(set(topics)) == 1:  # nothing to cross-validate over: the middle strength, thresholds in sample
        c = sorted(cs)[len(cs) // 2]
        means, scales, regression = _fitted(matrix, supported, c)
        probability = regression.predict_proba((matrix - means) / scales)[:, 1]
        return _model(means, scales, regression, *_thresholds(probability, labels)[1:], embedder)
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
    return _model(means, scales, regression, partial, support, embedder)


def _model(means, scales, regression, partial: float, support: float, embedder: str) -> NuggetModel:
    return NuggetModel(
        features=FEATURES,
        means=tuple(float(value) for value in means),
        scales=tuple(float(value) for value in scales),
        weights=tuple(float(value) for value in regression.coef_[0]),
        intercept=float(regression.intercept_[0]),
        partial_threshold=partial,
        support_threshold=support,
        embedder=embedder,
    )
