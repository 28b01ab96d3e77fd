"""Run-level evaluation: win rates from preferences, mean scores, Kendall's tau, and the side-by-side plot."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import pyterrier_rag_axioms as rag
import pyterrier_rag_axioms.evaluation as ev


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
    table = ev.win_rates(preferences_of(SCORES), "P").set_index(["qid", "run"])
    assert table.loc[("t1", "A"), ["wins", "losses", "ties"]].tolist() == [2, 0, 0]
    assert table.loc[("t1", "A"), "win_rate"] == 1.0
    assert table.loc[("t2", "A"), ["wins", "losses", "ties"]].tolist() == [0, 1, 1]
    assert table.loc[("t2", "A"), "win_rate"] == 0.25
    assert (table["comparisons"] == 2).all()


def test_run_win_rates_average_over_topics_and_rank():
    runs = ev.run_win_rates(preferences_of(SCORES), "P")
    assert runs["run"].tolist() == ["A", "C", "B"]  # A: (1 + .25)/2, C: (0 + 1)/2, B: (.5 + .25)/2
    assert runs["win_rate"].tolist() == pytest.approx([0.625, 0.5, 0.375])
    assert runs["rank"].tolist() == [1, 2, 3]
    assert (runs["topics"] == 2).all()


def test_mean_run_scores_and_kendall_tau():
    scores = pd.DataFrame(
        [{"qid": qid, "docno": run, "score": score} for qid, by_run in SCORES.items() for run, score in by_run.items()]
    )
    means = ev.mean_run_scores(scores)
    assert means.set_index("run")["score"].to_dict() == {"A": 2.0, "B": 1.5, "C": 3.0}
    same = ev.run_correlation(means, means, score_first="score", score_second="score")
    assert same["tau"] == pytest.approx(1.0) and same["runs"] == 3
    reversed_scores = means.assign(score=-means["score"])
    assert ev.run_correlation(means, reversed_scores, score_first="score", score_second="score")["tau"] == -1.0
    wins = ev.run_win_rates(preferences_of(SCORES), "P")
    tau = ev.run_correlation(wins, means, score_first="win_rate", score_second="score")
    assert tau["tau"] == pytest.approx(1 / 3)  # A > C > B against C > A > B: two concordant pairs, one discordant


def test_errors_name_the_column():
    with pytest.raises(Exception, match="P2"):
        ev.win_rates(preferences_of(SCORES), "P2")
    with pytest.raises(TypeError, match="must hold numbers"):
        ev.win_rates(preferences_of(SCORES).assign(P="x"), "P")


def test_plot_run_rankings():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    wins = ev.run_win_rates(preferences_of(SCORES), "P")
    scores = wins.assign(score=[1.0, 3.0, 2.0])[["run", "score", "rank"]]
    scores["rank"] = scores["score"].rank(ascending=False).astype(int)
    ax = ev.plot_run_rankings(wins, scores, score_first="win_rate", score_second="score")
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
    per_topic = ev.run_correlation(ev.win_rates(preferences, "P"), scores,
                                    score_first="win_rate", score_second="score")
    run_level = ev.run_correlation(ev.run_win_rates(preferences, "P"), ev.mean_run_scores(scores, run="run"),
                                    score_first="win_rate", score_second="score")
    assert per_topic == run_level
    assert per_topic["runs"] == 6


def test_confidence_adds_a_bootstrap_interval_over_topics():
    scores = per_topic_scores(8, 6, seed=2)
    same = ev.run_correlation(scores, scores, score_first="score", score_second="score", confidence=0.95)
    assert same["tau"] == same["tau_low"] == same["tau_high"] == pytest.approx(1.0)
    assert same["topics"] == 8
    other = per_topic_scores(8, 6, seed=3)
    noisy = ev.run_correlation(scores, other, score_first="score", score_second="score", confidence=0.95)
    assert noisy["tau_low"] <= noisy["tau"] <= noisy["tau_high"]
    assert noisy["tau_low"] < noisy["tau_high"]
    again = ev.run_correlation(scores, other, score_first="score", score_second="score", confidence=0.95)
    assert again == noisy
    wider = ev.run_correlation(scores, other, score_first="score", score_second="score", confidence=0.99)
    assert wider["tau_low"] <= noisy["tau_low"] and wider["tau_high"] >= noisy["tau_high"]
    one_topic = scores[scores["qid"] == "t0"]
    single = ev.run_correlation(one_topic, one_topic, score_first="score", score_second="score", confidence=0.95)
    assert np.isnan(single["tau_low"]) and np.isnan(single["tau_high"])


def test_run_correlation_errors():
    scores = per_topic_scores(3, 4, seed=4)
    runs = ev.mean_run_scores(scores, run="run")
    with pytest.raises(ValueError, match="second table has no 'qid'"):
        ev.run_correlation(scores, runs, score_first="score", score_second="score", confidence=0.95)
    with pytest.raises(ValueError, match="same topics"):
        ev.run_correlation(scores, scores[scores["qid"] != "t0"], score_first="score", score_second="score",
                            confidence=0.95)
    with pytest.raises(ValueError, match="confidence must lie in"):
        ev.run_correlation(scores, scores, score_first="score", score_second="score", confidence=95)
    with pytest.raises(ValueError, match="run_correlation: resamples must be a whole number >= 1"):
        ev.run_correlation(scores, scores, score_first="score", score_second="score", confidence=0.9, resamples=0)
    with pytest.raises(ValueError, match="more than one row for qid/run t0, r0"):
        ev.run_correlation(pd.concat([scores, scores.head(1)]), scores, score_first="score", score_second="score")
    with pytest.raises(Exception, match="win_rate"):
        ev.run_correlation(scores, scores, score_first="win_rate", score_second="score")



def noisy_scores(quality: np.ndarray, topics: int, noise: float, rng: np.random.Generator) -> pd.DataFrame:
    """A score per (topic, run): the run's quality plus independent noise of the given spread."""
    return pd.DataFrame([{"qid": f"t{t}", "run": f"r{r}", "score": quality[r] + rng.normal(0, noise)}
                         for t in range(topics) for r in range(len(quality))])


def test_projected_run_correlation_foresees_tau_over_more_topics():
    errors_projected, errors_observed = [], []
    for seed in range(6):
        rng = np.random.default_rng(seed)
        quality = rng.normal(0, 1, 30)
        steady, noisy = noisy_scores(quality, 60, 0.7, rng), noisy_scores(quality, 60, 2.0, rng)
        few = [f"t{t}" for t in range(8)]
        steady_few, noisy_few = steady[steady["qid"].isin(few)], noisy[noisy["qid"].isin(few)]
        projected = ev.projected_run_correlation(steady_few, noisy_few, score_first="score", score_second="score",
                                                  topics=[8, 20, 60])
        assert projected["topics"].tolist() == [8, 20, 60]
        assert projected.attrs["topics"] == 8 and projected.attrs["runs"] == 30
        assert projected["tau"].is_monotonic_increasing and projected["reliability_second"].is_monotonic_increasing
        assert (projected["reliability_first"] > projected["reliability_second"]).all()  # the noisy side limits tau
        observed_few = ev.run_correlation(steady_few, noisy_few, score_first="score", score_second="score")["tau"]
        observed_all = ev.run_correlation(steady, noisy, score_first="score", score_second="score")["tau"]
        errors_projected.append(abs(projected["tau"].iloc[-1] - observed_all))
        errors_observed.append(abs(observed_few - observed_all))
    assert np.mean(errors_projected) < np.mean(errors_observed) / 2


def test_projected_run_correlation_sees_agreement_on_single_topics_fade():
    """Two scores whose runs' true means are unrelated but that err together on each topic agree
    over few topics, and ever less over more: the projection falls, where the reliabilities alone
    would have it rise."""
    observed_taus, projected_taus = [], []
    for seed in range(11, 17):
        rng = np.random.default_rng(seed)
        topics, runs = 3, 40
        shared = rng.normal(0, 1, (topics, runs))
        true_first, true_second = rng.normal(0, 0.4, runs), rng.normal(0, 0.4, runs)
        first, second = (
            pd.DataFrame([{"qid": f"t{t}", "run": f"r{r}", "score": true[r] + shared[t, r] + rng.normal(0, 0.3)}
                          for t in range(topics) for r in range(runs)])
            for true in (true_first, true_second)
        )
        projected = ev.projected_run_correlation(first, second, score_first="score", score_second="score",
                                                  topics=[topics, 30, 300])
        assert projected["tau"].is_monotonic_decreasing
        assert projected.attrs["deviation_correlation"] > 0.8
        assert projected["tau"].iloc[0] == pytest.approx(2 / np.pi * np.arcsin(projected["correlation"].iloc[0]))
        means = [table.groupby("run")["score"].mean() for table in (first, second)]
        assert projected["correlation"].iloc[0] == pytest.approx(np.corrcoef(*means)[0, 1])
        observed_taus.append(ev.run_correlation(first, second, score_first="score", score_second="score")["tau"])
        projected_taus.append(projected["tau"].iloc[-1])
    assert np.mean(observed_taus) > 0.3
    assert np.mean(projected_taus) < np.mean(observed_taus) / 3


def test_projected_run_correlation_of_scores_that_never_change_between_topics():
    scores = pd.DataFrame([{"qid": f"t{t}", "run": f"r{r}", "score": float(r)} for t in range(3) for r in range(4)])
    reversed_scores = scores.assign(score=-scores["score"])
    projected = ev.projected_run_correlation(scores, reversed_scores, score_first="score", score_second="score",
                                              topics=50)
    assert projected["reliability_first"].iloc[0] == projected["reliability_second"].iloc[0] == pytest.approx(1.0)
    assert projected["tau"].iloc[0] == pytest.approx(-1.0)
    pure_noise = noisy_scores(np.zeros(8), 4, 1.0, np.random.default_rng(3))
    noise_only = ev.projected_run_correlation(pure_noise, pure_noise.assign(score=-pure_noise["score"]),
                                               score_first="score", score_second="score", topics=[10])
    assert noise_only["reliability_first"].isna().all() and noise_only["tau"].isna().all()


def test_projected_run_correlation_errors():
    scores = per_topic_scores(3, 4, seed=4)
    with pytest.raises(ValueError, match="projected_run_correlation: a projection needs per-topic tables, but the "
                                         "second table has no 'qid'"):
        ev.projected_run_correlation(scores, ev.mean_run_scores(scores, run="run"), score_first="score",
                                      score_second="score", topics=10)
    with pytest.raises(ValueError, match="same topics"):
        ev.projected_run_correlation(scores, scores[scores["qid"] != "t0"], score_first="score",
                                      score_second="score", topics=10)
    one_topic = scores[scores["qid"] == "t0"]
    with pytest.raises(ValueError, match="at least two topics and three runs .* found 1 topics and 4 runs"):
        ev.projected_run_correlation(one_topic, one_topic, score_first="score", score_second="score", topics=10)
    for topics in (0, True, "10", 10.0, [], [10, 2.5]):
        with pytest.raises(ValueError, match="topics must be a positive integer"):
            ev.projected_run_correlation(scores, scores, score_first="score", score_second="score", topics=topics)
    with pytest.raises(Exception, match="projected_run_correlation \\(first table\\).*win_rate"):
        ev.projected_run_correlation(scores, scores, score_first="win_rate", score_second="score", topics=10)


# ``rag-axioms runs``: the command line over real files

TOPICS = {"t1": "why is the sky blue", "t2": "how do bees make honey"}
#: Per run, the number of sentences of its answer to each topic: run "long" writes most, "short" least.
SENTENCES = {"long": 4, "middle": 2, "short": 1}


def write_runs(tmp_path, *, nugget_support: dict[str, int]) -> tuple[str, str]:
    """A response file (docno = run id) and a nugget assignment file of the same answers."""
    responses, assignments = [], []
    for qid, query in TOPICS.items():
        for run, count in SENTENCES.items():
            answer = " ".join(f"Fact {i} about {query.split()[-1]} is stated here in full." for i in range(count))
            responses.append({"qid": qid, "query": query, "docno": run, "response": answer})
            nuggets = [{"text": f"nugget {i}", "importance": "vital",
                        "assignment": "support" if i < nugget_support[run] else "not_support"} for i in range(3)]
            assignments.append({"qid": qid, "query": query, "run_id": run, "answer_text": answer,
                                "response_length": len(answer.split()), "nuggets": nuggets})
    response_path, nugget_path = tmp_path / "answers.jsonl", tmp_path / "nuggets.jsonl"
    pd.DataFrame(responses).to_json(response_path, orient="records", lines=True)
    pd.DataFrame(assignments).to_json(nugget_path, orient="records", lines=True)
    return str(response_path), str(nugget_path)


def test_cli_runs_ranks_runs_by_win_rate_next_to_nugget_scores(tmp_path, capsys):
    from pyterrier_rag_axioms.cli import main

    answers, nuggets = write_runs(tmp_path, nugget_support={"long": 3, "middle": 1, "short": 2})
    table_path = tmp_path / "runs.tsv"
    assert main(["runs", answers, "--axioms", "LEN1", "--nuggets", nuggets, "--output", str(table_path)]) == 0
    out = capsys.readouterr().out
    assert "6 responses of 3 runs to 2 topics" in out
    table = pd.read_csv(table_path, sep="\t")
    assert table["run"].tolist() == ["long", "middle", "short"]
    assert table["win_rate"].tolist() == [1.0, 0.5, 0.0]
    assert table["nugget_score"].tolist() == pytest.approx([1.0, 1 / 3, 2 / 3])
    assert table["nugget_rank"].tolist() == [1, 3, 2]
    assert "Kendall's tau between the win rates and the mean nugget scores: 0.333 over 3 runs" in out
    assert "bootstrap interval over 2 topics" in out


def test_cli_runs_judges_the_answers_of_a_nugget_file_with_the_shipped_model(tmp_path, capsys):
    from pyterrier_rag_axioms.cli import main

    _, nuggets = write_runs(tmp_path, nugget_support={"long": 3, "middle": 2, "short": 1})
    table_path = tmp_path / "runs.tsv"
    assert main(["runs", "--nuggets", nuggets, "--output", str(table_path)]) == 0
    out = capsys.readouterr().out
    assert "Runs ranked by the mean score per response of the preference model nuggets" in out  # pointwise
    assert "Kendall's tau between the scores and the mean nugget scores" in out and "over 3 runs" in out
    pointwise = pd.read_csv(table_path, sep="\t")
    assert {"judge_score", "topics", "rank", "nugget_score"} <= set(pointwise.columns)
    assert main(["runs", "--nuggets", nuggets, "--ranking", "pairwise", "--output", str(table_path)]) == 0
    assert "Runs ranked by the win rate of the preference model nuggets" in capsys.readouterr().out
    pairwise = pd.read_csv(table_path, sep="\t")
    # a linear model's win rate in a topic is its score's rank there: with both paths, the same order here
    assert pairwise["run"].tolist() == pointwise["run"].tolist()
    assert main(["runs", "--nuggets", nuggets, "--axioms", "LEN1", "--ranking", "pointwise"]) == 2
    assert "--ranking pointwise needs a model's per-response scores" in capsys.readouterr().err


def test_cli_runs_rejects_bad_arguments_on_one_line(tmp_path, capsys):
    from pyterrier_rag_axioms.cli import main

    answers, nuggets = write_runs(tmp_path, nugget_support={"long": 3, "middle": 2, "short": 1})
    assert main(["runs", answers, "--confidence", "95"]) == 2
    assert "confidence must lie in (0, 1)" in capsys.readouterr().err
    assert main(["runs", answers, "--model", "nuggets", "--axioms", "LEN1"]) == 2
    assert "leave out --axioms" in capsys.readouterr().err
    one_topic = tmp_path / "one-topic.jsonl"
    assignments = pd.read_json(nuggets, lines=True, dtype={"qid": str})
    assignments[assignments["qid"] == "t1"].to_json(one_topic, orient="records", lines=True)
    assert main(["runs", answers, "--axioms", "LEN1", "--nuggets", str(one_topic)]) == 2
    error = capsys.readouterr().err
    assert "no nugget assignments for 1 of the 2 topics" in error and "'t2'" in error
    assert main(["runs", answers, "--axioms", "LEN1", "--output", "runs.csv"]) == 2
    assert "runs.csv" in capsys.readouterr().err


def test_cli_runs_notes_when_docno_does_not_look_like_a_run_id(capsys):
    from pyterrier_rag_axioms.cli import main
    from pyterrier_rag_axioms.cli._sample import SAMPLE_PATH

    assert main(["runs", SAMPLE_PATH, "--axioms", "LEN1"]) == 0  # the sample's docnos are q1-r1, q1-r2, ...
    assert "no run answers more than one of the 8 topics: is docno the run id" in capsys.readouterr().err


def test_cli_runs_names_what_it_cannot_score(tmp_path, capsys):
    from pyterrier_rag_axioms.cli import main

    answers, nuggets = write_runs(tmp_path, nugget_support={"long": 3, "middle": 1, "short": 2})
    lone = pd.concat([pd.read_json(answers, lines=True, dtype={"qid": str}),
                      pd.DataFrame([{"qid": "t9", "query": "What is snow?", "docno": "alone", "response": "Ice."}])])
    lone_path = tmp_path / "lone.jsonl"
    lone.to_json(lone_path, orient="records", lines=True)
    assert main(["runs", str(lone_path), "--axioms", "LEN1"]) == 0
    captured = capsys.readouterr()
    assert "1 run without a win rate, since no other run answers any of its topics: alone" in captured.err
    assert "note: MajorityVote(LEN1" in captured.err  # the topic with one response: a note of one line
    assert "UserWarning" not in captured.err and ".py:" not in captured.err  # no warning class, no source line

    # ranks among the runs of the input; an answer without nuggets is named, scores 0 and stays in its run's mean
    assignments = pd.read_json(nuggets, lines=True, dtype={"qid": str})
    without = ((assignments["qid"] == "t1") & (assignments["run_id"] == "short")).to_numpy()
    assignments["nuggets"] = [[] if empty else nuggets for empty, nuggets in zip(without, assignments["nuggets"])]
    assignments.to_json(nuggets, orient="records", lines=True)
    fewer = pd.read_json(answers, lines=True, dtype={"qid": str}).query("docno != 'long'")
    fewer_path, table_path = tmp_path / "fewer.jsonl", tmp_path / "runs.jsonl"
    fewer.to_json(fewer_path, orient="records", lines=True)
    assert main(["runs", str(fewer_path), "--axioms", "LEN1", "--nuggets", nuggets, "--output", str(table_path)]) == 0
    assert "1 answer without nuggets that count" in capsys.readouterr().err
    table = pd.read_json(table_path, lines=True).set_index("run")
    assert table["topics"].to_dict() == {"middle": 2, "short": 2}
    assert table.loc["short", "nugget_score"] == pytest.approx(1 / 3)  # (0 + 2/3) / 2, not 2/3 from t2 alone
    assert table["nugget_rank"].to_dict() == {"middle": 1, "short": 1}  # 1/3 and 1/3: a tie shares the rank


def test_nugget_assignments_refuse_an_empty_file_and_answers_that_are_not_text(tmp_path, capsys):
    from pyterrier_rag_axioms.cli import main

    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(ValueError, match="empty.jsonl:1: no nugget assignments"):
        rag.judgments.load_nugget_assignments(empty)
    assert main(["runs", "--nuggets", str(empty), "--axioms", "LEN1"]) == 2
    assert "empty.jsonl:1: no nugget assignments" in capsys.readouterr().err
    _, nuggets = write_runs(tmp_path, nugget_support={"long": 3, "middle": 1, "short": 2})
    lines = open(nuggets).read().splitlines()
    record = json.loads(lines[1])
    record["answer_text"] = 17
    lines[1] = json.dumps(record)
    numeric = tmp_path / "numeric.jsonl"
    numeric.write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError, match="numeric.jsonl:2: field 'answer_text' must be a string, not int 17"):
        rag.judgments.load_nugget_assignments(numeric)


def test_mean_run_scores_rank_runs_without_a_score_last_and_refuse_two_rows_per_topic():
    scores = pd.DataFrame({"qid": ["1", "1", "1"], "docno": ["A", "B", "C"], "score": [0.5, 0.2, np.nan]})
    with pytest.warns(UserWarning, match="'C' on 0"):
        table = ev.mean_run_scores(scores)
    assert table["run"].tolist() == ["A", "B", "C"] and table["topics"].tolist() == [1, 1, 0]
    assert table["rank"].tolist()[:2] == [1, 2] and pd.isna(table["rank"].iloc[2])
    twice = pd.DataFrame({"qid": ["1", "1", "2", "2", "2"], "docno": list("ABABB"), "score": [1, 0, 0, 1, 1.0]})
    with pytest.raises(ValueError, match="mean_run_scores: more than one row for qid/docno 2, B"):
        ev.mean_run_scores(twice)
    with pytest.raises(ValueError, match="mean_run_scores: column 'score' must hold numbers"):
        ev.mean_run_scores(scores.assign(score=["x", 1, 2]))
    with pytest.raises(ValueError, match="run_correlation \\(first table\\): column 'score' must hold numbers"):
        ev.run_correlation(scores.assign(score=["x", 1, 2]).rename(columns={"docno": "run"}),
                            scores.rename(columns={"docno": "run"}), score_first="score", score_second="score")


def test_mean_run_scores_count_the_topics_with_a_score():
    scores = pd.DataFrame(
        {"qid": ["1", "2", "1", "2"], "docno": ["A", "A", "B", "B"], "score": [0.5, np.nan, 0.2, 0.4]}
    )
    with pytest.warns(UserWarning, match="'A' on 1"):
        table = ev.mean_run_scores(scores).set_index("run")
    assert table["topics"].to_dict() == {"A": 2, "B": 2}  # TREC's rule: A's missing topic counts 0
    assert table["score"].to_dict() == pytest.approx({"A": 0.25, "B": 0.3})
    with pytest.warns(UserWarning, match="'A' on 1"):
        table = ev.mean_run_scores(scores, missing="skip").set_index("run")
    assert table["topics"].to_dict() == {"A": 1, "B": 2}
    assert table["score"].to_dict() == pytest.approx({"A": 0.5, "B": 0.3})


def test_win_rates_list_topics_together_and_runs_in_order_of_first_appearance():
    pairs = pd.DataFrame({"qid": list("121212"), "docno_a": ["A", "A", "A", "A", "B", "B"],
                          "docno_b": ["B", "B", "C", "C", "C", "C"], "X": [1.0] * 6})
    table = ev.win_rates(pairs, "X")
    assert table[["qid", "run", "wins"]].values.tolist() == [
        ["1", "A", 2], ["1", "B", 1], ["1", "C", 0], ["2", "A", 2], ["2", "B", 1], ["2", "C", 0],
    ]


def test_projected_run_correlation_leaves_out_a_topic_one_table_does_not_score():
    rng = np.random.default_rng(5)
    quality = rng.normal(0, 1, 8)
    first, second = noisy_scores(quality, 5, 0.5, rng), noisy_scores(quality, 5, 1.0, rng)
    unscored = second.assign(score=second["score"].where(second["qid"] != "t4"))
    projected = ev.projected_run_correlation(first, unscored, score_first="score", score_second="score", topics=10)
    four = ev.projected_run_correlation(first[first["qid"] != "t4"], second[second["qid"] != "t4"],
                                         score_first="score", score_second="score", topics=10)
    assert projected.attrs["topics"] == 4 and projected.attrs["runs"] == 8
    assert projected.equals(four)
