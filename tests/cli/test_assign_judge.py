"""``rag-axioms assign --judge``: the run judge on the same parses, its ranking beside the nuggets' with tau."""

from __future__ import annotations

import pandas as pd
from conftest import run_cli

from pyterrier_rag_axioms import PreferenceModel
from pyterrier_rag_axioms.evaluation import mean_run_scores
from pyterrier_rag_axioms.judgments import load_run_files
from pyterrier_rag_axioms.sample import trec_sample_path, trec_sample_runs


def test_assign_with_the_judge_ranks_the_runs_both_ways_and_gives_the_judge_alone_scores(tmp_path):
    runs = [str(path) for path in trec_sample_runs()]
    nuggets, table = str(trec_sample_path("nuggets.jsonl")), tmp_path / "runs.tsv"
    completed = run_cli("assign", *runs, "--nuggets", nuggets, "--judge", "--output", str(table), "--quiet",
                        cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    assert "Kendall's tau between the run judge's ranking and the assigned nuggets' (all):" in completed.stdout
    written = pd.read_csv(table, sep="\t")
    assert {"judge_score", "judge_rank"} <= set(written.columns) and len(written) == 8
    responses = load_run_files(runs)
    responses = responses[responses["qid"].isin(set(pd.read_json(nuggets, lines=True)["qid"].astype(str)))]
    alone = PreferenceModel.default("nuggets", processes=1).scores(responses[["qid", "query", "docno", "response"]])
    expected = mean_run_scores(alone, score="PreferenceModel_score").set_index("run")["PreferenceModel_score"]
    got = written.set_index("run")["judge_score"]
    pd.testing.assert_series_equal(got.sort_index(), expected.loc[got.index].sort_index(), check_names=False,
                                   rtol=1e-9)
    assert written.sort_values("judge_rank")["run"].iloc[0] == expected.idxmax()


def test_assign_with_the_judge_and_manual_assignments_prints_the_judges_ranking_too(tmp_path):
    completed = run_cli("assign", "--judge", "--quiet", cwd=tmp_path)  # the sample, with NIST's as --manual
    assert completed.returncode == 0, completed.stderr
    assert "manual (assignments.jsonl)" in completed.stdout
    judged = completed.stdout.split("The run judge's ranking (mean score per answer):\n")[1].splitlines()
    assert judged[0].split() == ["run", "judge_score", "judge_rank"]
    ranks = [int(line.split()[-1]) for line in judged[1:9]]
    assert len(ranks) == 8 and ranks == sorted(ranks) and ranks[0] == 1
