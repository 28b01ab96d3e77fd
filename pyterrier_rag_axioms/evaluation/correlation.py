"""Kendall's tau between two rankings of runs (:mod:`~pyterrier_rag_axioms.evaluation.runs` ranks them).

- :func:`run_correlation`: Kendall's tau (scipy) between two run-level scores, with a bootstrap
  interval over topics where both are given per topic;
- :func:`projected_run_correlation`: the tau two rankings are expected to reach over more topics
  like the ones at hand, from a variance-components model of both scores over topics.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.evaluation.bootstrap import check_confidence, check_resamples, topic_interval
from pyterrier_rag_axioms.evaluation.runs import _numbers, _refuse_repeated_keys


def _runs_by_topic(table: pd.DataFrame, score: str, which: str, caller: str = "run_correlation") -> pd.DataFrame:
    """A table's scores as a (topic x run) matrix; a run-level table (no ``qid``) is one row."""
    context = f"{caller} ({which} table)"
    pt.validate.columns(table, includes=["run", score], context=context)
    keys = ["qid", "run"] if "qid" in table.columns else ["run"]
    frame = pd.DataFrame({key: table[key].astype(str) for key in keys}).assign(score=_numbers(table, score, context))
    _refuse_repeated_keys(frame[keys], context)
    if "qid" not in keys:
        return frame.set_index("run")[["score"]].T
    return frame.pivot(index="qid", columns="run", values="score")


def _check_per_topic(first: pd.DataFrame, second: pd.DataFrame, *, caller: str, needed_by: str) -> None:
    """Both tables must be per-topic tables (with ``qid``)."""
    for table, which in ((first, "first"), (second, "second")):
        if "qid" not in table.columns:
            raise ValueError(
                f"{caller}: {needed_by} needs per-topic tables, but the {which} table has no 'qid' column "
                "(pass e.g. win_rates(...) rather than run_win_rates(...))"
            )


def _shared_topics(matrix_first: pd.DataFrame, matrix_second: pd.DataFrame, *, caller: str, needed_by: str) -> pd.Index:
    """The topics of two (topic x run) matrices, which must be the same."""
    topics = matrix_first.index
    if not topics.sort_values().equals(matrix_second.index.sort_values()):
        raise ValueError(
            f"{caller}: {needed_by} needs both tables over the same topics, but the first has "
            f"{len(topics)} and the second {len(matrix_second.index)}, "
            f"{len(topics.intersection(matrix_second.index))} of them shared"
        )
    return topics


def _tau_of_means(first: np.ndarray, second: np.ndarray) -> tuple[float, float, int]:
    """Kendall's tau-b of the two matrices' column means (NaN cells left out), over runs both score."""
    from scipy.stats import kendalltau

    with np.errstate(invalid="ignore", divide="ignore"):
        mean_first = np.nansum(first, axis=0) / (~np.isnan(first)).sum(axis=0)
        mean_second = np.nansum(second, axis=0) / (~np.isnan(second)).sum(axis=0)
    both = np.isfinite(mean_first) & np.isfinite(mean_second)
    if both.sum() < 2:
        return float("nan"), float("nan"), int(both.sum())
    result = kendalltau(mean_first[both], mean_second[both])
    return float(result.statistic), float(result.pvalue), int(both.sum())


def run_correlation(
    first: pd.DataFrame,
    second: pd.DataFrame,
    *,
    score_first: str,
    score_second: str,
    confidence: float | None = None,
    resamples: int = 1000,
    seed: int = 0,
) -> dict:
    """Kendall's tau (tau-b, scipy) between two run-level scores over the runs both have.

    Args:
        first: a run-level table with ``run`` and ``score_first`` (e.g. :func:`run_win_rates`), or a
            per-topic table that has ``qid`` as well (e.g. :func:`win_rates`): its scores are
            averaged over its topics first, every topic counting the same.
        second: another, e.g. :func:`mean_run_scores`, or per topic
            ``nugget_scores(assignments).rename(columns={"docno": "run"})``.
        score_first: the score column of ``first``.
        score_second: the score column of ``second``.
        confidence: where given (e.g. ``0.95``), add a bootstrap interval of tau at this level
            that resamples whole topics (scipy, bias-corrected and accelerated): both tables must
            then be per-topic tables of the same topics.
        resamples: the number of bootstrap resamples (default 1000).
        seed: the seed of the resampling (the same seed, the same interval).

    Returns:
        ``{"tau": ..., "p_value": ..., "runs": ...}``, and with ``confidence`` also ``"tau_low"``,
        ``"tau_high"`` and ``"topics"`` (NaN bounds with fewer than two topics).

    Raises:
        pt.validate.InputValidationError: a column is missing.
        ValueError: a table has two rows for one run (per topic), or ``confidence`` is given and
            the tables are not per-topic tables of the same topics.
    """
    if confidence is not None:
        check_confidence(confidence, caller="run_correlation")
        check_resamples(resamples, caller="run_correlation")
        _check_per_topic(first, second, caller="run_correlation", needed_by="confidence")
    matrix_first = _runs_by_topic(first, score_first, "first")
    matrix_second = _runs_by_topic(second, score_second, "second")
    runs = matrix_first.columns.intersection(matrix_second.columns, sort=False)
    tau, p_value, compared = _tau_of_means(
        matrix_first[runs].to_numpy(dtype=float), matrix_second[runs].to_numpy(dtype=float)
    )
    result = {"tau": tau, "p_value": p_value, "runs": compared}
    if confidence is None:
        return result
    topics = _shared_topics(matrix_first, matrix_second, caller="run_correlation", needed_by="confidence")
    by_topic_first = matrix_first.loc[topics, runs].to_numpy(dtype=float)
    by_topic_second = matrix_second.loc[topics, runs].to_numpy(dtype=float)

    def tau_of(resampled: np.ndarray) -> float:
        return _tau_of_means(by_topic_first[resampled], by_topic_second[resampled])[0]

    # A resample repeats some topics and lacks others, so its run means are noisier and its tau
    # lower than the data's: the percentile interval would sit too low, the BCa interval corrects it.
    result["tau_low"], result["tau_high"] = topic_interval(
        tau_of, len(topics), confidence=confidence, resamples=resamples, seed=seed, method="BCa"
    )
    result["topics"] = len(topics)
    return result


def _variance_components(first: np.ndarray, second: np.ndarray) -> dict[str, float]:
    """Method-of-moments estimates of a (topic x run) two-way model for two scores and their covariance.

    Each score is, per topic and run, a topic effect (the same for every run, so removed) plus the
    run's true mean plus a deviation. Estimated: the variances of the runs' true means and their
    covariance, and the variances of the per-topic deviations and *their* covariance (the two
    scores of one response may err together, e.g. where a judge agrees with the truth on single
    responses beyond what the run's mean says).
    """
    topics, runs = first.shape
    first = first - first.mean(axis=1, keepdims=True)
    second = second - second.mean(axis=1, keepdims=True)
    means_first, means_second = first.mean(axis=0), second.mean(axis=0)
    deviations_first, deviations_second = first - means_first, second - means_second
    freedom = (topics - 1) * (runs - 1)
    noise_first = float((deviations_first**2).sum() / freedom)
    noise_second = float((deviations_second**2).sum() / freedom)
    noise_shared = float((deviations_first * deviations_second).sum() / freedom)
    covariance = np.cov(means_first, means_second)
    return {
        "true_first": float(covariance[0, 0] - noise_first / topics),
        "true_second": float(covariance[1, 1] - noise_second / topics),
        "true_shared": float(covariance[0, 1] - noise_shared / topics),
        "noise_first": noise_first,
        "noise_second": noise_second,
        "noise_shared": noise_shared,
    }


def projected_run_correlation(
    first: pd.DataFrame,
    second: pd.DataFrame,
    *,
    score_first: str,
    score_second: str,
    topics: int | list[int],
) -> pd.DataFrame:
    """Kendall's tau that two run rankings are expected to reach over more topics like these.

    Over few topics a run's mean score is noisy, the more so for scores that vary much from topic
    to topic (nugget scores do), and that noise lowers tau whatever the two scores share. This
    separates the two with a two-way (topic x run) model of each score and of their covariance,
    as generalizability theory does: a score is a topic effect (the same for every run, so it
    cannot change a ranking), plus the run's true mean, plus a deviation of the run on that topic;
    the two scores' deviations on the same topic may be correlated (a judge that agrees with the
    truth on single responses). The variances and covariances of both parts are estimated from the
    tables by the method of moments; over ``n`` topics a run's mean keeps its true part and 1/n of
    the deviations' (co)variance, which gives Pearson's r of the runs' means over ``n`` topics,
    turned into tau by Greiner's relation ``tau = 2 / pi * arcsin(r)`` (exact for normally
    distributed scores). It assumes that the further topics are like these and that a run's
    deviations on one topic are independent of those on another. With few topics the estimates
    are themselves uncertain: check a projection by projecting from subsets of the topics to all.

    Args:
        first: a per-topic table with ``qid``, ``run`` and ``score_first`` (e.g. :func:`win_rates`).
        second: another over the same topics, e.g.
            ``nugget_scores(assignments).rename(columns={"docno": "run"})``.
        score_first: the score column of ``first``.
        score_second: the score column of ``second``.
        topics: the number (or numbers) of topics to project to.

    Returns:
        One row per number of topics: ``topics``; ``reliability_first`` and
        ``reliability_second``, the share of the variance of the runs' means over that many topics
        that lies in their true means; ``correlation`` (Pearson's r); and ``tau``. At the
        observed number of topics the correlation is the observed one, and ``tau`` Greiner's value
        for it, which can differ from the observed tau (:func:`run_correlation`) by a few
        hundredths: set projections beside that value. The runs are those that both tables score
        on every topic that each table scores at all (a topic that a table scores for no run is
        left out); the frame's ``attrs`` hold the observed ``topics`` and
        ``runs``, the ``true_correlation`` of the runs' true means (the limit over ever more
        topics; capped at +-1, in which case the observed number of topics' row falls short of the
        observed correlation) and the ``deviation_correlation`` of the per-topic deviations. NaN
        where a variance of the true means is estimated at or below 0 (the runs' order is noise).

    Raises:
        pt.validate.InputValidationError: a column is missing.
        ValueError: a table is not per topic, the tables' topics differ, there are fewer than two
            topics or three runs, or a number of topics is not a positive integer.
    """
    caller = "projected_run_correlation"
    wanted = list(topics) if isinstance(topics, (list, tuple, range, np.ndarray)) else [topics]
    if not wanted or any(isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1 for n in wanted):
        raise ValueError(f"{caller}: topics must be a positive integer or a list of them, not {topics!r}")
    _check_per_topic(first, second, caller=caller, needed_by="a projection")
    matrix_first = _runs_by_topic(first, score_first, "first", caller)
    matrix_second = _runs_by_topic(second, score_second, "second", caller)
    shared = _shared_topics(matrix_first, matrix_second, caller=caller, needed_by="a projection")
    runs = matrix_first.columns.intersection(matrix_second.columns, sort=False)
    by_topic_first = matrix_first.loc[shared, runs].to_numpy(dtype=float)
    by_topic_second = matrix_second.loc[shared, runs].to_numpy(dtype=float)
    # a topic that either table scores for no run tells nothing (e.g. no vital nuggets): left out
    scored = ~(np.isnan(by_topic_first).all(axis=1) | np.isnan(by_topic_second).all(axis=1))
    complete = ~(np.isnan(by_topic_first[scored]).any(axis=0) | np.isnan(by_topic_second[scored]).any(axis=0))
    by_topic_first, by_topic_second = by_topic_first[scored][:, complete], by_topic_second[scored][:, complete]
    observed, run_count = by_topic_first.shape
    if observed < 2 or run_count < 3:
        raise ValueError(
            f"{caller}: needs at least two topics and three runs scored on every topic by both tables, "
            f"found {observed} topics and {run_count} runs"
        )
    parts = _variance_components(by_topic_first, by_topic_second)
    if not (parts["true_first"] > 0 and parts["true_second"] > 0):  # the runs' order is noise: all NaN below
        parts["true_first"] = parts["true_second"] = float("nan")
    # Over few topics the true covariance can come out beyond what the true variances allow: cap
    # the true means' correlation at +-1.
    bound = np.sqrt(parts["true_first"] * parts["true_second"])
    true_shared = float(np.clip(parts["true_shared"], -bound, bound))
    rows = []
    for count in wanted:
        variance_first = parts["true_first"] + parts["noise_first"] / count
        variance_second = parts["true_second"] + parts["noise_second"] / count
        correlation = float((true_shared + parts["noise_shared"] / count) / np.sqrt(variance_first * variance_second))
        rows.append({
            "topics": int(count),
            "reliability_first": parts["true_first"] / variance_first,
            "reliability_second": parts["true_second"] / variance_second,
            "correlation": correlation,
            "tau": float(2 / np.pi * np.arcsin(correlation)),
        })
    result = pd.DataFrame(rows, columns=["topics", "reliability_first", "reliability_second", "correlation", "tau"])
    result.attrs.update(
        topics=observed,
        runs=run_count,
        true_correlation=true_shared / bound,
        deviation_correlation=(
            parts["noise_shared"] / np.sqrt(parts["noise_first"] * parts["noise_second"])
            if parts["noise_first"] > 0 and parts["noise_second"] > 0 else float("nan")
        ),
    )
    return result
