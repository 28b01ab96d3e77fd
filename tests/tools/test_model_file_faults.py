"""Model files built at first use: the mode they get, and a path that is no file."""

from __future__ import annotations

import os

import pytest

from pyterrier_rag_axioms.runtime.model_files import ModelFileError, ensure_file, install


def test_a_path_that_is_a_directory_fails_at_once_naming_it(tmp_path):
    target = tmp_path / "static-256.safetensors"
    (target / "inside").mkdir(parents=True)

    def build(private):
        pytest.fail("a build started for a path that cannot take the file")

    with pytest.raises(ModelFileError) as raised:
        ensure_file(target, build, what="static embedding model file")
    message = str(raised.value)
    assert message.startswith(str(target)) and "not a file" in message and "\n" not in message
    assert (target / "inside").is_dir()  # nothing removed


def test_an_installed_file_gets_the_mode_of_any_file_written_here(tmp_path):
    built = tmp_path / ".build-1" / "static-256.safetensors"
    built.parent.mkdir()
    built.write_bytes(b"weights")
    built.chmod(0o600)  # as a library that writes its file privately leaves it
    target = tmp_path / "static-256.safetensors"
    mask = os.umask(0o027)
    try:
        install(built, target, tmp_path, load=lambda path: path.read_bytes(), packages=("numpy",))
    finally:
        os.umask(mask)
    record = target.with_name(target.name + ".json")
    assert [oct(path.stat().st_mode & 0o777) for path in (target, record)] == [oct(0o640)] * 2
