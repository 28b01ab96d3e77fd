"""From TREC run files to tau: assign on the shipped sample, nuggetizer's formats both ways, runs on run files."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from pyterrier_rag_axioms.cli import SUBCOMMANDS, main
from pyterrier_rag_axioms.cli.judge import OTHER_COMMANDS
from pyterrier_rag_axioms.judgments import load_nugget_assignments
from pyterrier_rag_axioms.sample import trec_sample_path, trec_sample_runs

NUGGETIZER_KEYS = ["qid", "query", "run_id", "answer_text", "response_length", "nuggets"]


def _nuggetizer_means(path: Path) -> pd.DataFrame:
    """Each run's mean of nuggetizer's per-answer scores (its scorer's definitions, written out here)."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        nuggets = record["nuggets"]
        vital = [n for n in nuggets if n["importance"] == "vital"]

        def share(items, partial):
            if not items:
                return 0.0
            full = sum(n["assignment"] == "support" for n in items)
            return (full + partial * sum(n["assignment"] == "partial_support" for n in items)) / len(items)

        rows.append((record["run_id"], share(nuggets, 0.5), share(vital, 0.5), share(nuggets, 0.0), share(vital, 0.0)))
    frame = pd.DataFrame(rows, columns=["run", "all", "vital", "all_strict", "vital_strict"])
    return frame.groupby("run").mean()


@pytest.fixture(scope="module")
def assigned(tmp_path_factory) -> dict:
    """``rag-axioms assign`` without run files: the shipped sample against its NIST assignments."""
    folder = tmp_path_factory.mktemp("assign")
    outputs = {name: folder / name for name in ("assigned.jsonl", "runs.tsv", "per-topic.tsv", "flat.parquet")}
    from contextlib import redirect_stdout
    from io import StringIO

    printed = StringIO()
    with redirect_stdout(printed):
        status = main(["assign", "--quiet", "--assignments", str(outputs["assigned.jsonl"]),
                       "--output", str(outputs["runs.tsv"]), "--per-topic", str(outputs["per-topic.tsv"])])
    assert status == 0
    return {"out": printed.getvalue(), **outputs}


def test_assign_on_the_sample_prints_both_rankings_tau_per_topic_and_a_warning(assigned):
    out = assigned["out"]
    assert out.startswith("16 answers of 8 runs to 2 topics")
    assert "manual (assignments.jsonl)" in out
    assert "Kendall's tau between the automatic and the manual ranking of 8 runs:" in out
    assert "95% interval over 2 topics" in out
    assert "warning: the 95% interval resamples only 2 topics; below 10 topics" in out
    tau_lines = [line.split() for line in out.splitlines() if line.strip().startswith(("all ", "vital "))]
    assert [line[0] for line in tau_lines] == ["all", "vital"]
    assert all(-1.0 <= float(line[1]) <= 1.0 for line in tau_lines)
    assert "2024-142395" in out.split("Kendall's tau within each topic (all):")[1]


def test_assignments_are_written_in_nuggetizer_format_and_score_to_the_table(assigned):
    lines = assigned["assigned.jsonl"].read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    assert len(records) == 16 and list(records[0])[:6] == NUGGETIZER_KEYS
    assert {"text", "importance", "assignment", "confidence", "spans"} <= set(records[0]["nuggets"][0])
    answers = [json.loads(line) for path in trec_sample_runs() for line in path.read_text().splitlines()]
    texts = {(answer["topic_id"], answer["run_id"]): answer["answer"][0]["text"] for answer in answers}
    assert all(record["answer_text"] == texts[(record["qid"], record["run_id"])] for record in records)
    table = pd.read_csv(assigned["runs.tsv"], sep="\t").set_index("run")
    theirs = _nuggetizer_means(assigned["assigned.jsonl"])
    for column in theirs.columns:
        assert table[column].sort_index().to_numpy() == pytest.approx(theirs[column].sort_index().to_numpy())
    frame = load_nugget_assignments(assigned["assigned.jsonl"])  # the package reads its own output
    assert len(frame) == 16 and frame["docno"].nunique() == 8


def test_per_topic_scores_serve_a_paired_test(assigned):
    from scipy.stats import ttest_rel

    per_topic = pd.read_csv(assigned["per-topic.tsv"], sep="\t", dtype={"qid": str})
    assert {"qid", "run", "auto_all", "manual_all", "auto_vital_strict", "manual_vital_strict"} <= set(per_topic)
    assert len(per_topic) == 16
    wide = per_topic.pivot(index="qid", columns="run", values="auto_all")
    result = ttest_rel(wide["ldilab_gpt_4o"], wide["iiia_dedup_p1_straight_ag"])
    assert 0.0 <= result.pvalue <= 1.0


def test_runs_reads_what_assign_writes(assigned, capsys):
    assert main(["runs", "--quiet", "--nuggets", str(assigned["assigned.jsonl"]), "--axioms", "LEN1"]) == 0
    out = capsys.readouterr().out
    table = pd.read_csv(assigned["runs.tsv"], sep="\t").set_index("run")
    best = table["all"].idxmax()
    row = next(line for line in out.splitlines() if f" {best} " in line)
    assert f"{table.loc[best, 'all']:.3f}" in row


def test_the_flat_table_by_suffix(tmp_path, capsys):
    (run,) = [path for path in trec_sample_runs() if path.stem == "FT-llama3"]
    flat = tmp_path / "flat.tsv"
    status = main(["assign", "--quiet", str(run), "--nuggets", str(trec_sample_path("nuggets.jsonl")),
                   "--assignments", str(flat)])
    assert status == 0
    table = pd.read_csv(flat, sep="\t")
    assert list(table.columns[:6]) == ["qid", "docno", "nugget_id", "nugget", "importance", "assignment"]
    assert len(table) == sum(len(json.loads(line)["nuggets"])
                             for line in trec_sample_path("nuggets.jsonl").read_text().splitlines())
    assert main(["assign", str(run)]) == 2
    assert "--nuggets" in capsys.readouterr().err


def test_runs_takes_trec_run_files_and_defaults_to_the_sample(tmp_path, capsys):
    runs = [str(path) for path in trec_sample_runs()]
    per_topic = tmp_path / "per-topic.jsonl"
    assert main(["runs", "--quiet", *runs, "--axioms", "LEN1", "--per-topic", str(per_topic)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("16 responses of 8 runs to 2 topics from 8 files")
    assert "Runs ranked by the win rate of the axioms LEN1 (majority)" in out
    assert len(per_topic.read_text().splitlines()) == 16
    assert main(["runs", "--quiet", "--axioms", "LEN1"]) == 0
    out = capsys.readouterr().out
    assert "nugget score" in out and "warning: the 95% interval resamples only 2 topics" in out


def test_help_lists_every_subcommand_and_says_the_defaults(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert set(SUBCOMMANDS) - {"judge"} == set(OTHER_COMMANDS)
    for command in OTHER_COMMANDS:
        assert command in text
    with pytest.raises(SystemExit):
        main(["runs", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "mean score per response of a judge (default: the shipped model nuggets" in text
    assert "Without input files: the TREC 2024 RAG sample" in text
