"""Bootstrap intervals that resample whole topics (scipy), for agreement and run-level figures.

The pairs (or responses) of one topic share their texts, so they are not independent draws:
an interval that resampled them one by one would be too narrow. Both
:func:`~pyterrier_rag_axioms.evaluation.agreement.agreement` and
:func:`~pyterrier_rag_axioms.evaluation.correlation.run_correlation` therefore resample topics, through one rule here.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np


def check_confidence(confidence: object, *, caller: str) -> None:
    """Raise a ValueError unless ``confidence`` is a number strictly between 0 and 1."""
    if isinstance(confidence, bool) or not (isinstance(confidence, int | float) and 0 < confidence < 1):
        raise ValueError(f"{caller}: confidence must lie in (0, 1), e.g. 0.95, not {confidence!r}")


def check_resamples(resamples: object, *, caller: str) -> None:
    """Raise a ValueError unless ``resamples`` is a whole number >= 1."""
    if isinstance(resamples, bool) or not isinstance(resamples, (int, np.integer)) or resamples < 1:
        raise ValueError(f"{caller}: resamples must be a whole number >= 1, e.g. 1000, not {resamples!r}")


def topic_interval(
    statistic: Callable[..., float | np.ndarray],
    topics: int,
    *,
    confidence: float,
    resamples: int,
    seed: int,
    vectorized: bool = False,
    method: str = "percentile",
) -> tuple[float, float]:
    """A bootstrap interval of ``statistic`` over resampled topics.

    Args:
        statistic: maps an array of topic positions (``0 .. topics - 1``, drawn with replacement)
            to the figure; with ``vectorized``, it takes ``axis`` and a batch of such arrays.
        topics: how many topics there are (NaN bounds with fewer than two).
        confidence: the level of the interval, e.g. 0.95.
        resamples: the number of bootstrap resamples.
        seed: the seed of the resampling (the same seed, the same interval).
        vectorized: whether ``statistic`` handles a batch of resamples at once.
        method: scipy's interval method: ``"percentile"``, or ``"BCa"`` for a statistic that a
            resample is biased for (its bounds are corrected for that bias and for skew).
    """
    from scipy.stats import DegenerateDataWarning, bootstrap

    if topics < 2:
        return float("nan"), float("nan")
    with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
        warnings.simplefilter("ignore", DegenerateDataWarning)  # a constant statistic: handled below
        result = bootstrap(
            (np.arange(topics),),
            statistic,
            vectorized=vectorized,
            confidence_level=confidence,
            n_resamples=resamples,
            method=method,
            random_state=seed,
        )
    distribution = result.bootstrap_distribution
    if np.all(distribution == distribution[0]):  # every resample agrees: the interval is that value
        return float(distribution[0]), float(distribution[0])
    return float(result.confidence_interval.low), float(result.confidence_interval.high)
