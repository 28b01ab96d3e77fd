"""``rag-axioms score``: two assignment files compared, other kinds of file named, and runs scored on fewer
topics named with TREC's rule applied."""

from __future__ import annotations

import json

from pyterrier_rag_axioms.cli import main
from pyterrier_rag_axioms.sample import trec_sample_path, trec_sample_runs


def sample_lines() -> list[dict]:
    return [json.loads(line) for line in trec_sample_path("assignments.jsonl").read_text().splitlines()]


def write(path, lines) -> str:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return str(path)


def test_score_compares_two_assignment_files_as_assign_manual_compares_runs(tmp_path, capsys):
    lines = sample_lines()
    for line in lines:
        if line["run_id"] == "ginger_top_5":  # the first file credits one run with everything
            for nugget in line["nuggets"]:
                nugget["assignment"] = "support"
    first = write(tmp_path / "mine.jsonl", lines)
    manual = str(trec_sample_path("assignments.jsonl"))
    assert main(["score", first, "--manual", manual, "--per-topic", str(tmp_path / "per-topic.tsv")]) == 0
    out = capsys.readouterr().out
    header, columns, *rows = out.splitlines()[1:11]
    assert "mine.jsonl" in header and "manual (assignments.jsonl)" in header
    assert columns.split().count("rank") == 2
    by_run = {row.split()[0]: row.split() for row in rows}
    assert by_run["ginger_top_5"][2] == "1.000" and by_run["ginger_top_5"][6] == "1"  # first on the first file
    assert by_run["ginger_top_5"][-1] == "7" == by_run["iiia_dedup_p1_straight_ag"][-1]  # 0.100 and 0.100 tie
    assert "Kendall's tau between the rankings of mine.jsonl and assignments.jsonl of 8 runs:" in out
    assert "Kendall's tau within each topic (all):" in out
    assert main(["score", first, "--manual", str(tmp_path / "mine.jsonl"), "--confidence", "2"]) == 2


def test_score_names_the_kind_of_a_file_that_holds_no_assignments(tmp_path, capsys):
    run_file = str(trec_sample_runs()[0])
    assert main(["score", run_file]) == 2
    assert f"{run_file}:1: this looks like a TREC 2024 RAG run file (topic_id, answer)" in capsys.readouterr().err
    assert main(["score", str(trec_sample_path("nuggets.jsonl"))]) == 2
    assert "this looks like a nugget file" in capsys.readouterr().err


def test_score_counts_a_topic_a_run_lacks_as_zero_and_names_the_run(tmp_path, capsys):
    lines = [line for line in sample_lines() if not (line["run_id"] == "ginger_top_5" and line["qid"] == "2024-29182")]
    for line in lines:
        if line["run_id"] == "FT-llama3" and line["qid"] == "2024-29182":
            for nugget in line["nuggets"]:
                nugget["counted"] = False  # drawn from its own words: earns nothing, stays in the mean
    path = write(tmp_path / "fewer.jsonl", lines)
    table = tmp_path / "runs.jsonl"
    assert main(["score", path, "--output", str(table)]) == 0
    captured = capsys.readouterr()
    assert (
        "note: 1 run is scored on fewer than the 2 topics of the others: 'ginger_top_5' on 1; the topics a run "
        "lacks count 0 in its mean (TREC's rule)"
    ) in captured.err
    assert captured.out.startswith("15 answers of 8 runs to 2 topics")
    written = {row["run"]: row for row in map(json.loads, table.read_text().splitlines())}
    assert {row["topics"] for row in written.values()} == {2}
    by_hand = {line["qid"]: line for line in sample_lines() if line["run_id"] == "FT-llama3"}
    supported = by_hand["2024-142395"]["nuggets"]
    first = sum({"support": 1.0, "partial_support": 0.5}.get(n["assignment"], 0.0) for n in supported) / len(supported)
    assert abs(written["FT-llama3"]["all"] - first / 2) < 1e-9  # (first topic + 0) / 2


def test_score_refuses_counted_that_is_not_a_boolean(tmp_path, capsys):
    lines = sample_lines()
    lines[2]["nuggets"][0]["counted"] = "False"
    path = write(tmp_path / "text.jsonl", lines)
    assert main(["score", path]) == 2
    assert f"{path}:3: field 'counted' of nugget 0 must be true or false, not 'False'" in capsys.readouterr().err


def test_score_manual_that_lacks_an_answer_says_so_and_counts_the_topic_zero(tmp_path, capsys):
    manual = write(tmp_path / "manual.jsonl", sample_lines()[1:])
    first = str(trec_sample_path("assignments.jsonl"))
    assert main(["score", first, "--manual", manual]) == 0
    captured = capsys.readouterr()
    lacking = sample_lines()[0]["run_id"]
    assert "1 of the 16 answers have no manual assignments in" in captured.err
    assert f"1 run is scored on fewer than the 2 topics of the others: {lacking!r} on 1" in captured.err
