"""The fit behind :meth:`~pyterrier_rag_axioms.preference.PreferenceModel.fit`: scales and weights of an
L2-regularised logistic regression without intercept, as a pure function of the difference rows."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def fit_logistic(
    differences: np.ndarray,
    signs: np.ndarray,
    sample: np.ndarray,
    *,
    regularization: float,
    bounds: Sequence[tuple[float | None, float | None]] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Fit scales (root mean square difference) and weights to difference rows and truth signs.

    L2-regularised logistic regression without intercept on both orientations of every pair,
    minimising ``|w|^2 / 2 + C * sum(sample * log(1 + exp(-label * x.w)))`` (scikit-learn's
    objective) with scipy's L-BFGS-B, which also takes the bounds of ``follow_directions``
    (scikit-learn's ``LogisticRegression`` takes none).

    Returns:
        The scales and the weights, one per feature.
    """
    from scipy.optimize import minimize
    from scipy.special import expit

    scales = np.sqrt(np.mean(differences**2, axis=0))
    scales = np.where(scales > 0, scales, 1.0)
    standardised = differences / scales
    features = np.vstack([standardised, -standardised])  # both orientations of every pair
    labels = np.concatenate([np.sign(signs), -np.sign(signs)])
    weights = np.concatenate([sample, sample]) * regularization

    def objective(coefficients: np.ndarray) -> tuple[float, np.ndarray]:
        margins = labels * (features @ coefficients)
        loss = 0.5 * coefficients @ coefficients + weights @ np.logaddexp(0.0, -margins)
        gradient = coefficients - features.T @ (weights * labels * expit(-margins))
        return float(loss), gradient

    start = np.zeros(differences.shape[1])
    result = minimize(objective, start, jac=True, method="L-BFGS-B", bounds=bounds, options={"maxiter": 1000})
    return scales, result.x
