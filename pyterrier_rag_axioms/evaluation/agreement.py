"""How often do axioms agree with human judgments? Agreement tables (the heatmap: :mod:`.plots`).

Given a preference frame with axiom columns and one or more *truth* columns (e.g. the utility
dimensions of :func:`~pyterrier_rag_axioms.judgments.load_crowdrag_judgments`, or an oracle
axiom's column), compare the sign of each axiom preference with the sign of the truth:

- ``pairs``: rows where both the axiom and the truth have a value (not NaN);
- ``decisiveness``: share of those pairs where the axiom prefers one response (non-zero);
- ``concordance_pairs``: pairs where both the axiom and the truth prefer one response;
- ``concordance``: share of those where they prefer the same response (0.5 is chance for an
  axiom that guesses; NaN where there are no such pairs);
- ``accuracy``: share of all pairs where the axiom's preference equals the truth's, ties included.

With ``confidence=0.95``, :func:`agreement` adds ``concordance_low`` and ``concordance_high``: a
percentile bootstrap interval (scipy) that resamples whole topics (``groups``), since the pairs of
one topic share their responses and are not independent.

:func:`calibration` asks how far a probability of preference (e.g. ``PreferenceModel``'s
``<name>_probability``) can be trusted: among the pairs where the model is about 80 % sure, does
it agree with the truth on about 80 %?
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from pyterrier_rag_axioms.evaluation.bootstrap import check_confidence, check_resamples, topic_interval
from pyterrier_rag_axioms.frames import PAIR_COLUMNS
from pyterrier_rag_axioms.judgments.crowdrag import CROWDRAG_DIMENSIONS, JUDGMENT_COLUMNS

#: The columns of :func:`agreement`.
AGREEMENT_COLUMNS: list[str] = [
    "axiom", "truth", "pairs", "decisiveness", "concordance_pairs", "concordance", "accuracy",
]

#: The columns of :func:`calibration`.
CALIBRATION_COLUMNS: list[str] = ["confidence_low", "confidence_high", "mean_confidence", "pairs", "concordance"]

#: The measures :func:`agreement_by_dimension` can tabulate.
MEASURES: tuple[str, ...] = ("concordance", "accuracy", "decisiveness", "pairs", "concordance_pairs")


AxiomLike = Any  # a preference column name, or an object with a ``name`` (an axiom or combinator)


def column_name(axiom: AxiomLike, *, caller: str = "agreement") -> str:
    """The preference column of ``axiom``: itself if a string, else its ``name``."""
    if isinstance(axiom, str):
        return axiom
    name = getattr(axiom, "name", None)
    if not isinstance(name, str):
        raise TypeError(f"{caller}: an axiom must be a column name or have a 'name', not {axiom!r}")
    return name


def _preference_values(preferences: pd.DataFrame, column: str, role: str, *, caller: str = "agreement") -> np.ndarray:
    """The numbers of a column as floats, with a clear error where it is missing or not numeric."""
    if column not in preferences.columns:
        raise ValueError(
            f"{caller}: the {role} column {column!r} is not in the preference frame "
            f"(its columns: {', '.join(map(str, preferences.columns))})"
        )
    values = preferences[column]
    if not (pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values)):
        raise TypeError(f"{caller}: the {role} column {column!r} must hold numbers, not {values.dtype}")
    return values.to_numpy(dtype=float)


def _truth(
    preferences: pd.DataFrame, truth: str | pd.Series | np.ndarray, *, caller: str
) -> tuple[str, np.ndarray]:
    """The truth's name and values, from its column name or its values (one per row)."""
    if isinstance(truth, str):
        return truth, _preference_values(preferences, truth, "truth", caller=caller)
    if isinstance(truth, pd.Series) and not truth.index.equals(preferences.index):
        if not (truth.index.is_unique and truth.index.sort_values().equals(preferences.index.sort_values())):
            raise ValueError(
                f"{caller}: the truth Series' index differs from the preference frame's; give a Series with "
                "the frame's index (it is matched by index), or the values in row order as an array"
            )
        truth = truth.reindex(preferences.index)
    values = np.asarray(truth, dtype=float)
    if values.shape != (len(preferences),):
        raise ValueError(
            f"{caller}: truth has {values.shape[0] if values.ndim else 0} values for {len(preferences)} preference rows"
        )
    return str(getattr(truth, "name", None) or "truth"), values


def preference_columns(preferences: pd.DataFrame, *, exclude: Sequence[str] = ()) -> list[str]:
    """The columns of a preference frame that hold axiom preferences.

    These are the float columns, besides the pair columns, the CrowdRAG-25 judgment columns and
    ``exclude``, whose values are all -1, 0, 1 or NaN.
    """
    skipped = {*PAIR_COLUMNS, *JUDGMENT_COLUMNS, *exclude}
    columns = []
    for column in preferences.columns:
        if column in skipped or not pd.api.types.is_float_dtype(preferences[column]):
            continue
        values = preferences[column].to_numpy(dtype=float)
        values = values[~np.isnan(values)]
        if np.isin(values, (-1.0, 0.0, 1.0)).all():
            columns.append(column)
    return columns


def _compared(axiom: np.ndarray, truth: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per row: whether both values are known, the axiom decides, both decide, and their signs are equal."""
    known = ~np.isnan(axiom) & ~np.isnan(truth)
    axiom_sign, truth_sign = np.sign(axiom), np.sign(truth)
    decisive = known & (axiom_sign != 0)
    return known, decisive, decisive & (truth_sign != 0), known & (axiom_sign == truth_sign)


def _agreement_row(axiom: np.ndarray, truth: np.ndarray) -> dict[str, float | int]:
    known, decisive, both, equal = _compared(axiom, truth)
    pairs = int(known.sum())
    return {
        "pairs": pairs,
        "decisiveness": float(decisive[known].mean()) if pairs else np.nan,
        "concordance_pairs": int(both.sum()),
        "concordance": float(equal[both].mean()) if both.any() else np.nan,
        "accuracy": float(equal[known].mean()) if pairs else np.nan,
    }


def _concordance_interval(
    axiom: np.ndarray, truth: np.ndarray, groups: np.ndarray, *, confidence: float, resamples: int, seed: int
) -> tuple[float, float]:
    """A percentile bootstrap interval of the concordance that resamples whole groups (topics)."""
    _, _, both, equal = _compared(axiom, truth)
    counts = pd.DataFrame({"group": groups[both], "agree": equal[both]}).groupby("group")["agree"].agg(["sum", "size"])
    agreeing, decided = counts["sum"].to_numpy(dtype=float), counts["size"].to_numpy(dtype=float)

    def ratio(topics: np.ndarray, axis: int = -1) -> np.ndarray:
        return agreeing[topics].sum(axis=axis) / decided[topics].sum(axis=axis)

    return topic_interval(ratio, len(counts), confidence=confidence, resamples=resamples, seed=seed, vectorized=True)


def agreement(
    preferences: pd.DataFrame,
    *,
    truth: str | pd.Series | np.ndarray,
    axioms: Sequence[AxiomLike] | None = None,
    confidence: float | None = None,
    groups: str = "qid",
    resamples: int = 1000,
    seed: int = 0,
) -> pd.DataFrame:
    """How often each axiom agrees with the truth: one row per axiom (see the module documentation).

    Only signs matter, so aggregated preferences (e.g. a weighted sum) can be compared as well.

    Args:
        preferences: a preference frame with the axiom columns (and the truth column).
        truth: the truth's column name, or its values (one per row of ``preferences``).
        axioms: the axioms' column names, or axioms (their ``name`` is used). Default: every
            preference column (:func:`preference_columns`) besides the truth.
        confidence: where given (e.g. ``0.95``), add the bootstrap interval of the concordance at
            this level, resampling whole ``groups`` (NaN with fewer than two groups that decide).
        groups: the column of the topics that the bootstrap resamples (default ``"qid"``).
        resamples: the number of bootstrap resamples (default 1000).
        seed: the seed of the resampling (the same seed, the same interval).

    Returns:
        A frame with the columns ``axiom``, ``truth``, ``pairs``, ``decisiveness``,
        ``concordance_pairs``, ``concordance`` and ``accuracy`` (and, with ``confidence``,
        ``concordance_low`` and ``concordance_high``).

    Raises:
        ValueError: a named column is missing, or the truth values do not match the rows.
        TypeError: a column does not hold numbers.
    """
    truth_name, truth_values = _truth(preferences, truth, caller="agreement")
    names = (
        preference_columns(preferences, exclude=[truth_name])
        if axioms is None
        else [column_name(axiom) for axiom in axioms]
    )
    if confidence is not None:
        check_confidence(confidence, caller="agreement")
        check_resamples(resamples, caller="agreement")
        if groups not in preferences.columns:
            raise ValueError(
                f"agreement: the group column {groups!r} (for the bootstrap) is not in the preference frame"
            )
        group_values = preferences[groups].astype(str).to_numpy()
    rows = []
    for name in names:
        values = _preference_values(preferences, name, "axiom")
        row = {"axiom": name, "truth": truth_name, **_agreement_row(values, truth_values)}
        if confidence is not None:
            row["concordance_low"], row["concordance_high"] = _concordance_interval(
                values, truth_values, group_values, confidence=confidence, resamples=resamples, seed=seed
            )
        rows.append(row)
    columns = AGREEMENT_COLUMNS if confidence is None else [*AGREEMENT_COLUMNS, "concordance_low", "concordance_high"]
    return pd.DataFrame(rows, columns=columns).astype({"pairs": int, "concordance_pairs": int})


def calibration(
    preferences: pd.DataFrame,
    *,
    truth: str | pd.Series | np.ndarray,
    probability: str = "PreferenceModel_probability",
    bins: int = 5,
) -> pd.DataFrame:
    """How often a probability of preference is right, by how sure it is (a reliability table).

    The model's confidence in a pair is ``max(p, 1 - p)`` for its probability ``p`` that response a
    is better; it is right where the truth prefers the response it favours. The pairs where the
    truth prefers one response and the model does not sit at exactly 1/2 are split into ``bins``
    groups of (nearly) equal size by confidence (between quantiles, as pandas' ``qcut`` draws
    them; fewer groups where many confidences are equal). A well-calibrated model's
    ``concordance`` in each row is close to its ``mean_confidence``; a lower one means it is
    surer than it should be. The rows also show what ``min_confidence`` buys: a model with
    ``min_confidence=c`` decides the pairs of confidence above ``1/2 + c``.

    Args:
        preferences: a preference frame with the probability column (and the truth column).
        truth: the truth's column name, or its values (one per row of ``preferences``).
        probability: the column of probabilities that response a is better (default
            ``"PreferenceModel_probability"``).
        bins: the number of groups (at least 1).

    Returns:
        A frame, one row per group from the least to the most confident, with the columns
        ``confidence_low`` and ``confidence_high`` (the group's bounds), ``mean_confidence``,
        ``pairs`` and ``concordance`` (the share of its pairs where the model favours the response
        the truth prefers). Empty where no pair is decided by both.

    Raises:
        ValueError: a named column is missing, a probability lies outside [0, 1], ``bins`` < 1, or
            the truth values do not match the rows.
        TypeError: a column does not hold numbers.
    """
    if isinstance(bins, bool) or not isinstance(bins, (int, np.integer)) or bins < 1:
        raise ValueError(f"calibration: bins must be an integer >= 1, not {bins!r}")
    _, truth_values = _truth(preferences, truth, caller="calibration")
    probabilities = _preference_values(preferences, probability, "probability", caller="calibration")
    outside = np.flatnonzero((probabilities < 0) | (probabilities > 1))
    if outside.size:
        raise ValueError(
            f"calibration: the probability column {probability!r} holds {float(probabilities[outside[0]])!r} "
            f"in row {outside[0] + 1}; probabilities lie in [0, 1]"
        )
    # the model prefers a where p > 1/2: compared with the truth as agreement compares an axiom
    _, _, decided, right = _compared(probabilities - 0.5, truth_values)
    if not decided.any():
        return pd.DataFrame(
            {column: pd.Series(dtype=int if column == "pairs" else float) for column in CALIBRATION_COLUMNS}
        )
    pairs = pd.DataFrame({
        # rounded, so that p and 1 - p (0.82 and 0.18) give one confidence despite floating point
        "confidence": np.round(np.maximum(probabilities[decided], 1.0 - probabilities[decided]), 12),
        "right": right[decided],
    })
    # right-closed groups between the inner quantiles, as pandas' qcut draws them; equal quantiles
    # merge, and a confidence shared by many pairs ends a group rather than swallowing the next one
    inner_bounds = np.unique(np.quantile(pairs["confidence"], np.linspace(0.0, 1.0, bins + 1)[1:-1]))
    groups = np.searchsorted(inner_bounds, pairs["confidence"], side="left")
    table = pairs.groupby(groups).agg(
        confidence_low=("confidence", "min"),
        confidence_high=("confidence", "max"),
        mean_confidence=("confidence", "mean"),
        pairs=("right", "size"),
        concordance=("right", "mean"),
    )
    return table.reset_index(drop=True)[CALIBRATION_COLUMNS]


def agreement_by_dimension(
    preferences: pd.DataFrame,
    *,
    truths: Sequence[str] | None = None,
    axioms: Sequence[AxiomLike] | None = None,
    measure: str = "concordance",
) -> pd.DataFrame:
    """One agreement measure of each axiom (rows) with each of several truths (columns).

    Args:
        preferences: a preference frame with axiom and truth columns.
        truths: the truth columns (default: the CrowdRAG-25 utility dimensions present).
        axioms: the axioms' column names or the axioms (default: every preference column besides
            the truths).
        measure: one of :data:`MEASURES`.

    Returns:
        A frame indexed by axiom with one column per truth.
    """
    if measure not in MEASURES:
        raise ValueError(
            f"agreement_by_dimension: measure must be one of {', '.join(map(repr, MEASURES))}, not {measure!r}"
        )
    if truths is None:
        truths = [dimension for dimension in CROWDRAG_DIMENSIONS if dimension in preferences.columns]
        if not truths:
            raise ValueError("agreement_by_dimension: no truth columns given and no CrowdRAG-25 dimension found")
    truths = list(truths)
    names = (
        preference_columns(preferences, exclude=truths)
        if axioms is None
        else [column_name(axiom) for axiom in axioms]
    )
    table = pd.DataFrame(index=pd.Index(names, name="axiom"), columns=pd.Index(truths, name="truth"), dtype=float)
    for truth in truths:
        rows = agreement(preferences, truth=truth, axioms=names)
        table[truth] = rows.set_index("axiom")[measure].astype(float)
    return table
