"""Saved assignments carry what the scores use: ``assign --assignments`` records ``counted`` (no self-credit), and
rescoring the file (``runs --nuggets``, ``load_nugget_assignments`` with ``nugget_scores``) gives the table that
``assign`` printed. End to end, on the shipped TREC sample, with the real command line."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from conftest import cli_error, run_cli, write_records

from pyterrier_rag_axioms.evaluation.comparison import per_topic_nugget_scores, run_nugget_table
from pyterrier_rag_axioms.judgments import load_nugget_assignments
from pyterrier_rag_axioms.sample import trec_sample_path, trec_sample_runs

#: The run whose own words the first half of each topic's nuggets are said to be drawn from.
OWN_WORDS = "ldilab_gpt_4o"
SCORES = ["all", "vital", "weighted", "all_strict", "vital_strict", "weighted_strict"]


@pytest.fixture(scope="module")
def assigned(tmp_path_factory):
    """``assign`` on the sample's runs, with its nuggets marked as drawn from one run's words: the printed
    table, the saved table and the saved assignments."""
    folder = tmp_path_factory.mktemp("assigned")
    topics = [json.loads(line) for line in trec_sample_path("nuggets.jsonl").read_text().splitlines()]
    for topic in topics:
        for nugget in topic["nuggets"][: len(topic["nuggets"]) // 2]:
            nugget["drawn_from"] = [OWN_WORDS]
    nuggets = write_records(folder / "nuggets.jsonl", topics)
    runs = [str(path) for path in trec_sample_runs()]
    completed = run_cli("assign", *runs, "--nuggets", str(nuggets), "--assignments", "assigned.jsonl",
                        "--output", "table.tsv", "--quiet", cwd=folder)
    assert completed.returncode == 0, completed.stderr
    table = pd.read_csv(folder / "table.tsv", sep="\t")
    return {"folder": folder, "stdout": completed.stdout, "table": table, "file": folder / "assigned.jsonl"}


def test_the_saved_assignments_mark_each_nugget_drawn_from_the_answers_own_words(assigned):
    records = [json.loads(line) for line in assigned["file"].read_text().splitlines()]
    for record in records:
        marks = [nugget["counted"] for nugget in record["nuggets"]]
        half = len(marks) // 2
        if record["run_id"] == OWN_WORDS:
            assert marks == [False] * half + [True] * (len(marks) - half)
        else:
            assert all(marks)
    frame = load_nugget_assignments(assigned["file"])
    assert [nugget.get("counted") for nugget in frame["nuggets"].iloc[0]] == [
        nugget["counted"] for nugget in records[0]["nuggets"]
    ]


def test_rescoring_the_saved_file_gives_the_printed_table(assigned):
    rescored = run_nugget_table(per_topic_nugget_scores(load_nugget_assignments(assigned["file"])))
    printed = assigned["table"].set_index("run")[SCORES].sort_index()
    pd.testing.assert_frame_equal(rescored.set_index("run")[SCORES].sort_index(), printed, check_exact=False,
                                  atol=5e-7)
    # the mark matters here: without it, the run of the own words scores otherwise
    records = [json.loads(line) for line in assigned["file"].read_text().splitlines()]
    for record in records:
        for nugget in record["nuggets"]:
            del nugget["counted"]
    unmarked = write_records(assigned["folder"] / "unmarked.jsonl", records)
    credited = run_nugget_table(per_topic_nugget_scores(load_nugget_assignments(unmarked))).set_index("run")
    assert abs(credited.loc[OWN_WORDS, "all"] - printed.loc[OWN_WORDS, "all"]) > 0.001


def test_runs_with_the_saved_assignments_shows_the_printed_nugget_scores(assigned):
    completed = run_cli("runs", "--nuggets", str(assigned["file"]), "--output", "runs.tsv", "--quiet",
                        cwd=assigned["folder"])
    assert completed.returncode == 0, completed.stderr
    shown = pd.read_csv(assigned["folder"] / "runs.tsv", sep="\t").set_index("run")
    printed = assigned["table"].set_index("run")
    for run in printed.index:
        assert shown.loc[run, "nugget_score"] == pytest.approx(printed.loc[run, "all"], abs=5e-7), run
        assert shown.loc[run, "nugget_rank"] == printed.loc[run, "rank"], run


def test_a_counted_mark_that_is_not_true_or_false_is_refused_naming_file_and_line(tmp_path):
    record = {"qid": "q", "query": "Q?", "run_id": "r", "answer_text": "A.", "response_length": 1,
              "nuggets": [{"text": "A", "importance": "vital", "assignment": "support", "counted": 0}]}
    path = write_records(tmp_path / "a.jsonl", [record])
    with pytest.raises(ValueError, match=r"a\.jsonl:1: field 'counted' of nugget 0 must be true or false, not 0"):
        load_nugget_assignments(path)


def _table_lines(stdout: str) -> list[str]:
    """The run table a command printed: the lines after its first, up to the notes of written files."""
    return [line for line in stdout.splitlines()[1:] if " written to " not in line]


def test_score_prints_the_table_assign_printed_and_saves_each_answers_scores(assigned):
    completed = run_cli("score", str(assigned["file"]), "--output", "scored.tsv", "--per-topic", "answers.jsonl",
                        cwd=assigned["folder"])
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == ""
    assert completed.stdout.splitlines()[0] == f"16 answers of 8 runs to 2 topics from {assigned['file']}"
    assert _table_lines(completed.stdout) == _table_lines(assigned["stdout"])
    pd.testing.assert_frame_equal(pd.read_csv(assigned["folder"] / "scored.tsv", sep="\t"), assigned["table"])
    answers = pd.read_json(assigned["folder"] / "answers.jsonl", lines=True, dtype={"qid": str})
    assert list(answers.columns) == ["qid", "run", *SCORES] and len(answers) == 16


def test_score_of_nists_sample_assignments(tmp_path):
    completed = run_cli("score", str(trec_sample_path("assignments.jsonl")), cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert lines[1].split() == ["run", "topics", *SCORES, "rank"]
    assert lines[2].split() == ["ldilab_gpt_4o", "2", "0.503", "0.698", "0.565", "0.503", "0.698", "0.565", "1"]


def test_score_refuses_an_answer_given_twice_and_an_unknown_output_format_in_one_line(tmp_path):
    sample = trec_sample_path("assignments.jsonl")
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes(sample.read_bytes())
    line = cli_error(run_cli("score", str(sample), str(copy), cwd=tmp_path))
    assert line.startswith(f"rag-axioms score: error: {copy}: run ") and f"is assigned in {sample} too" in line
    line = cli_error(run_cli("score", str(sample), "--output", "table.txt", cwd=tmp_path))
    assert "table.txt: unknown file format" in line


def test_score_rescores_the_flat_table_of_assign_to_the_printed_table(assigned):
    folder = assigned["folder"]
    runs = [str(path) for path in trec_sample_runs()]
    completed = run_cli("assign", *runs, "--nuggets", "nuggets.jsonl", "--assignments", "flat.tsv", "--quiet",
                        cwd=folder)
    assert completed.returncode == 0, completed.stderr
    flat = pd.read_csv(folder / "flat.tsv", sep="\t", dtype={"qid": str})
    assert set(flat["counted"]) == {True, False}
    from pyterrier_rag_axioms.io import write_frame

    write_frame(flat, folder / "flat.parquet")
    for name in ("flat.tsv", "flat.parquet"):
        scored = run_cli("score", name, cwd=folder)
        assert scored.returncode == 0, scored.stderr
        assert _table_lines(scored.stdout) == _table_lines(assigned["stdout"]), name
    flat = flat.astype({"counted": object})
    flat.loc[3, "counted"] = "maybe"
    flat.to_csv(folder / "bad.tsv", sep="\t", index=False)
    assert cli_error(run_cli("score", "bad.tsv", cwd=folder)) == (
        "rag-axioms score: error: bad.tsv:5: counted must be True or False, not 'maybe'"  # line 5: after the header
    )
    flat = pd.read_parquet(folder / "flat.parquet")
    flat["counted"] = flat["counted"].map(str)  # text where Parquet holds booleans: "False" is not read as true
    flat.to_parquet(folder / "bad.parquet")
    first = flat["counted"].iloc[0]
    assert cli_error(run_cli("score", "bad.parquet", cwd=folder)) == (
        f"rag-axioms score: error: bad.parquet: row 1: counted must be True or False, not {first!r}"
    )
