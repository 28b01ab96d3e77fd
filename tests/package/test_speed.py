"""Speed without changing results: staged parsing, one analysis per text, the benchmark's inputs and runners.

The text analyzer parses the syntax first and runs the lemmatizer, named-entity recognition and
negation only for texts whose analysis needs them; every result must be what the whole pipeline
gives.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from spacy.attrs import DEP, ENT_IOB, ENT_TYPE, HEAD, LEMMA, MORPH, ORTH, POS, SENT_START, TAG

import pyterrier_rag_axioms as rag
from pyterrier_rag_axioms.tools.embeddings import sentence_similarity
from pyterrier_rag_axioms.tools.text import TextAnalyzer

PROJECT_ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = PROJECT_ROOT / "benchmarks"
IRAX_PYTHON = PROJECT_ROOT / ".venv-irax" / "bin" / "python"
OFFLINE_AXIOMS = [name for name in rag.RAG_AXIOMS if name != "CLAR1"]
TOKEN_ATTRIBUTES = [ORTH, TAG, POS, DEP, HEAD, LEMMA, MORPH, SENT_START, ENT_IOB, ENT_TYPE]


def _load_bench():
    spec = importlib.util.spec_from_file_location("bench_rag_axioms", BENCHMARKS / "bench_rag_axioms.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _passages(frame: pd.DataFrame) -> list[str]:
    return list(dict.fromkeys(passage for context in frame["context"] for passage in context))


def _entities(doc) -> list[tuple]:
    return [(entity.start, entity.end, entity.label_, entity._.negex) for entity in doc.ents]


def has_entities_annotated(analysis) -> bool:
    return analysis.syntax.has_annotation("ENT_IOB")


def _axioms(analyzer: TextAnalyzer) -> list[rag.Axiom]:
    similarity = sentence_similarity()
    return [
        rag.RAG_AXIOMS[name](text_analyzer=analyzer, encoder=similarity)
        if name in {"COV1", "COV2", "COV3", "CONS1"}
        else rag.RAG_AXIOMS[name](text_analyzer=analyzer)
        for name in OFFLINE_AXIOMS
    ]


# --- staged parsing ----------------------------------------------------------------------------------


def test_staged_parse_equals_the_whole_pipeline(sample_responses: pd.DataFrame):
    texts = [*sample_responses["response"].unique(), *_passages(sample_responses)]
    analyzer = TextAnalyzer()
    assert analyzer.deferred_components == ("lemmatizer", "ner", "negex")
    staged = analyzer.analyse(texts)
    whole = list(analyzer.nlp.pipe(texts))
    assert not any(has_entities_annotated(analysis) for analysis in staged)  # syntax only, so far
    for analysis, doc in zip(staged, whole):
        assert np.array_equal(analysis.doc.to_array(TOKEN_ATTRIBUTES), doc.to_array(TOKEN_ATTRIBUTES))
        assert _entities(analysis.doc) == _entities(doc)
    assert any(doc.ents for doc in whole) and any(entity._.negex for doc in whole for entity in doc.ents)


def test_the_rest_of_the_pipeline_runs_once_over_the_whole_request(sample_responses: pd.DataFrame):
    analyzer = TextAnalyzer()
    texts = sample_responses["response"].tolist()
    analyses = analyzer.analyse(texts)
    analyzer.analyse(texts[:2])  # an earlier, smaller request does not split the later one
    analyses = analyzer.analyse(texts)
    assert analyses[0].entities is not None  # needs NER: completes every text of this request at once
    assert all(has_entities_annotated(analysis) for analysis in analyses)
    docs = [analysis.doc for analysis in analyses]
    assert [analysis.doc for analysis in analyzer.analyse(texts)] == docs  # never again


def test_terms_run_the_lemmatizer_without_named_entities(sample_responses: pd.DataFrame):
    texts = list(sample_responses["response"].unique())
    staged, whole = TextAnalyzer(), TextAnalyzer(defer_components=False)
    analyses = staged.analyse(texts)
    terms = [analysis.terms for analysis in analyses]  # one batch for the request: lemmas only
    assert all(analysis.components_run == 1 and analysis.awaits_components for analysis in analyses)
    assert not any(has_entities_annotated(analysis) for analysis in analyses)
    assert terms == [analysis.terms for analysis in whole.analyse(texts)]
    assert any(terms)
    docs = [analysis.doc for analysis in analyses]  # the rest of the pipeline, later, as a whole run gives it
    for doc, reference in zip(docs, staged.nlp.pipe(texts)):
        assert np.array_equal(doc.to_array(TOKEN_ATTRIBUTES), reference.to_array(TOKEN_ATTRIBUTES))
        assert _entities(doc) == _entities(reference)
    assert not any(analysis.awaits_components for analysis in analyses)


def test_passages_for_context_axioms_skip_named_entities(sample_responses: pd.DataFrame):
    analyzer = TextAnalyzer()
    frame = (rag.CONS1(text_analyzer=analyzer) >> rag.CONS2(text_analyzer=analyzer))(sample_responses)
    assert len(frame) > 0
    passages = analyzer.analyse(_passages(sample_responses))
    assert not any(has_entities_annotated(analysis) for analysis in passages)
    rag.CONS3(text_analyzer=analyzer)(sample_responses)
    assert all(has_entities_annotated(analysis) for analysis in analyzer.analyse(sample_responses["response"]))
    assert not any(has_entities_annotated(analysis) for analysis in passages)


def test_every_axiom_gives_the_same_result_staged_or_whole(sample_responses: pd.DataFrame):
    staged, whole = TextAnalyzer(), TextAnalyzer(defer_components=False)
    assert whole.deferred_components == ()
    frames = []
    for analyzer, order in ((staged, 1), (whole, -1)):  # also in opposite chain orders
        frame = sample_responses
        for axiom in _axioms(analyzer)[::order]:
            frame = axiom(frame)
        frames.append(frame[["qid", "docno_a", "docno_b", *OFFLINE_AXIOMS]])
    pd.testing.assert_frame_equal(frames[0], frames[1], check_exact=True)
    for staged_axiom, whole_axiom in zip(_axioms(staged), _axioms(whole)):
        np.testing.assert_allclose(
            staged_axiom.values(sample_responses).iloc[:, -1],
            whole_axiom.values(sample_responses).iloc[:, -1],
            rtol=1e-6,
            equal_nan=True,
        )


def test_each_distinct_text_is_parsed_once_for_all_ten_axioms(sample_responses: pd.DataFrame):
    analyzer = TextAnalyzer()
    analyzer._cache.clear()  # the shared analyzer may hold these texts from earlier tests of this process
    calls = []
    pipe = analyzer.nlp.pipe

    def counting_pipe(texts, **options):
        texts = list(texts)
        calls.extend(texts)
        return pipe(texts, **options)

    analyzer.nlp.pipe = counting_pipe
    try:
        frame = sample_responses
        for axiom in _axioms(analyzer):
            frame = axiom(frame)
    finally:
        del analyzer.nlp.pipe
    distinct = {*sample_responses["response"], *sample_responses["query"], *_passages(sample_responses)}
    assert sorted(calls) == sorted(distinct)


# --- the benchmark ------------------------------------------------------------------------------------


def test_synthetic_responses_are_new_texts_of_the_same_queries(sample_responses: pd.DataFrame):
    bench = _load_bench()
    frame = bench.synthetic_frame(sample_responses, 5, seed=1)
    assert len(frame) == 5 * sample_responses["qid"].nunique()
    assert frame.groupby("qid").size().eq(5).all()
    assert frame["response"].nunique() == len(frame)
    assert not set(frame["response"]) & set(sample_responses["response"])
    pd.testing.assert_frame_equal(frame, bench.synthetic_frame(sample_responses, 5, seed=1))
    first = sample_responses.groupby("qid").first()
    for row in frame.itertuples():
        assert row.query == first.loc[row.qid, "query"]
        assert row.context == list(first.loc[row.qid, "context"])


def test_benchmark_prints_the_ratio_to_the_bare_work_and_the_peak_memory(
    sample_responses: pd.DataFrame, tmp_path: Path
):
    data = tmp_path / "responses.jsonl.gz"  # two queries of the sample, in CrowdRAG-25's format
    with gzip.open(data, "wt", encoding="utf-8") as file:
        for row in sample_responses[sample_responses["qid"].isin(["q1", "q2"])].itertuples():
            record = {
                "topic": row.qid, "query": row.query, "response": row.docno, "raw_text": row.response,
                "references_ids": [f"p{i}" for i in range(len(row.context))], "references_texts": list(row.context),
            }
            file.write(json.dumps(record) + "\n")
    output = tmp_path / "bench.json"
    completed = subprocess.run(
        [
            sys.executable, str(BENCHMARKS / "bench_rag_axioms.py"), "--data", str(data), "--limit-topics", "1",
            "--scales", "2", "--skip-irax", "--bare-scales", "2", "--onnx-scales", "", "--output", str(output),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=PROJECT_ROOT,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "(b) cold/bare" in completed.stdout and "(c) MiB cold" in completed.stdout
    entry = json.loads(output.read_text())["scales"]["2"]
    assert entry["responses"] == 2 and entry["queries"] == 1
    assert entry["ours"]["total_seconds"] > 0 and entry["bare"]["total_seconds"] > 0
    assert entry["ours"]["peak_rss_mib"] >= entry["ours"]["rss_models_loaded_mib"] > 0  # the peak may be at loading
    assert entry["ours"]["texts_analysed"] == entry["bare"]["texts_parsed"]  # the same texts, each once
    # the warm run in a new process reads the cold run's cache: no model library imported, same preferences
    assert entry["warm"]["imported"] == [] and entry["warm_same_preferences"] is True
    assert entry["warm"]["process_seconds"] > entry["warm"]["total_seconds"] > 0


def test_scale_up_by_queries_keeps_responses_per_query_and_makes_new_passages(sample_responses: pd.DataFrame):
    bench = _load_bench()
    frame = bench.synthetic_many(sample_responses, 30, per_query=4, seed=0)
    assert len(frame) == 30 and frame.groupby("qid").size().max() == 4
    assert frame["qid"].nunique() == 8
    real_passages = {passage for context in sample_responses["context"] for passage in context}
    new_passages = {passage for context in frame["context"] for passage in context}
    assert new_passages and not new_passages & real_passages


@pytest.mark.skipif(not IRAX_PYTHON.is_file(), reason="no ir-axioms venv at .venv-irax (make bench creates it)")
def test_irax_runner_reports_times_and_preferences(tmp_path: Path):
    bench = _load_bench()
    frame = pd.DataFrame(
        {
            "qid": ["q1"] * 3,
            "query": ["What causes the northern lights?"] * 3,
            "docno": ["a", "b", "c"],
            "response": [
                "Charged particles from the Sun hit the atmosphere [0]. Oxygen glows green [1].",
                "The northern lights are pretty.",
                "Particles from the Sun cause them. They are not caused by the Moon.",
            ],
            "context": [["Charged particles from the Sun collide with gases.", "Oxygen emits green light."]] * 3,
        }
    )
    frame_path, report_path = tmp_path / "frame.jsonl", tmp_path / "report.json"
    bench.write_frame(frame, frame_path)
    command = [
        str(IRAX_PYTHON), str(BENCHMARKS / "irax_runner.py"), "--input", str(frame_path), "--output",
        str(report_path), "--spacy-model", bench.DEFAULT_SPACY_MODEL, "--sentence-model", bench.sentence_model_path(),
    ]
    completed = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=PROJECT_ROOT)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    report = json.loads(report_path.read_text())
    assert report["ir_axioms_version"] == "1.2.5"
    assert set(report["seconds"]) == set(OFFLINE_AXIOMS)
    assert report["pairs"] == [["q1", "a", "b"], ["q1", "a", "c"], ["q1", "b", "c"]]
    assert all(len(values) == 3 and set(values) <= {-1.0, 0.0, 1.0} for values in report["preferences"].values())
    # the first response cites in every sentence, the second in none: ir-axioms' CORR1 prefers fewer citations
    assert report["preferences"]["CORR1"][0] == -1.0
