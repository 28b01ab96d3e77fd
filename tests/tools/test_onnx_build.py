"""The ONNX exports: built once, by one process, deterministically, quietly, and checked before every use."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("onnxruntime", reason="the ONNX backends run through onnxruntime")
pytest.importorskip("onnx", reason="the ONNX backends are quantized with onnx")

from conftest import DAMAGES, PROJECT_ROOT, damage_model_file  # noqa: E402

from pyterrier_rag_axioms.runtime import model_files  # noqa: E402
from pyterrier_rag_axioms.runtime.model_files import BUILD_PREFIX, check_file, file_sha256  # noqa: E402
from pyterrier_rag_axioms.tools.embeddings.onnx_build import BUILD_PACKAGES, OnnxExportError  # noqa: E402
from pyterrier_rag_axioms.tools.embeddings.onnx_encoder import OnnxSentenceEncoder  # noqa: E402
from pyterrier_rag_axioms.tools.embeddings.similarity import SentenceSimilarity, _default_model_path  # noqa: E402

TEXTS = ["Rayleigh scattering makes the sky blue.", "The ocean is deep and salty.", "Paris"]


def encoder(export_dir: Path, *, per_channel: bool = False) -> OnnxSentenceEncoder:
    return OnnxSentenceEncoder(_default_model_path(), quantize=True, per_channel=per_channel, export_dir=export_dir)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> OnnxSentenceEncoder:
    """An int8 export built once in an empty directory, with the embeddings of :data:`TEXTS`."""
    built = encoder(tmp_path_factory.mktemp("exports"))
    built.prepare()
    built.expected = built.encode(TEXTS)
    return built


@pytest.fixture
def copied(built, tmp_path) -> OnnxSentenceEncoder:
    """A copy of the built exports, as a new process finds them (nothing checked yet)."""
    shutil.copytree(built.export_path.parents[1], tmp_path / "exports")
    model_files._verified.clear()
    return encoder(tmp_path / "exports")


def test_a_build_is_quiet_and_leaves_only_the_files_and_their_records(tmp_path, capfd, recwarn):
    fresh = encoder(tmp_path)
    fresh.prepare()
    captured = capfd.readouterr()
    assert (captured.out, captured.err) == ("", "")
    assert not recwarn.list
    assert sorted(path.name for path in fresh.export_path.parent.iterdir()) == [
        ".build.lock", "model-qint8.onnx", "model-qint8.onnx.json", "model.onnx", "model.onnx.json"]


def test_two_builds_on_empty_directories_give_the_same_bytes(built, tmp_path):
    again = encoder(tmp_path)
    digest = again.prepare()
    assert digest == built.prepare() == file_sha256(built.export_path)
    assert again.export_path.read_bytes() == built.export_path.read_bytes()
    for name in ("model.onnx", "model.onnx.json", "model-qint8.onnx.json"):
        assert (again.export_path.parent / name).read_bytes() == (built.export_path.parent / name).read_bytes()


def test_the_export_directory_is_named_by_the_versions_that_build_it(built, monkeypatch):
    versions = model_files.build_versions(BUILD_PACKAGES)
    assert set(versions) == {"pyterrier-rag-axioms", "torch", "transformers", "onnx", "onnxruntime"}
    monkeypatch.setattr(model_files, "build_versions", lambda packages=(): {**versions, "torch": "0.0"})
    other = encoder(built.export_path.parents[1])
    assert other.export_path.parent != built.export_path.parent


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_file_is_built_again_with_one_line_saying_so(copied, built, damage, capfd):
    path = copied.export_path
    damage_model_file(path, damage)
    assert check_file(path)[0] == "damaged"
    np.testing.assert_array_equal(copied.encode(TEXTS), built.expected)
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and "damaged" in err and "building it again" in err, err
    assert path.read_bytes() == built.export_path.read_bytes()


def test_a_damaged_file_is_found_in_a_process_that_checked_it_before(copied, built, capfd):
    copied.prepare()
    with open(copied.export_path, "r+b") as file:
        file.write(b"\0" * 4096)
    assert check_file(copied.export_path)[0] == "damaged"  # a new size or time: hashed again
    assert copied.prepare() == built.prepare()
    assert "building it again" in capfd.readouterr().err


def test_a_damaged_float_export_is_built_again_before_it_is_quantized(copied, built, capfd):
    float_path = copied.export_path.with_name("model.onnx")
    float_path.write_bytes(float_path.read_bytes()[:1000])
    copied.export_path.unlink()
    assert copied.prepare() == built.prepare()
    assert str(float_path) in capfd.readouterr().err
    assert float_path.read_bytes() == built.export_path.with_name("model.onnx").read_bytes()


def test_a_killed_build_leaves_nothing_that_a_later_build_keeps(copied, built):
    directory = copied.export_path.parent
    (directory / f"{BUILD_PREFIX}killed").mkdir()
    (directory / f"{BUILD_PREFIX}killed" / "model-inferred.onnx").write_bytes(b"half")
    copied.export_path.unlink()
    assert copied.prepare() == built.prepare()
    assert not list(directory.glob(BUILD_PREFIX + "*"))


def test_an_export_that_cannot_be_built_is_one_error_naming_it(tmp_path):
    (tmp_path / "exports").write_text("a file, not a folder")
    with pytest.raises(OnnxExportError, match="cannot be built") as raised:
        encoder(tmp_path / "exports").prepare()
    assert "exports" in str(raised.value) and "\n" not in str(raised.value)


def test_processes_that_start_together_build_once_and_alike(built, tmp_path):
    """Two processes on one empty directory: one builds, the other waits for it (each says so); no fixed-name
    temporary file."""
    script = textwrap.dedent(f"""
        from pathlib import Path
        from pyterrier_rag_axioms.tools.embeddings.onnx_encoder import OnnxSentenceEncoder
        from pyterrier_rag_axioms.tools.embeddings.similarity import _default_model_path
        encoder = OnnxSentenceEncoder(_default_model_path(), quantize=True, per_channel=True,
                                      export_dir=Path({str(tmp_path)!r}))
        print(encoder.prepare(), encoder.encode(["Paris"]).tobytes().hex())
    """)
    environment = {"PYTHONPATH": str(PROJECT_ROOT), "HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin"}
    runs = [subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=environment) for _ in range(2)]
    outputs = [run.communicate(timeout=600) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    assert outputs[0][0] == outputs[1][0] and outputs[0][0].strip()
    notes = [note for _, err in outputs for note in err.splitlines()]
    assert sum(note.startswith("rag-axioms: building the ONNX model file once") for note in notes) == 1, notes
    assert all(note.startswith(("rag-axioms: building", "rag-axioms: waiting for another process")) for note in notes)
    names = sorted(path.name for path in tmp_path.rglob("*"))
    assert "model-inferred.onnx" not in names and not [name for name in names if name.startswith(BUILD_PREFIX)]


def test_cached_embeddings_are_keyed_on_the_file_that_computed_them(copied, built, tmp_path):
    similarity = SentenceSimilarity(backend="onnx-int8", cache_dir=tmp_path / "cache")
    similarity.__dict__["backend_encoder"] = copied
    _, _, description = similarity._store()
    assert description["export"] == file_sha256(copied.export_path) == built.prepare()
