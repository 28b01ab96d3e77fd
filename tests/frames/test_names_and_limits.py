"""Nobody overwritten, nothing too large: names that would replace a frame column are refused, and a
frame that needs more pairs than fit is refused before any pair is built."""

from __future__ import annotations

import time
import warnings

import pandas as pd
import pytest
from conftest import cli_error, run_cli

import pyterrier_rag_axioms as rag

# --- names equal to frame columns ---------------------------------------------------------------


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


# --- too many pairs ------------------------------------------------------------------------


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
    for command in ([], ["rerank", "--method", "count"]):  # KwikSort asks for far fewer pairs
        completed = run_cli(*command, "--axioms", "LEN1", cwd=tmp_path, RAG_AXIOMS_MAX_PAIRS="10")
        assert "max_pairs" in cli_error(completed)
