"""Rankings written as TREC run files refuse ids with whitespace; rankers check their options."""

from __future__ import annotations

import pytest
from conftest import two_systems

import pyterrier_rag_axioms as pra
from pyterrier_rag_axioms.cli.rerank import write_ranking
from pyterrier_rag_axioms.reranking import AxiomaticReranker, KwikSort


def test_trec_run_files_refuse_ids_with_whitespace(tmp_path):
    ranking = KwikSort(pra.CORR1())(two_systems().assign(docno=["run A", "B"]))
    path = tmp_path / "ranking.run"
    with pytest.raises(ValueError, match="docno 'run A' .* cannot go into a TREC run file"):
        write_ranking(ranking, path, run_name="test")
    assert not path.exists()
    with pytest.raises(ValueError, match="run name 'my run' must be one word"):
        write_ranking(ranking.assign(docno=["A", "B"]), path, run_name="my run")


def test_kwiksort_refuses_a_negative_seed():
    with pytest.raises(ValueError, match="KwikSort: seed must be a whole number >= 0, not -1"):
        KwikSort("pref", seed=-1)
    with pytest.raises(ValueError, match="AxiomaticReranker: seed must be"):
        AxiomaticReranker(pra.CORR1(), seed=-1)
