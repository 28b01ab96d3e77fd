"""The benchmarks run on tiny inputs (a track of 2 topics x 2 runs, one round), so that they cannot rot."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("RAG_AXIOMS_SHARED_DATA", PROJECT_ROOT.parent / "shared" / "data"))
needs_dev_assignments = pytest.mark.skipif(
    not (DATA / "trec-rag-2024" / "nugget_assignment.dev.jsonl").is_file(),
    reason="needs the TREC 2024 RAG development assignments in ../shared/data",
)


def run_benchmark(script: str, *arguments: str) -> subprocess.CompletedProcess:
    """Run ``benchmarks/<script>`` in a fresh process; fails the test where it exits non-zero."""
    run = subprocess.run(
        [sys.executable, str(PROJECT_ROOT / "benchmarks" / script), *arguments],
        capture_output=True, text=True, env={**os.environ, "HF_HUB_OFFLINE": "1"}, timeout=900, check=False,
    )
    assert run.returncode == 0, run.stderr
    return run


@needs_dev_assignments
def test_bench_track_prints_every_stage_on_a_tiny_track():
    run = run_benchmark("bench_track.py", "--topics", "2", "--runs", "2")
    assert "2 topics x 2 runs = 4 answers" in run.stdout
    rows = {}
    for stage in ("run judge (before: int8 transformer)", "run judge", "extractor (before: transformer)", "extractor",
                  "assigner (before: in one process)", "assigner", "judge and assigner on one parse"):
        line = next(line for line in run.stdout.splitlines() if line[:42].strip() == stage)
        figures = line[42:].split()
        assert float(figures[0]) >= float(figures[1]) > 0 and float(figures[3]) > 0  # wall seconds, peak MiB
        rows[stage] = int(figures[4])
    assert rows["assigner"] == rows["assigner (before: in one process)"] > 0  # one row per (answer, nugget)
    assert rows["judge and assigner on one parse"] == rows["assigner"]
    assert rows["run judge"] == rows["run judge (before: int8 transformer)"] == 4  # one row per answer


@needs_dev_assignments
def test_the_run_judge_benchmark_prints_its_stages_on_a_tiny_track():
    run = run_benchmark("bench_run_judge.py", "--topics", "1", "--runs", "3")
    assert run.stdout.startswith("3 answers, encoder static, cold in a fresh process")
    stages = {line.split("  ")[1].strip() for line in run.stdout.splitlines()[1:]}
    assert {"loading spaCy", "spaCy syntax", "encoding", "axiom POOL3", "axiom COV7"} <= stages


def test_the_spacy_components_benchmark_finds_the_same_annotations_and_prints_each_part():
    run = run_benchmark("bench_spacy_components.py", "--rounds", "1")
    lines = run.stdout.splitlines()
    assert "1 rounds each" in lines[0] and lines[0].endswith("same annotations: True")
    parts = {line[:20].strip(): line[20:].split() for line in lines[2:]}
    assert set(parts) == {"parse before them", "attribute_ruler", "lemmatizer", "all"}
    assert all(float(spacy) >= 0 and float(faster) >= 0 for spacy, faster, _ in parts.values())  # 0.00: fast CPUs
