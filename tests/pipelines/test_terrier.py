"""Terrier retrieval in the RAG pipeline: ``pt.terrier.Retriever(index, wmodel="BM25") >> generator >> axioms``.

A Terrier index is built over the passages of the shipped sample (the ``context`` lists of
``data/sample/responses.jsonl``). The generator is extractive (no language model): for each depth k
it answers with the first sentence of each of the top-k passages, cited as ``[i]``, and keeps those
k passages as the response's own context. Terrier's jars come from Maven Central through
PyTerrier's resolver (``make terrier`` fetches them during set-up, pinned by ``TERRIER_VERSION``).
"""

from __future__ import annotations

import importlib.util
import re

import pandas as pd
import pyterrier as pt
import pytest

import pyterrier_rag_axioms as pra

if importlib.util.find_spec("jnius") is None:  # importing it would start Java before PyTerrier configures it
    pytest.skip("Terrier needs pyjnius: pip install 'pyterrier-rag-axioms[terrier]'", allow_module_level=True)


class ExtractiveGenerator(pt.Transformer):
    """Answers each query with the first sentence of each of its top-k passages, for several k.

    Writes one response per depth (docno ``top-<k>``) with the passages it used as its ``context``.
    """

    def __init__(self, *, depths: tuple[int, ...] = (1, 2, 3)):
        self.depths = depths

    def transform(self, results: pd.DataFrame) -> pd.DataFrame:
        pt.validate.result_frame(results, extra_columns=["query", "text", "rank"])
        rows = []
        for qid, group in results.sort_values(["qid", "rank"], kind="stable").groupby("qid", sort=False):
            passages = group["text"].tolist()
            for depth in self.depths:
                used = passages[:depth]
                sentences = [f"{_first_sentence(text)} [{i}]." for i, text in enumerate(used)]
                rows.append({"qid": qid, "query": group["query"].iloc[0], "docno": f"top-{depth}",
                             "response": " ".join(sentences), "context": used})
        return pd.DataFrame(rows, columns=["qid", "query", "docno", "response", "context"])


def _first_sentence(text: str) -> str:
    return re.split(r"(?<=[.!?])\s+", text.strip())[0].rstrip(".!?")


@pytest.fixture(scope="module")
def passages(sample_responses: pd.DataFrame) -> pd.DataFrame:
    """Distinct passages of the sample's contexts, with the qid whose context first holds each."""
    seen: dict[str, str] = {}
    for row in sample_responses.itertuples():
        for text in row.context:
            seen.setdefault(text, row.qid)
    docnos = [f"p{i}" for i in range(len(seen))]
    return pd.DataFrame({"docno": docnos, "text": list(seen), "source_qid": list(seen.values())})


@pytest.fixture(scope="module")
def index(passages: pd.DataFrame, tmp_path_factory):
    if not pt.java.started():
        pt.java.init()
    indexer = pt.terrier.IterDictIndexer(str(tmp_path_factory.mktemp("terrier") / "index"),
                                         meta={"docno": 8, "text": 4096})
    reference = indexer.index(passages[["docno", "text"]].to_dict("records"))
    return pt.IndexFactory.of(reference)


@pytest.fixture(scope="module")
def topics(sample_responses: pd.DataFrame) -> pd.DataFrame:
    return sample_responses[["qid", "query"]].drop_duplicates().reset_index(drop=True)


def test_terrier_indexes_the_sample_passages_and_bm25_finds_each_querys_own(index, passages, topics):
    assert index.getCollectionStatistics().getNumberOfDocuments() == len(passages) == 24
    bm25 = pt.terrier.Retriever(index, wmodel="BM25", metadata=["docno", "text"], num_results=3)
    results = bm25(topics)
    source = dict(zip(passages["docno"], passages["source_qid"]))
    top = results[results["rank"] == 0]
    assert len(top) == len(topics)
    assert all(source[docno] == qid for qid, docno in zip(top["qid"], top["docno"]))  # no query's passages mixed up


def test_bm25_then_generator_then_axioms_end_to_end(index, topics, languagetool_server):
    bm25 = pt.terrier.Retriever(index, wmodel="BM25", metadata=["docno", "text"], num_results=3)
    generator = ExtractiveGenerator()
    axioms = pra.COV1() >> pra.CONS2() >> pra.CORR1() >> pra.CLAR1(remote_server=languagetool_server)
    pipeline = bm25 >> generator >> axioms
    preferences = pipeline(topics)

    pairs = [("top-1", "top-2"), ("top-1", "top-3"), ("top-2", "top-3")]
    assert len(preferences) == 3 * len(topics)
    for qid, group in preferences.groupby("qid", sort=False):
        assert list(zip(group["docno_a"], group["docno_b"])) == pairs, qid
    for name in ["COV1", "CONS2", "CORR1", "CLAR1"]:
        assert set(preferences[name]) <= {-1.0, 0.0, 1.0}, name
    # every generated sentence cites its passage: CORR1 has nothing to choose between
    assert (preferences["CORR1"] == 0.0).all()
    # more passages, more aspects: COV1 prefers the deeper answer wherever it decides
    assert (preferences["COV1"] <= 0.0).all() and (preferences["COV1"] < 0.0).mean() > 0.5
    # sentences copied from their own context: ROUGE against it is high for every response
    generated = (bm25 >> generator)(topics)
    assert (pra.CONS2().values(generated)["CONS2_value"] > 0.3).all()
    # the same as judging the generated frame directly: the pipeline adds nothing of its own
    direct = axioms(generated)
    columns = ["qid", "docno_a", "docno_b", "COV1", "CONS2", "CORR1", "CLAR1"]
    pd.testing.assert_frame_equal(preferences[columns].reset_index(drop=True), direct[columns].reset_index(drop=True))


def test_bm25_generator_kwiksort_gives_a_ranking_per_query(index, topics):
    bm25 = pt.terrier.Retriever(index, wmodel="BM25", metadata=["docno", "text"], num_results=3)
    ranking = (bm25 >> ExtractiveGenerator() >> pra.KwikSort(pra.MajorityVote(pra.COV1(), pra.CONS2())))(topics)
    assert len(ranking) == 3 * len(topics)
    for qid, group in ranking.groupby("qid"):
        assert sorted(group["rank"]) == [0, 1, 2] and set(group["docno"]) == {"top-1", "top-2", "top-3"}, qid
