"""TREC 2024 RAG topics: from the track's file, or from ir-datasets with a clear message where it cannot serve them."""

from __future__ import annotations

import pytest

from pyterrier_rag_axioms.judgments import TREC_RAG_2024_IR_DATASET, load_topics, trec_rag_2024_topics

ir_datasets = pytest.importorskip("ir_datasets")


def test_a_topics_file_is_read_as_load_topics_reads_it(tmp_path):
    path = tmp_path / "topics.rag24.test.txt"
    path.write_text("2024-145979\twhat is vicarious trauma and how can it be coped with?\n2024-1\twhy?\n")
    topics = trec_rag_2024_topics(path)
    assert topics.equals(load_topics(path))
    assert topics["qid"].tolist() == ["2024-145979", "2024-1"]


@pytest.fixture
def registered(tmp_path):
    """Registers the dataset id with queries that ir-datasets downloads from a port where nothing
    listens, as an installation that knows the dataset does when it is offline."""
    from ir_datasets.formats import TsvQueries
    from ir_datasets.util import Cache, RequestsDownload

    registry = ir_datasets.registry._registered
    queries = TsvQueries(Cache(RequestsDownload("http://127.0.0.1:9/topics.tsv"), tmp_path / "topics.tsv"))
    previous = registry.pop(TREC_RAG_2024_IR_DATASET, None)
    ir_datasets.registry.register(TREC_RAG_2024_IR_DATASET, ir_datasets.Dataset(queries))
    yield
    registry.pop(TREC_RAG_2024_IR_DATASET, None)
    if previous is not None:
        registry[TREC_RAG_2024_IR_DATASET] = previous


def test_offline_ir_datasets_gives_a_clear_message(registered):
    expected = (r"ir-datasets could not fetch the topics of 'msmarco-segment-v2.1/trec-rag-2024' \(.*\); offline\? "
                r".*trec_rag_2024_topics\('topics.rag24.test.txt'\)")
    with pytest.raises(ValueError, match=expected):
        trec_rag_2024_topics()


def test_an_ir_datasets_without_the_dataset_says_so():
    if TREC_RAG_2024_IR_DATASET in ir_datasets.registry:
        pytest.skip(f"this ir-datasets registers {TREC_RAG_2024_IR_DATASET}")
    with pytest.raises(ValueError, match=r"has no dataset 'msmarco-segment-v2.1/trec-rag-2024'; .*topics file"):
        trec_rag_2024_topics()
