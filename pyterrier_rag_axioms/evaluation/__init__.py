"""Evaluation of axioms and rankings: agreement with judgments, run-level win rates and Kendall's
tau, the topic bootstrap, and plots; no loaders of judgments (see ``judgments/``) and no axioms."""

from pyterrier_rag_axioms.evaluation.agreement import (
    AGREEMENT_COLUMNS,
    CALIBRATION_COLUMNS,
    MEASURES,
    agreement,
    agreement_by_dimension,
    calibration,
    column_name,
    preference_columns,
)
from pyterrier_rag_axioms.evaluation.correlation import projected_run_correlation, run_correlation
from pyterrier_rag_axioms.evaluation.plots import plot_agreement, plot_run_rankings, side_by_side
from pyterrier_rag_axioms.evaluation.runs import (
    WIN_RATE_COLUMNS,
    mean_run_scores,
    mean_win_rates,
    run_scores,
    run_win_rates,
    win_rates,
)

__all__ = [
    "AGREEMENT_COLUMNS", "CALIBRATION_COLUMNS", "MEASURES", "WIN_RATE_COLUMNS", "agreement", "agreement_by_dimension",
    "calibration", "column_name", "mean_run_scores", "mean_win_rates", "plot_agreement", "plot_run_rankings",
    "preference_columns", "projected_run_correlation", "run_correlation", "run_scores", "run_win_rates", "side_by_side",
    "win_rates",
]
