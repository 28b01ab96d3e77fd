"""Two sets of nugget assignments of the same runs compared: per-topic and per-run scores, Kendall's tau.

:func:`per_topic_nugget_scores` scores each answer by every TREC 2024 RAG nugget score (All,
Vital, Weighted, each also strict), :func:`run_nugget_table` averages them per run (the figures of
nuggetizer's scorer, per run), and :func:`compare_nugget_rankings` compares the run rankings of two
assignments (automatic and manual, say): Kendall's tau per score with a topic-bootstrap interval,
and tau within each topic.
"""

from __future__ import annotations

import warnings

import pandas as pd
import pyterrier as pt

#: The nugget score columns: (column, score type, strict), in the order tables show them.
NUGGET_SCORE_COLUMNS: tuple[tuple[str, str, bool], ...] = (
    ("all", "all", False),
    ("vital", "vital", False),
    ("weighted", "weighted", False),
    ("all_strict", "all", True),
    ("vital_strict", "vital", True),
    ("weighted_strict", "weighted", True),
)
#: Below this many topics a bootstrap interval over topics says little: the tables warn.
MIN_INTERVAL_TOPICS = 10


def per_topic_nugget_scores(assignments: pd.DataFrame | str) -> pd.DataFrame:
    """Every nugget score of each answer: ``qid``, ``run`` and one column per :data:`NUGGET_SCORE_COLUMNS`.

    ``assignments`` is anything :func:`~pyterrier_rag_axioms.judgments.nugget_scores` takes: an
    assignment file (nuggetizer's assign format), its frame, or the assigner's rows.
    """
    from pyterrier_rag_axioms.judgments import load_nugget_assignments, nugget_scores

    if isinstance(assignments, str):
        assignments = load_nugget_assignments(assignments)
    table = None
    for column, score_type, strict in NUGGET_SCORE_COLUMNS:
        scores = nugget_scores(assignments, score_type=score_type, strict=strict)
        scores = scores.rename(columns={"docno": "run", "score": column})
        table = scores if table is None else table.assign(**{column: scores[column].to_numpy()})
    return table


def run_nugget_table(per_topic: pd.DataFrame, *, by: str = "all", missing: str = "zero") -> pd.DataFrame:
    """Each run's mean scores over the topics (``run``, ``topics``, the score columns, ``rank``), best first by ``by``.

    Each mean is :func:`~pyterrier_rag_axioms.evaluation.mean_run_scores`'s: a topic that a run is
    not scored on counts 0 (TREC's rule; ``missing="skip"`` leaves it out), and such a run is named
    in one warning; a score no answer of a topic has (Vital on a topic without vital nuggets) leaves
    that topic out for every run. ``topics`` counts the topics of the ``by`` score. Ties share a rank.
    """
    from pyterrier_rag_axioms.evaluation.runs import mean_run_scores

    pt.validate.columns(per_topic, includes=["qid", "run", by], context="run_nugget_table")
    scores = [column for column, _, _ in NUGGET_SCORE_COLUMNS if column in per_topic.columns]
    ranked = mean_run_scores(per_topic, score=by, run="run", missing=missing)  # named here, once
    table = ranked[["run", "topics"]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for column in scores:
            means = mean_run_scores(per_topic, score=column, run="run", missing=missing)
            table = table.merge(means[["run", column]], on="run", how="left")
    table = table.assign(rank=ranked["rank"].to_numpy())
    table.attrs["fewer_topics"] = ranked.attrs["fewer_topics"]
    return table


def per_topic_tau(first: pd.DataFrame, second: pd.DataFrame, *, score: str = "all") -> pd.DataFrame:
    """Kendall's tau (tau-b) between two per-topic score tables within each topic: ``qid``, ``runs``, ``tau``.

    Both tables have ``qid``, ``run`` and ``score``; a topic compares the runs both score there
    (NaN with fewer than two, or where one table ties all of them).
    """
    from scipy.stats import kendalltau

    merged = first[["qid", "run", score]].merge(second[["qid", "run", score]], on=["qid", "run"], suffixes=("_1", "_2"))
    merged = merged.dropna()
    rows = []
    for qid, group in merged.groupby("qid", sort=False):
        tau = float("nan")
        if len(group) >= 2:
            tau = float(kendalltau(group[f"{score}_1"], group[f"{score}_2"]).statistic)
        rows.append((qid, len(group), tau))
    return pd.DataFrame(rows, columns=["qid", "runs", "tau"])


def compare_nugget_rankings(
    first: pd.DataFrame, second: pd.DataFrame, *, confidence: float = 0.95, resamples: int = 1000, seed: int = 0
) -> pd.DataFrame:
    """Kendall's tau between the run rankings of two per-topic score tables, one row per nugget score.

    Columns: ``score``, ``tau``, ``tau_low``, ``tau_high`` (the bootstrap interval over topics at
    ``confidence``, see :func:`~pyterrier_rag_axioms.evaluation.run_correlation`), ``runs``,
    ``topics`` and ``mean_topic_tau`` (the mean of :func:`per_topic_tau`). The tables are compared
    over the topics and runs both have; a run's topic that a table does not score counts 0 there, as
    in the run tables (:func:`run_nugget_table`), so that tau compares the rankings they print.
    """
    from pyterrier_rag_axioms.evaluation.correlation import run_correlation

    topics = sorted(set(first["qid"]) & set(second["qid"]))
    runs = set(first["run"]) & set(second["run"])
    first = first[first["qid"].isin(topics) & first["run"].isin(runs)]
    second = second[second["qid"].isin(topics) & second["run"].isin(runs)]
    rows = []
    for column, _, _ in NUGGET_SCORE_COLUMNS:
        result = run_correlation(
            _missing_as_zero(first, column, topics, runs),
            _missing_as_zero(second, column, topics, runs),
            score_first=column,
            score_second=column,
            confidence=confidence,
            resamples=resamples,
            seed=seed,
        )
        within = per_topic_tau(first, second, score=column)["tau"]
        rows.append(
            (
                column,
                result["tau"],
                result["tau_low"],
                result["tau_high"],
                result["runs"],
                result["topics"],
                float(within.mean()) if within.notna().any() else float("nan"),
            )
        )
    return pd.DataFrame(rows, columns=["score", "tau", "tau_low", "tau_high", "runs", "topics", "mean_topic_tau"])


def _missing_as_zero(table: pd.DataFrame, column: str, topics: list[str], runs: set[str]) -> pd.DataFrame:
    """``qid``, ``run`` and ``column`` for every topic and run, a missing score 0 (TREC's rule) where the
    topic has a score for any run (a topic without one stays NaN for all)."""
    matrix = table.pivot(index="qid", columns="run", values=column).reindex(index=topics, columns=sorted(runs))
    defined = matrix.notna().any(axis=1)
    matrix.loc[defined] = matrix.loc[defined].fillna(0.0)
    return matrix.rename_axis(index="qid", columns="run").reset_index().melt(id_vars="qid", value_name=column)


def few_topics_warning(topics: int, confidence: float) -> str | None:
    """The warning that a bootstrap interval over fewer than :data:`MIN_INTERVAL_TOPICS` topics needs, or ``None``."""
    if topics >= MIN_INTERVAL_TOPICS:
        return None
    return (
        f"warning: the {confidence:.0%} interval resamples only {topics} topic{'' if topics == 1 else 's'}; "
        f"below {MIN_INTERVAL_TOPICS} topics it is unreliable (too narrow or undefined)"
    )


__all__ = [
    "MIN_INTERVAL_TOPICS",
    "NUGGET_SCORE_COLUMNS",
    "compare_nugget_rankings",
    "few_topics_warning",
    "per_topic_nugget_scores",
    "per_topic_tau",
    "run_nugget_table",
]
