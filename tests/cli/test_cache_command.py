"""``rag-axioms cache``: the model files under ``$XDG_CACHE_HOME`` without an argument, no empty cache made where
a path is mistyped, ``--build --prune`` doing both, and this version's model files kept by every prune."""

from __future__ import annotations

import os
import time

import pytest

from pyterrier_rag_axioms.cli import cache as cache_command
from pyterrier_rag_axioms.cli import main

MAKES = "a command given --cache DIR makes the cache there"


@pytest.fixture
def model_folders(tmp_path, monkeypatch):
    """An empty ``$XDG_CACHE_HOME`` with this version's model folders (unused for 40 days) and an old version's."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("RAG_AXIOMS_CACHE", raising=False)
    current = cache_command._current_model_folders(None)
    assert {folder.parent.name for folder in current} == {"onnx", "static"}
    past = time.time() - 40 * 86400
    old = [folder.parent / "old-version" for folder in current]
    for folder in [*current, *old]:
        (folder / ".build-killed").mkdir(parents=True)
        (folder / "model.bin").write_bytes(b"model")
        for entry in folder.iterdir():
            os.utime(entry, (past, past))
    return current, old


def test_cache_without_an_argument_shows_the_model_files_under_xdg_cache_home(model_folders, capsys):
    current, old = model_folders
    assert main(["cache"]) == 0
    out = capsys.readouterr().out
    for folder in current:
        assert f"{folder.parent}: 2 model folders" in out
        assert next(line for line in out.splitlines() if folder.name[:12] in line).endswith("this version")
    assert "No cache of parses and embeddings: --cache DIR or $RAG_AXIOMS_CACHE" in out


def test_prune_never_removes_this_versions_model_files(model_folders, capsys):
    current, old = model_folders
    assert main(["cache", "--prune", "--unused-days", "0"]) == 0
    assert "kept this version's 2" in capsys.readouterr().out
    assert not any(folder.exists() for folder in old)
    for folder in current:  # kept, and its killed build removed
        assert sorted(path.name for path in folder.iterdir()) == [".build.lock", "model.bin"]


def test_build_with_prune_prunes_too(model_folders, monkeypatch, capsys):
    current, old = model_folders
    built = []
    monkeypatch.setattr(cache_command, "_build_model_files", built.append)
    assert main(["cache", "--build", "--prune"]) == 0
    assert built == [None] and "Removed 2 model folders (ONNX, static) not used for 30 days" in capsys.readouterr().out
    assert not any(folder.exists() for folder in old) and all(folder.exists() for folder in current)


def test_a_cache_directory_that_does_not_exist_is_an_error_not_an_empty_cache(tmp_path, capsys):
    typo = tmp_path / "typo" / "path"
    for arguments in ([], ["--prune"]):
        assert main(["cache", "--cache", str(typo), *arguments]) == 2
        error = capsys.readouterr().err
        assert error == f"rag-axioms cache: error: --cache {typo}: no such directory ({MAKES})\n"
    assert not (tmp_path / "typo").exists()
    (tmp_path / "file").write_text("")
    assert main(["cache", "--cache", str(tmp_path / "file")]) == 2
    assert "is a file, not a directory" in capsys.readouterr().err
