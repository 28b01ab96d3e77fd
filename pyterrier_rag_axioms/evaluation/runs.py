"""Run-level evaluation: rank RAG systems (runs) by pairwise preferences between their responses.

TREC-style experiments compare systems, not pairs. When every response of a topic comes from one
run (``docno`` is the run id, as in :func:`~pyterrier_rag_axioms.judgments.load_nugget_assignments`),
a preference frame of all pairs of a topic's responses says how often each run beats the others:

- :func:`win_rates`: each run's wins, losses and ties per topic, and its win rate
  ``(wins + ties / 2) / comparisons``;
- :func:`run_win_rates`: the mean win rate of each run over topics, ranked (:func:`mean_win_rates`
  from a :func:`win_rates` table);
- :func:`run_scores`: the pointwise path, each run's mean over topics of a model's per-response score;
- :func:`mean_run_scores`: the mean over topics of a per-response score (e.g. the nugget score of
  :func:`~pyterrier_rag_axioms.judgments.nugget_scores`), ranked;
- Kendall's tau between two rankings of runs: :mod:`~pyterrier_rag_axioms.evaluation.correlation`.
"""

from __future__ import annotations

import warnings
from typing import Literal, get_args

import numpy as np
import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.evaluation.agreement import column_name

#: The columns of :func:`win_rates`.
WIN_RATE_COLUMNS: list[str] = ["qid", "run", "comparisons", "wins", "losses", "ties", "win_rate"]


def win_rates(preferences: pd.DataFrame, source: object) -> pd.DataFrame:
    """Each run's wins, losses and ties per topic from a preference frame whose docnos are run ids.

    Args:
        preferences: a preference frame (``qid``, ``docno_a``, ``docno_b``) with the preference
            column; each listed pair counts once (list each pair of a topic once, e.g. all pairs
            as built from a response frame).
        source: the preference column's name, or an axiom/combinator/model (its ``name``).

    Returns:
        One row per (qid, run): ``comparisons``, ``wins``, ``losses``, ``ties`` (a preference of 0
        or NaN) and ``win_rate`` = ``(wins + ties / 2) / comparisons``; topics and, within each, runs
        in order of first appearance.

    Raises:
        pt.validate.InputValidationError: a column is missing.
        TypeError: the preference column does not hold numbers.
    """
    column = column_name(source, caller="win_rates")
    pt.validate.columns(preferences, includes=["qid", "docno_a", "docno_b", column], context="win_rates")
    values = pd.to_numeric(preferences[column], errors="coerce")
    if values.isna().sum() != preferences[column].isna().sum():
        raise TypeError(f"win_rates: the preference column {column!r} must hold numbers")
    signs = np.sign(values.fillna(0.0).to_numpy(dtype=float))
    qids = preferences["qid"].astype(str).to_numpy()
    sides = pd.DataFrame(  # each pair's a, then its b: runs in order of first appearance
        {
            "qid": np.repeat(qids, 2),
            "run": np.column_stack([preferences["docno_a"].astype(str), preferences["docno_b"].astype(str)]).ravel(),
            "result": np.column_stack([signs, -signs]).ravel(),
        }
    )
    topic_order = {qid: position for position, qid in enumerate(pd.unique(qids))}
    sides = sides.sort_values("qid", key=lambda column: column.map(topic_order), kind="stable")  # topics together
    grouped = sides.groupby(["qid", "run"], sort=False)["result"]
    table = pd.DataFrame(
        {
            "comparisons": grouped.size(),
            "wins": grouped.agg(lambda result: int((result > 0).sum())),
            "losses": grouped.agg(lambda result: int((result < 0).sum())),
        }
    ).reset_index()
    table["ties"] = table["comparisons"] - table["wins"] - table["losses"]
    table["win_rate"] = (table["wins"] + table["ties"] / 2) / table["comparisons"]
    return table[WIN_RATE_COLUMNS].astype({"comparisons": int, "wins": int, "losses": int, "ties": int})


#: Scores equal to this many decimals tie (a mean of the same values summed in another order
#: differs in its last bits).
TIE_DECIMALS = 12


def _ranked(table: pd.DataFrame, score: str) -> pd.DataFrame:
    """Sort by score (descending, ties by run id) and add ``rank`` (1 is best; equal scores share the best
    rank; a run without a score comes last, without a rank)."""
    rounded = table[score].astype(float).round(TIE_DECIMALS)
    order = pd.DataFrame({"score": rounded, "run": table["run"].astype(str)})
    table = table.loc[order.sort_values(["score", "run"], ascending=[False, True], kind="mergesort").index]
    table = table.reset_index(drop=True)
    ranks = table[score].astype(float).round(TIE_DECIMALS).rank(method="min", ascending=False)
    table["rank"] = ranks.astype("Int64" if ranks.isna().any() else int)
    return table


def _numbers(table: pd.DataFrame, column: str, context: str) -> pd.Series:
    """A column's values as numbers, or an error that names the column and a value that is not one."""
    try:
        return pd.to_numeric(table[column])
    except (TypeError, ValueError) as error:
        raise ValueError(f"{context}: column {column!r} must hold numbers ({error})") from None


def run_win_rates(preferences: pd.DataFrame, source: object) -> pd.DataFrame:
    """Each run's mean win rate over topics: ``run``, ``topics``, ``win_rate``, ``rank`` (1 is best).

    See :func:`win_rates`; every topic counts the same, however many runs answered it.
    """
    return mean_win_rates(win_rates(preferences, source))


def mean_win_rates(per_topic: pd.DataFrame) -> pd.DataFrame:
    """The runs' mean win rate over the topics of a :func:`win_rates` table, ranked as :func:`run_win_rates`."""
    table = per_topic.groupby("run", sort=False).agg(topics=("qid", "nunique"), win_rate=("win_rate", "mean"))
    return _ranked(table.reset_index(), "win_rate")


def run_scores(responses: pd.DataFrame, model: object, *, score: str = "judge_score") -> pd.DataFrame:
    """The pointwise path: each run's mean over topics of a model's per-response score, ranked as
    :func:`mean_run_scores` (``run``, ``topics``, ``<score>``, ``rank``); ``docno`` is the run id.

    ``model`` gives one score per response (e.g. :meth:`PreferenceModel.scores
    <pyterrier_rag_axioms.preference.PreferenceModel.scores>`), so the cost is linear in the
    number of responses: no pairs are built.
    """
    scored = model.scores(responses)
    return mean_run_scores(scored.rename(columns={f"{model.name}_score": score}), score=score)


#: What a run's mean does with a topic that other runs are scored on and the run is not: count it
#: 0 (TREC's rule, the default) or leave it out of the run's mean.
MissingTopics = Literal["zero", "skip"]
MISSING_TOPICS: tuple[str, ...] = get_args(MissingTopics)


def mean_run_scores(
    scores: pd.DataFrame, *, score: str = "score", run: str = "docno", missing: MissingTopics = "zero"
) -> pd.DataFrame:
    """Each run's mean over topics of a per-response score: ``run``, ``topics``, ``<score>``, ``rank``.

    The topics are those on which any run has a score (a topic that no run is scored on, e.g. the
    Vital score of a topic without vital nuggets, counts for none). A run without a score on one
    of them (no row, or NaN) has not answered it; by TREC's rule that topic counts 0 in its mean
    (``missing="zero"``), so a run cannot rank higher by answering less. Such a run is named in a
    warning of one line with the number of topics it is scored on, and in the table's
    ``attrs["fewer_topics"]`` (run -> that number). Ties share the best rank (ranks 1, 1, 3).

    Args:
        scores: one row per response, e.g. :func:`~pyterrier_rag_axioms.judgments.nugget_scores`
            (``qid``, ``docno`` = run id, ``score``).
        score: the score column.
        run: the run id column.
        missing: ``"zero"`` (TREC's rule) or ``"skip"``: each run's mean over its own topics only.

    Returns:
        One row per run, best first; ``topics`` counts the topics its mean is over.

    Raises:
        ValueError: ``missing`` is neither, the score column holds no numbers, or a (qid, run) repeats.
    """
    if missing not in MISSING_TOPICS:
        raise ValueError(f"mean_run_scores: missing must be one of {', '.join(map(repr, MISSING_TOPICS))}, "
                         f"not {missing!r}")
    pt.validate.columns(scores, includes=["qid", run, score], context="mean_run_scores")
    values = _numbers(scores, score, "mean_run_scores")
    keys = pd.DataFrame({"qid": scores["qid"].astype(str), run: scores[run].astype(str)})
    _refuse_repeated_keys(keys, "mean_run_scores", ": a mean over topics needs one each")
    frame = pd.DataFrame({"qid": keys["qid"].to_numpy(), "run": keys[run].to_numpy(), score: values.to_numpy()})
    runs = pd.unique(frame["run"])
    scored = frame.dropna(subset=[score])
    matrix = scored.pivot(index="qid", columns="run", values=score).reindex(columns=runs)
    answered = matrix.notna().sum(axis=0)
    if missing == "zero":  # a run scored on no topic at all has no mean
        means, counts = matrix.fillna(0.0).mean(axis=0).where(answered > 0), answered.where(answered == 0, len(matrix))
    else:
        means, counts = matrix.mean(axis=0), answered
    table = pd.DataFrame({"run": runs, "topics": counts.to_numpy(dtype=int), score: means.to_numpy(dtype=float)})
    fewer = {str(name): int(count) for name, count in answered.items() if count < len(matrix)}
    table = _ranked(table, score)
    table.attrs["fewer_topics"] = fewer
    if fewer:
        warnings.warn(fewer_topics_line(fewer, len(matrix), missing), stacklevel=2)
    return table


def fewer_topics_line(fewer: dict[str, int], topics: int, missing: str = "zero") -> str:
    """One line naming the runs scored on fewer than all ``topics``, each with its count, and what their
    means do with the others."""
    named = ", ".join(f"{name!r} on {count}" for name, count in list(fewer.items())[:5])
    more = f" and {len(fewer) - 5} more" if len(fewer) > 5 else ""
    what = "count 0 in its mean (TREC's rule)" if missing == "zero" else "are left out of its mean"
    subject = "run is" if len(fewer) == 1 else "runs are"
    of_all = f"{topics} topic{'' if topics == 1 else 's'}"
    return (
        f"{len(fewer)} {subject} scored on fewer than the {of_all} of the others: {named}{more}; "
        f"the topics a run lacks {what}"
    )


def _refuse_repeated_keys(keys: pd.DataFrame, context: str, why: str = "") -> None:
    """Raise naming the first key (e.g. qid/run) that more than one row has."""
    duplicated = keys.duplicated()
    if duplicated.any():
        where = ", ".join(map(str, keys[duplicated].iloc[0]))
        raise ValueError(f"{context}: more than one row for {'/'.join(keys.columns)} {where}{why}")
