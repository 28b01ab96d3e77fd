"""Run means that keep their meaning: answers without counted nuggets score 0, missing topics count 0
(TREC's rule), a run scored on fewer topics is named, and ties share a rank."""

from __future__ import annotations

import json
import warnings

import pandas as pd
import pytest

from pyterrier_rag_axioms.evaluation import mean_run_scores
from pyterrier_rag_axioms.judgments import load_nugget_assignments, nugget_score, nugget_scores


def nugget(assignment: str, *, importance: str = "vital", counted: object = True) -> dict:
    return {"text": f"fact {assignment}", "importance": importance, "assignment": assignment, "counted": counted}


def test_an_answer_without_counted_nuggets_scores_zero_not_nan():
    assert nugget_score([]) == 0.0
    assert nugget_score([nugget("support", counted=False), nugget("not_support", counted=False)]) == 0.0
    assert nugget_score([nugget("support", counted=False)], score_type="vital") == 0.0
    # a topic without vital nuggets has no Vital score for anyone
    assert pd.isna(nugget_score([nugget("support", importance="okay")], score_type="vital"))
    assert nugget_score([nugget("support", counted=False), nugget("support")]) == 1.0


def test_an_answer_without_counted_nuggets_stays_in_its_runs_mean():
    rows = pd.DataFrame(
        {
            "qid": ["t1", "t1", "t2", "t2"],
            "docno": ["A", "B", "A", "B"],
            "nuggets": [[nugget("support", counted=False)], [nugget("support")], [nugget("support")], []],
        }
    )
    scores = nugget_scores(rows)
    assert scores["score"].tolist() == [0.0, 1.0, 1.0, 0.0]
    table = mean_run_scores(scores).set_index("run")
    assert table["topics"].to_dict() == {"A": 2, "B": 2}
    assert table["score"].to_dict() == {"A": 0.5, "B": 0.5}


def test_a_run_missing_a_topic_counts_it_zero_and_is_named():
    scores = pd.DataFrame({"qid": ["t1", "t1", "t2"], "docno": ["A", "B", "A"], "score": [0.4, 0.9, 0.6]})
    with pytest.warns(
        UserWarning,
        match=r"1 run is scored on fewer than the 2 topics of the others: 'B' on 1; "
        r"the topics a run lacks count 0 in its mean \(TREC's rule\)",
    ):
        table = mean_run_scores(scores).set_index("run")
    assert table["score"].to_dict() == pytest.approx({"A": 0.5, "B": 0.45})
    assert table["topics"].to_dict() == {"A": 2, "B": 2}
    assert table["rank"].to_dict() == {"A": 1, "B": 2}
    assert table.attrs["fewer_topics"] == {"B": 1}
    with pytest.warns(UserWarning, match="are left out of its mean"):
        skipped = mean_run_scores(scores, missing="skip").set_index("run")
    assert skipped["score"].to_dict() == pytest.approx({"A": 0.5, "B": 0.9})
    assert skipped["topics"].to_dict() == {"A": 2, "B": 1}
    with pytest.raises(ValueError, match="missing must be one of 'zero', 'skip', not 'drop'"):
        mean_run_scores(scores, missing="drop")


def test_a_topic_no_run_is_scored_on_counts_for_none():
    scores = pd.DataFrame(
        {
            "qid": ["t1", "t1", "t2", "t2"],
            "docno": ["A", "B", "A", "B"],
            "score": [0.2, 0.4, float("nan"), float("nan")],
        }
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no run is scored on fewer topics than another
        table = mean_run_scores(scores).set_index("run")
    assert table["topics"].to_dict() == {"A": 1, "B": 1}
    assert table["score"].to_dict() == pytest.approx({"A": 0.2, "B": 0.4})


def test_ties_share_a_rank_even_when_their_means_differ_in_the_last_bits():
    # 0.1 + 0.2 + 0.3 and 0.3 + 0.2 + 0.1 differ in the last bit; both means print 0.2
    scores = pd.DataFrame(
        {
            "qid": ["t1", "t2", "t3"] * 3,
            "docno": ["A"] * 3 + ["B"] * 3 + ["C"] * 3,
            "score": [0.1, 0.2, 0.3, 0.3, 0.2, 0.1, 0.0, 0.0, 0.1],
        }
    )
    table = mean_run_scores(scores)
    assert table["run"].tolist() == ["A", "B", "C"]
    assert table["rank"].tolist() == [1, 1, 3]


def test_counted_takes_booleans_only(tmp_path):
    path = tmp_path / "assignments.jsonl"
    lines = [
        {
            "qid": "t1",
            "query": "q?",
            "run_id": "A",
            "answer_text": "An answer.",
            "response_length": 2,
            "nuggets": [{"text": "fact", "importance": "vital", "assignment": "support", "counted": flag}],
        }
        for flag in (True,)
    ]
    lines.append({**lines[0], "run_id": "B", "nuggets": [{**lines[0]["nuggets"][0], "counted": "False"}]})
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.raises(ValueError, match=rf"^{path}:2: field 'counted' of nugget 0 must be true or false, not 'False'"):
        load_nugget_assignments(path)
    rows = pd.DataFrame(
        {"qid": ["t1"], "docno": ["A"], "importance": ["vital"], "assignment": ["support"], "counted": ["False"]}
    )
    with pytest.raises(ValueError, match="row 0: counted must be True or False, not 'False'"):
        nugget_scores(rows)
    nested = pd.DataFrame({"qid": ["t1"], "docno": ["A"], "nuggets": [[nugget("support", counted="False")]]})
    with pytest.raises(ValueError, match="run 'A' on topic 't1': nugget 0: counted must be True or False, not 'False'"):
        nugget_scores(nested)


def test_tau_between_two_assignments_compares_the_rankings_the_run_tables_print():
    from scipy.stats import kendalltau

    from pyterrier_rag_axioms.evaluation.comparison import compare_nugget_rankings, run_nugget_table

    runs, topics = ["A", "B", "C", "D"], ["t1", "t2", "t3"]
    first = pd.DataFrame(
        [
            {"qid": qid, "run": run, "all": value}
            for qid, values in zip(topics, ([0.9, 0.5, 0.7, 0.1], [0.8, 0.6, 0.9, 0.2], [0.7, 0.4, 0.8, 0.3]))
            for run, value in zip(runs, values)
        ]
    )
    first = first.assign(
        **{column: first["all"] for column in ("vital", "weighted", "all_strict", "vital_strict", "weighted_strict")}
    )
    second = first.assign(all=first["all"] * 0.9)
    second = second[~((second["run"] == "C") & (second["qid"] != "t1"))]  # C is scored on t1 alone there
    with pytest.warns(UserWarning, match="'C' on 1"):
        printed = run_nugget_table(second).set_index("run")["all"]
    expected = kendalltau(run_nugget_table(first).set_index("run")["all"][runs], printed[runs]).statistic
    taus = compare_nugget_rankings(first, second, resamples=50).set_index("score")
    assert taus.loc["all", "tau"] == pytest.approx(expected)
    assert taus.loc["all", "topics"] == 3 and taus.loc["all", "runs"] == 4
