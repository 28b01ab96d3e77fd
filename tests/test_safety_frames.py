"""Nobody overwritten, nothing too large: names that would replace a frame column are refused, and a
frame that needs more pairs than fit is refused before any pair is built."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pandas as pd
import pytest

import pyterrier_rag_axioms as rag

PROJECT_ROOT = Path(__file__).resolve().parents[1]


# --- 4. names equal to frame columns ---------------------------------------------------------------


@pytest.mark.parametrize("column", ["qid", "query", "docno_a", "response_a", "response_b", "context_b", "docno"])
@pytest.mark.parametrize(
    "build",
    [
        lambda name: rag.LEN1(name=name),
        lambda name: rag.CLAR2(name=name),
        lambda name: rag.PreferenceModel(axioms=["LEN1"], coefficients=[1.0], name=name),
        lambda name: rag.MajorityVote(rag.LEN1(), rag.CLAR2(), name=name),
    ],
    ids=["axiom", "text-axiom", "model", "combinator"],
)
def test_a_name_that_is_a_frame_column_is_refused_at_construction(build, column):
    with pytest.raises(ValueError, match=rf"name {column!r} .*column"):
        build(column)


# --- 14. too many pairs ------------------------------------------------------------------------


def _responses(per_query: int, queries: int = 1) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "qid": [f"q{q}" for q in range(queries) for _ in range(per_query)],
            "query": [f"question {q}" for q in range(queries) for _ in range(per_query)],
            "docno": [str(d) for _ in range(queries) for d in range(per_query)],
            "response": [f"answer number {d}" for _ in range(queries) for d in range(per_query)],
        }
    )


def test_a_frame_that_needs_more_than_max_pairs_is_refused_with_the_ways_out(monkeypatch):
    monkeypatch.setenv("RAG_AXIOMS_MAX_PAIRS", "2000")
    with pytest.raises(ValueError, match=r"(?i)2,450 pairs.*max_pairs.*split.*values"):
        rag.LEN1()(_responses(50, queries=2))


def test_a_frame_near_max_pairs_gives_a_warning(monkeypatch):
    monkeypatch.setenv("RAG_AXIOMS_MAX_PAIRS", "5000")  # warns above a quarter
    with pytest.warns(UserWarning, match=r"2,450 pairs"):
        rag.LEN1()(_responses(50, queries=2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rag.LEN1()(_responses(5))


@pytest.mark.parametrize(
    "judge",
    [lambda: rag.LEN1(), lambda: rag.MajorityVote(rag.LEN1(), rag.CLAR2()),
     lambda: rag.AxiomaticReranker(rag.LEN1(), method="count")],
    ids=["axiom", "combinator", "counting-reranker"],
)
def test_thirty_thousand_responses_to_one_query_are_refused_at_once(monkeypatch, judge):
    monkeypatch.delenv("RAG_AXIOMS_MAX_PAIRS", raising=False)
    responses = _responses(30_000)
    started = time.monotonic()
    with pytest.raises(ValueError, match=r"449,985,000 pairs .*qid 'q0'.*max_pairs=10,000,000"):
        judge()(responses)
    assert time.monotonic() - started < 30


def test_kwiksort_ranks_many_responses_without_all_their_pairs(monkeypatch):
    monkeypatch.setenv("RAG_AXIOMS_MAX_PAIRS", "1000")
    ranking = rag.KwikSort(rag.LEN1())(_responses(200))  # 19,900 pairs, but KwikSort asks for far fewer
    assert sorted(ranking["rank"]) == list(range(200))


def test_the_command_line_refuses_too_many_pairs_in_one_line(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "HF_HUB_OFFLINE": "1", "RAG_AXIOMS_MAX_PAIRS": "10"}
    for command in ([], ["rerank", "--method", "count"]):  # KwikSort asks for far fewer pairs
        completed = subprocess.run(
            [sys.executable, "-m", "pyterrier_rag_axioms", *command, "--axioms", "LEN1"],
            capture_output=True, text=True, env=env, cwd=tmp_path, check=False, timeout=600,
        )
        assert "Traceback" not in completed.stderr, completed.stderr
        assert completed.returncode == 2, completed.stdout
        assert len(completed.stderr.strip().splitlines()) == 1 and "max_pairs" in completed.stderr
