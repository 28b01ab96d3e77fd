"""Run-level evaluation: win rates from preferences, mean scores, Kendall's tau, and the side-by-side plot."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import pyterrier_rag_axioms as rag


def preferences_of(scores: dict[str, dict[str, float]]) -> pd.DataFrame:
    """All pairs of each topic's runs, preferring the run with the higher score (0 on equal scores)."""
    rows = []
    for qid, by_run in scores.items():
        runs = list(by_run)
        for i, run_a in enumerate(runs):
            for run_b in runs[i + 1 :]:
                rows.append({"qid": qid, "docno_a": run_a, "docno_b": run_b,
                             "P": float(np.sign(by_run[run_a] - by_run[run_b]))})
    return pd.DataFrame(rows)


SCORES = {"t1": {"A": 3.0, "B": 2.0, "C": 1.0}, "t2": {"A": 1.0, "B": 1.0, "C": 5.0}}


def test_win_rates_per_topic_count_ties_as_half():
    table = rag.win_rates(preferences_of(SCORES), "P").set_index(["qid", "run"])
    assert table.loc[("t1", "A"), ["wins", "losses", "ties"]].tolist() == [2, 0, 0]
    assert table.loc[("t1", "A"), "win_rate"] == 1.0
    assert table.loc[("t2", "A"), ["wins", "losses", "ties"]].tolist() == [0, 1, 1]
    assert table.loc[("t2", "A"), "win_rate"] == 0.25
    assert (table["comparisons"] == 2).all()


def test_run_win_rates_average_over_topics_and_rank():
    runs = rag.run_win_rates(preferences_of(SCORES), "P")
    assert runs["run"].tolist() == ["A", "C", "B"]  # A: (1 + .25)/2, C: (0 + 1)/2, B: (.5 + .25)/2
    assert runs["win_rate"].tolist() == pytest.approx([0.625, 0.5, 0.375])
    assert runs["rank"].tolist() == [1, 2, 3]
    assert (runs["topics"] == 2).all()


def test_mean_run_scores_and_kendall_tau():
    scores = pd.DataFrame(
        [{"qid": qid, "docno": run, "score": score} for qid, by_run in SCORES.items() for run, score in by_run.items()]
    )
    means = rag.mean_run_scores(scores)
    assert means.set_index("run")["score"].to_dict() == {"A": 2.0, "B": 1.5, "C": 3.0}
    same = rag.run_correlation(means, means, score_first="score", score_second="score")
    assert same["tau"] == pytest.approx(1.0) and same["runs"] == 3
    reversed_scores = means.assign(score=-means["score"])
    assert rag.run_correlation(means, reversed_scores, score_first="score", score_second="score")["tau"] == -1.0
    wins = rag.run_win_rates(preferences_of(SCORES), "P")
    tau = rag.run_correlation(wins, means, score_first="win_rate", score_second="score")
    assert tau["tau"] == pytest.approx(1 / 3)  # A > C > B against C > A > B: two concordant pairs, one discordant


def test_errors_name_the_column():
    with pytest.raises(Exception, match="P2"):
        rag.win_rates(preferences_of(SCORES), "P2")
    with pytest.raises(TypeError, match="must hold numbers"):
        rag.win_rates(preferences_of(SCORES).assign(P="x"), "P")


def test_plot_run_rankings():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    wins = rag.run_win_rates(preferences_of(SCORES), "P")
    scores = wins.assign(score=[1.0, 3.0, 2.0])[["run", "score", "rank"]]
    scores["rank"] = scores["score"].rank(ascending=False).astype(int)
    ax = rag.plot_run_rankings(wins, scores, score_first="win_rate", score_second="score")
    assert "Kendall's tau" in ax.get_title()
    assert len(ax.lines) == 3


def per_topic_scores(topics: int, runs: int, seed: int) -> pd.DataFrame:
    """A score per (topic, run): the run's own quality plus topic noise."""
    rng = np.random.default_rng(seed)
    quality = np.linspace(1.0, 0.0, runs)
    return pd.DataFrame(
        [{"qid": f"t{t}", "run": f"r{r}", "score": quality[r] + rng.normal(0, 0.4)}
         for t in range(topics) for r in range(runs)]
    )


def test_per_topic_tables_are_averaged_over_topics_first():
    scores = per_topic_scores(5, 6, seed=1)
    preferences = preferences_of({qid: dict(zip(topic["run"], topic["score"])) for qid, topic in scores.groupby("qid")})
    per_topic = rag.run_correlation(rag.win_rates(preferences, "P"), scores,
                                    score_first="win_rate", score_second="score")
    run_level = rag.run_correlation(rag.run_win_rates(preferences, "P"), rag.mean_run_scores(scores, run="run"),
                                    score_first="win_rate", score_second="score")
    assert per_topic == run_level
    assert per_topic["runs"] == 6


def test_confidence_adds_a_bootstrap_interval_over_topics():
    scores = per_topic_scores(8, 6, seed=2)
    same = rag.run_correlation(scores, scores, score_first="score", score_second="score", confidence=0.95)
    assert same["tau"] == same["tau_low"] == same["tau_high"] == pytest.approx(1.0)
    assert same["topics"] == 8
    other = per_topic_scores(8, 6, seed=3)
    noisy = rag.run_correlation(scores, other, score_first="score", score_second="score", confidence=0.95)
    assert noisy["tau_low"] <= noisy["tau"] <= noisy["tau_high"]
    assert noisy["tau_low"] < noisy["tau_high"]
    again = rag.run_correlation(scores, other, score_first="score", score_second="score", confidence=0.95)
    assert again == noisy
    wider = rag.run_correlation(scores, other, score_first="score", score_second="score", confidence=0.99)
    assert wider["tau_low"] <= noisy["tau_low"] and wider["tau_high"] >= noisy["tau_high"]
    one_topic = scores[scores["qid"] == "t0"]
    single = rag.run_correlation(one_topic, one_topic, score_first="score", score_second="score", confidence=0.95)
    assert np.isnan(single["tau_low"]) and np.isnan(single["tau_high"])


def test_run_correlation_errors():
    scores = per_topic_scores(3, 4, seed=4)
    runs = rag.mean_run_scores(scores, run="run")
    with pytest.raises(ValueError, match="second table has no 'qid'"):
        rag.run_correlation(scores, runs, score_first="score", score_second="score", confidence=0.95)
    with pytest.raises(ValueError, match="same topics"):
        rag.run_correlation(scores, scores[scores["qid"] != "t0"], score_first="score", score_second="score",
                            confidence=0.95)
    with pytest.raises(ValueError, match="confidence must lie in"):
        rag.run_correlation(scores, scores, score_first="score", score_second="score", confidence=95)
    with pytest.raises(ValueError, match="more than one row for qid/run t0, r0"):
        rag.run_correlation(pd.concat([scores, scores.head(1)]), scores, score_first="score", score_second="score")
    with pytest.raises(Exception, match="win_rate"):
        rag.run_correlation(scores, scores, score_first="win_rate", score_second="score")
