"""Scale-out: transformers pickle small and give the same frames under ``.parallel(N)`` as serially.

The package's transformers split every frame by query (PyTerrier's own ``.parallel``, which a
``>>`` pipeline uses, splits a frame with ``docno`` by query and others by rows), run the parts in
worker processes (pyterrier-alpha: joblib/loky or Ray) and concatenate the results: sorted by qid,
with each part's own index. The frames must hold the same rows and values as a serial run.
"""

from __future__ import annotations

import inspect
import os
import pickle
import warnings
from pathlib import Path

import pandas as pd
import pyterrier as pt
import pytest

import pyterrier_rag_axioms as rag
from pyterrier_rag_axioms.tools.embeddings import SentenceSimilarity, sentence_similarity
from pyterrier_rag_axioms.tools.text import TextAnalyzer, text_analyzer

PROJECT_ROOT = Path(__file__).resolve().parents[2]
CROWDRAG = PROJECT_ROOT.parent / "shared" / "data" / "crowdrag-25"  # development data; absent: skipped
PAIR_KEYS = ["qid", "docno_a", "docno_b"]


@pytest.fixture(scope="module")
def responses(sample_responses: pd.DataFrame) -> pd.DataFrame:
    """Three queries of the shipped sample, the later ones first (so input order is not qid order)."""
    qids = ["q3", "q1", "q2"]
    parts = [sample_responses[sample_responses["qid"] == qid] for qid in qids]
    return pd.concat(parts, ignore_index=True)


def preferences_pipeline() -> pt.Transformer:
    """Axioms on syntax (COH1), embeddings (COV3), ROUGE (CONS2), entities and negation (CONS3), and a vote."""
    return rag.COH1() >> rag.COV3() >> rag.CONS2() >> rag.CONS3() >> rag.MajorityVote("COH1", "COV3", "CONS2", "CONS3")


def canonical(frame: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Rows sorted by ``keys``, index renumbered: the frame as a set of rows."""
    return frame.sort_values(keys, kind="stable").reset_index(drop=True)


def parallel(transformer: pt.Transformer, backend: str) -> pt.Transformer:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ".parallel() is experimental"
        return transformer.parallel(2, backend=backend)


def assert_same_as_serial(transformer: pt.Transformer, backend: str, frame: pd.DataFrame, keys: list[str]) -> None:
    serial = transformer(frame)
    result = parallel(transformer, backend)(frame)
    assert len(result) == len(serial) > 0
    pd.testing.assert_frame_equal(canonical(result, keys), canonical(serial, keys), check_exact=True)
    # the parts come back in qid order, each in input order: exactly the serial result of the qid-sorted input
    by_qid = frame.sort_values("qid", kind="stable")
    pd.testing.assert_frame_equal(result.reset_index(drop=True), transformer(by_qid).reset_index(drop=True))


# --- pickling: configuration only, shared tools on the receiving side -------------------------------


def test_shared_tools_unpickle_as_the_shared_instance():
    analyzer, similarity = text_analyzer(), sentence_similarity()
    assert pickle.loads(pickle.dumps(analyzer)) is analyzer
    assert pickle.loads(pickle.dumps(similarity)) is similarity


def test_configured_tools_unpickle_as_one_instance_of_their_configuration():
    analyzer = TextAnalyzer(batch_size=7, defer_components=False)
    first, second = pickle.loads(pickle.dumps(analyzer)), pickle.loads(pickle.dumps(analyzer))
    assert first is second
    assert (first.model, first.batch_size, first.defer_components) == (None, 7, False)
    similarity = SentenceSimilarity(batch_size=5)
    copy = pickle.loads(pickle.dumps(similarity))
    assert copy is pickle.loads(pickle.dumps(similarity))
    assert (copy.model, copy.batch_size, copy.device) == (None, 5, None)


OFFLINE_RAG_AXIOMS = [name for name in rag.RAG_AXIOMS if name != "CLAR1"]


@pytest.mark.parametrize("name", [*OFFLINE_RAG_AXIOMS, *rag.GEN_AXIOMS])
def test_used_axiom_pickles_without_models_or_caches(name: str, responses: pd.DataFrame):
    axiom = {**rag.RAG_AXIOMS, **rag.GEN_AXIOMS}[name]()
    expected = axiom(responses)  # loads the models and fills the caches
    payload = pickle.dumps(axiom)
    assert len(payload) < 4096, f"{name} pickles to {len(payload)} bytes: models or caches travel along"
    copy = pickle.loads(payload)
    assert repr(copy) == repr(axiom)
    pd.testing.assert_frame_equal(copy(responses), expected, check_exact=True)


def _transformer_classes() -> list[type]:
    classes = []
    for name in rag.__all__:
        value = getattr(rag, name)
        if (
            isinstance(value, type)
            and issubclass(value, pt.Transformer)
            and not inspect.isabstract(value)
            and value not in classes
            and not value.__module__.startswith("pyterrier_rag_axioms.pipelines")  # tests/pipelines: need a backend
        ):
            classes.append(value)
    return classes


#: How to build the exported transformers that need arguments.
EXAMPLES = {
    "AxiomaticReranker": lambda: rag.AxiomaticReranker(rag.COH1()),
    "Cascade": lambda: rag.Cascade(rag.COH1(), "CONS2"),
    "Conjunction": lambda: rag.Conjunction(rag.COH1(), "CONS2"),
    "KwikSort": lambda: rag.KwikSort(rag.MajorityVote(rag.COH1(), rag.COV1())),
    "MajorityVote": lambda: rag.MajorityVote(rag.COH1(), "CONS2"),
    "PreferenceCountReranker": lambda: rag.PreferenceCountReranker("COH1"),
    "PreferenceModel": lambda: rag.PreferenceModel.default("nuggets"),
    "TrecRagNuggetAxiom": lambda: rag.TrecRagNuggetAxiom(assignments_path=PROJECT_ROOT / "tests/data/nuggets.jsonl"),
    "NuggetCoverageAxiom": lambda: rag.NuggetCoverageAxiom(nuggets=PROJECT_ROOT / "data" / "sample" / "nuggets.jsonl"),
    "WeightedSum": lambda: rag.WeightedSum(rag.COH1(), "CONS2", weights=[2.0, 1.0]),
    "TrecRagCrowdAxiom": lambda: rag.TrecRagCrowdAxiom(ratings_path=CROWDRAG / "ratings.dev.jsonl.gz"),
    "TrecRagLlmOrigAxiom": lambda: rag.TrecRagLlmOrigAxiom(
        ratings_path=CROWDRAG / "llm-ratings" / "ratings-Qwen-Qwen2.5-0.5B-Instruct.dev.jsonl"
    ),
}


#: The files of the shared development data that building an exported transformer reads.
SHARED_FILES = {
    "TrecRagCrowdAxiom": CROWDRAG / "ratings.dev.jsonl.gz",
    "TrecRagLlmOrigAxiom": CROWDRAG / "llm-ratings" / "ratings-Qwen-Qwen2.5-0.5B-Instruct.dev.jsonl",
}


@pytest.mark.parametrize("cls", _transformer_classes(), ids=lambda cls: cls.__name__)
def test_every_exported_transformer_pickles(cls: type):
    needed = SHARED_FILES.get(cls.__name__)
    if needed is not None and not needed.is_file():
        pytest.skip(f"{cls.__name__} reads {needed}, which is absent here")
    transformer = EXAMPLES[cls.__name__]() if cls.__name__ in EXAMPLES else cls()  # a failure to build fails
    copy = pickle.loads(pickle.dumps(transformer))
    assert type(copy) is cls


@pytest.mark.parametrize("cls", _transformer_classes(), ids=lambda cls: cls.__name__)
def test_every_exported_transformer_builds_its_parallel_version(cls: type):
    pytest.importorskip("pyterrier_alpha")
    needed = SHARED_FILES.get(cls.__name__)
    if needed is not None and not needed.is_file():
        pytest.skip(f"{cls.__name__} reads {needed}, which is absent here")
    transformer = EXAMPLES[cls.__name__]() if cls.__name__ in EXAMPLES else cls()
    if not hasattr(transformer, "parallel"):
        pytest.skip(f"{cls.__name__} is no transformer")
    parent = parallel(transformer, "joblib").parent
    assert type(parent) is cls  # the workers' copy; one process each where it declares processes
    assert getattr(parent, "processes", 1) == 1


def test_a_transformer_that_declares_no_parameters_builds_its_parallel_version():
    pytest.importorskip("pyterrier_alpha")
    best = rag.BestOfN()  # its own constructor, no declared parameters
    assert parallel(best, "joblib").parent is best


# --- joblib ----------------------------------------------------------------------------------------


def test_joblib_gives_the_serial_preferences(responses: pd.DataFrame):
    assert_same_as_serial(preferences_pipeline(), "joblib", responses, PAIR_KEYS)


def test_joblib_fills_the_listed_pairs_of_a_preference_frame_in_place(responses: pd.DataFrame):
    listed = rag.preference_frame(responses).iloc[::2].copy()  # every other pair, original index kept
    pipeline = rag.COH1() >> rag.CONS3()
    serial = pipeline(listed)
    result = parallel(pipeline, "joblib")(listed)
    pd.testing.assert_frame_equal(result, serial, check_exact=True)  # split by rows: same order, same index


def test_joblib_gives_the_serial_ranking(responses: pd.DataFrame):
    ranker = rag.KwikSort(rag.MajorityVote(rag.COH1(), rag.CONS2(), rag.CONS3()), seed=3)
    assert_same_as_serial(ranker, "joblib", responses, ["qid", "rank"])


def test_joblib_splits_frames_without_docno_by_query(responses: pd.DataFrame):
    """pyterrier-rag's answers have no docno and a preference frame has docno_a/docno_b: PyTerrier
    would split them by rows, cutting a query in two; this package's transformers split by qid."""
    answers = responses.rename(columns={"query": "query_0", "response": "qanswer", "context": "qcontext"})
    answers = answers.drop(columns="docno")
    serial = rag.COH1()(answers)
    result = parallel(rag.COH1(), "joblib")(answers)
    pd.testing.assert_frame_equal(canonical(result, PAIR_KEYS), canonical(serial, PAIR_KEYS), check_exact=True)
    pairs = rag.COH1()(responses)
    ranker = rag.KwikSort("COH1")
    ranked = parallel(ranker, "joblib")(pairs)
    assert not ranked.duplicated(["qid", "rank"]).any() and not ranked.duplicated(["qid", "docno"]).any()
    pd.testing.assert_frame_equal(canonical(ranked, ["qid", "rank"]), canonical(ranker(pairs), ["qid", "rank"]))
    assert repr(parallel(ranker, "joblib")) == "KwikSort('COH1').parallel(2, backend='joblib')"


def test_parallel_reports_a_missing_qid_as_the_serial_run_does(responses: pd.DataFrame):
    broken = responses.astype({"qid": object})
    broken.loc[2, "qid"] = None
    with pytest.raises(rag.frames.FrameError, match="row 2: qid is missing"):
        parallel(rag.LEN1(), "joblib")(broken)
    assert str(parallel(rag.LEN1(), "joblib")) == repr(parallel(rag.LEN1(), "joblib"))


def test_parallel_on_an_empty_frame_gives_the_serial_empty_frame(responses: pd.DataFrame):
    empty = responses.head(0)
    for transformer in (rag.COH1(), rag.KwikSort(rag.COH1()), rag.MajorityVote("COH1")):
        frame = empty if not isinstance(transformer, rag.MajorityVote) else rag.COH1()(empty)
        pd.testing.assert_frame_equal(parallel(transformer, "joblib")(frame), transformer(frame))


# --- Ray ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ray_instance():
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        yield ray
        return
    python_path = os.pathsep.join(filter(None, [str(PROJECT_ROOT), os.environ.get("PYTHONPATH")]))
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        object_store_memory=100 * 2**20,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": python_path, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}},
    )
    try:
        yield ray
    finally:
        ray.shutdown()


def test_ray_gives_the_serial_preferences(ray_instance, responses: pd.DataFrame):
    assert_same_as_serial(preferences_pipeline(), "ray", responses, PAIR_KEYS)


def _sample_nuggets(responses: pd.DataFrame) -> pd.DataFrame:
    """Each query's nuggets: the first sentence of each of its first two responses."""
    rows = [
        {"qid": qid, "nugget": text.split(". ")[0].strip(" ."), "importance": importance}
        for qid, group in responses.groupby("qid", sort=False)
        for text, importance in zip(group["response"].iloc[:2], ("vital", "okay"))
    ]
    return pd.DataFrame(rows)


def test_ray_gives_the_serial_nugget_assignments(ray_instance, responses: pd.DataFrame):
    assigner = rag.nuggets.NuggetAssigner(nuggets=_sample_nuggets(responses))
    assert_same_as_serial(assigner, "ray", responses, ["qid", "docno", "nugget_id"])


def test_ray_gives_the_serial_extracted_nuggets(ray_instance, responses: pd.DataFrame):
    extractor = rag.nuggets.NuggetExtractor(min_support=1)
    serial = extractor(responses)
    result = parallel(extractor, "ray")(responses)
    assert len(result) == len(serial) > 0
    keys = ["qid", "nugget_id"]
    pd.testing.assert_frame_equal(canonical(result, keys), canonical(serial, keys), check_exact=True)


def test_ray_gives_the_serial_run_judge_preferences(ray_instance, responses: pd.DataFrame):
    judge = rag.PreferenceModel.default("nuggets")
    serial = canonical(judge(responses), PAIR_KEYS)
    result = canonical(parallel(judge, "ray")(responses), PAIR_KEYS)
    assert len(result) == len(serial) > 0
    # the same preferences; probabilities to the rounding of the model's matrix product over
    # fewer pairs (the encoder embeds each text alone, whatever else a worker encodes)
    assert result[judge.name].tolist() == serial[judge.name].tolist()
    pd.testing.assert_frame_equal(result, serial, check_exact=False, rtol=1e-12, atol=1e-12)
