"""The first run on a new machine: `rag-axioms assign` twice at once on an empty cache, as the README runs it;
and a damaged cached model, built again with one line and the same scores."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from conftest import PROJECT_ROOT

from pyterrier_rag_axioms.runtime.model_files import QUIET_VARIABLE

pytest.importorskip("onnxruntime", reason="the assigner's default encoder runs through onnxruntime")

#: What libraries write to stderr (tracebacks, warnings, torch's export notes, progress bars), never the commands.
LIBRARY_NOISE = re.compile(
    r"Traceback|Warning:|WARNING|Converting a tensor|Exporting aten|Please consider|Loading weights|it/s\]"
)
#: The notes of a first use: a model file built, or another process's build waited for.
BUILD_NOTE = re.compile(
    r"rag-axioms: (building the .+ once, at first use \(about .+\): |waiting for another process to build the )"
)


def _first_use_environment(tmp_path) -> dict[str, str]:
    environment = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "HF_HUB_OFFLINE": "1",
                   "XDG_CACHE_HOME": str(tmp_path / "cache")}
    for name in ("RAG_AXIOMS_CACHE", QUIET_VARIABLE):
        environment.pop(name, None)
    return environment


def test_two_assign_runs_side_by_side_on_an_empty_cache_agree_and_say_what_they_build(tmp_path):
    environment = _first_use_environment(tmp_path)
    runs = [
        subprocess.Popen([sys.executable, "-m", "pyterrier_rag_axioms", "assign"], cwd=tmp_path, env=environment,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    (first_out, first_err), (second_out, second_err) = (run.communicate(timeout=900) for run in runs)
    assert [run.returncode for run in runs] == [0, 0], (first_err, second_err)
    assert first_out == second_out and "ldilab_gpt_4o" in first_out
    notes = (first_err + second_err).splitlines()
    assert not LIBRARY_NOISE.search(first_err + second_err), notes
    assert all(BUILD_NOTE.match(note) for note in notes), notes
    export = "the ONNX model file"
    assert sum(note.startswith(f"rag-axioms: building {export}") for note in notes) == 1, notes  # built once
    exports = list((tmp_path / "cache" / "pyterrier-rag-axioms" / "onnx").glob("*/*"))
    assert sorted(path.name for path in exports) == [".build.lock", "model.onnx", "model.onnx.json"]


def test_first_use_says_what_it_builds_before_it_builds_and_quiet_silences_it(tmp_path):
    environment = _first_use_environment(tmp_path)
    run = subprocess.Popen([sys.executable, "-m", "pyterrier_rag_axioms", "assign"], cwd=tmp_path, env=environment,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        first = run.stderr.readline()
        built = list((tmp_path / "cache" / "pyterrier-rag-axioms" / "onnx").glob("*/model.onnx"))
    finally:
        run.kill()
        run.communicate(timeout=60)
    assert first.startswith("rag-axioms: building the ONNX model file once, at first use (about "), first
    assert built == []  # the note comes first, while the file is still being built
    quiet = subprocess.run([sys.executable, "-m", "pyterrier_rag_axioms", "assign", "--quiet"], cwd=tmp_path,
                           env=_first_use_environment(tmp_path / "other"), capture_output=True, text=True,
                           timeout=900, check=False)
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr


def test_a_damaged_cached_model_is_built_again_with_one_line_and_the_same_scores(tmp_path):
    environment = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "HF_HUB_OFFLINE": "1",
                   "XDG_CACHE_HOME": str(tmp_path / "xdg"), "RAG_AXIOMS_CACHE": str(tmp_path / "cache")}

    def assign() -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pyterrier_rag_axioms", "assign"], cwd=tmp_path,
                              env=environment, capture_output=True, text=True, timeout=900, check=False)

    first = assign()
    assert first.returncode == 0, first.stderr
    [model] = (tmp_path / "cache" / "onnx").glob("*/model.onnx")
    with open(model, "r+b") as file:  # 5 MB of its weights overwritten
        file.seek(2_000_000)
        file.write(b"\0" * 5_000_000)
    again = assign()
    assert again.returncode == 0, again.stderr
    assert again.stdout == first.stdout
    notes = again.stderr.replace(first.stderr, "", 1).strip().splitlines()
    assert len(notes) == 1 and str(model) in notes[0] and "building it again" in notes[0], again.stderr
