"""The static encoder: distilled once, deterministically and quietly, checked before every use, batch-independent."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("model2vec", reason="the static encoder is distilled by model2vec")

from conftest import DAMAGES, damage_model_file  # noqa: E402

from pyterrier_rag_axioms.runtime import model_files  # noqa: E402
from pyterrier_rag_axioms.runtime.model_files import ModelFileError, check_file  # noqa: E402
from pyterrier_rag_axioms.tools.embeddings.naming import encoder_name  # noqa: E402
from pyterrier_rag_axioms.tools.embeddings.similarity import SentenceSimilarity, _default_model_path  # noqa: E402
from pyterrier_rag_axioms.tools.embeddings.static_encoder import StaticSentenceEncoder  # noqa: E402

TEXTS = ["Rayleigh scattering makes the sky blue.", "The daytime sky is blue because of scattering.",
         "Paris is the capital of France.", ""]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> StaticSentenceEncoder:
    """A static model distilled once in an empty directory, with the embeddings of :data:`TEXTS`."""
    encoder = StaticSentenceEncoder(_default_model_path(), export_dir=tmp_path_factory.mktemp("static"))
    encoder.prepare()
    encoder.expected = encoder.encode(TEXTS)
    return encoder


def test_a_distillation_is_quiet_and_leaves_one_file_and_its_record(tmp_path, capfd, recwarn):
    fresh = StaticSentenceEncoder(_default_model_path(), export_dir=tmp_path)
    fresh.prepare()
    assert capfd.readouterr() == ("", "")
    assert not recwarn.list
    assert sorted(path.name for path in fresh.export_path.parent.iterdir()) == [
        ".build.lock", "static-256.safetensors", "static-256.safetensors.json"]


def test_two_distillations_give_the_same_bytes(built, tmp_path):
    again = StaticSentenceEncoder(_default_model_path(), export_dir=tmp_path)
    assert again.prepare() == built.prepare()
    assert again.export_path.read_bytes() == built.export_path.read_bytes()


def test_embeddings_are_unit_length_and_the_same_bits_in_any_batch(built):
    vectors = built.expected
    assert vectors.shape == (len(TEXTS), 256) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors[:3], axis=1), 1.0, rtol=1e-5)
    for position, text in enumerate(TEXTS):
        np.testing.assert_array_equal(built.encode([text])[0], vectors[position])
    similar, unrelated = vectors[0] @ vectors[1], vectors[0] @ vectors[2]
    assert similar > 0.5 > unrelated


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_file_is_distilled_again_with_one_line_saying_so(built, tmp_path, damage, capfd):
    shutil.copytree(built.export_path.parents[1], tmp_path / "static")
    model_files._verified.clear()
    copied = StaticSentenceEncoder(_default_model_path(), export_dir=tmp_path / "static")
    path = copied.export_path
    damage_model_file(path, damage)
    assert check_file(path)[0] == "damaged"
    np.testing.assert_array_equal(copied.encode(TEXTS), built.expected)
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and "static embedding model file is damaged" in err, err
    assert path.read_bytes() == built.export_path.read_bytes()


def test_a_model_that_is_not_a_local_folder_is_one_clear_error(tmp_path):
    with pytest.raises(ModelFileError, match="not a local model directory"):
        StaticSentenceEncoder("sentence-transformers/all-MiniLM-L6-v2", export_dir=tmp_path)


def test_the_similarity_backend_keeps_its_files_in_the_cache_and_names_its_encoder(built, tmp_path):
    similarity = SentenceSimilarity(backend="static", cache_dir=tmp_path)
    np.testing.assert_array_equal(similarity.embed(TEXTS[:3]), built.expected[:3])
    assert Path(similarity.backend_encoder.export_path).is_relative_to(tmp_path / "static")
    assert encoder_name(similarity) == encoder_name("all-MiniLM-L6-v2:static") == "all-MiniLM-L6-v2:static"
    assert encoder_name(SentenceSimilarity(backend="onnx-int8")) == "all-MiniLM-L6-v2"


def test_every_backend_answers_the_dimension_by_sentence_transformers_name(built):
    from pyterrier_rag_axioms.tools.embeddings.torch_encoder import TorchSentenceEncoder

    torch_encoder = TorchSentenceEncoder(_default_model_path(), device="cpu")
    for encoder in (built, torch_encoder):
        width = encoder.encode(TEXTS[:1]).shape[1]
        assert encoder.get_sentence_embedding_dimension() == encoder.dimension == width
    assert torch_encoder.get_sentence_embedding_dimension() == 384
