"""``rag-axioms assign`` checks its outputs, model and run files before the work: each refusal is one
line naming the file, nothing is printed as a result, and no output is replaced or lost."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from conftest import cli_error, run_cli, write_records

from pyterrier_rag_axioms.cli import main
from pyterrier_rag_axioms.cli.assign import write_outputs
from pyterrier_rag_axioms.nuggets import NuggetModel

QUERY = "When did people first land on the Moon?"
NUGGETS = [
    {
        "qid": "moon",
        "nuggets": [
            {"text": "Apollo 11 landed on the Moon in 1969", "importance": "vital"},
            {"text": "Neil Armstrong was the first person to walk on the Moon", "importance": "okay"},
        ],
    }
]


def run_line(run_id: str, text: str, *, topic: str = QUERY) -> dict:
    return {
        "run_id": run_id,
        "topic_id": "moon",
        "topic": topic,
        "references": ["d1"],
        "answer": [{"text": text, "citations": [0]}],
    }


@pytest.fixture
def inputs(tmp_path):
    """A run file of two runs answering one topic, its nugget file, and an older output that must survive."""
    runs = write_records(
        tmp_path / "runs.jsonl",
        [
            run_line("a", "Apollo 11 landed on the Moon in 1969."),
            run_line("b", "The Moon is far away."),
        ],
    )
    nuggets = write_records(tmp_path / "nuggets.jsonl", NUGGETS)
    old = tmp_path / "old.jsonl"
    old.write_text('{"run": "older output"}\n', encoding="utf-8")
    return {"runs": runs, "nuggets": nuggets, "old": old}


def assign(capsys, *arguments: str) -> tuple[int, str, str]:
    status = main(["assign", *arguments])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def refused(capsys, *arguments: str) -> str:
    """The one error line of a refused ``assign``; fails where anything was printed as a result."""
    status, out, err = assign(capsys, *arguments)
    assert status == 2, (out, err)
    assert out == "", out  # refused before the work: no table, no "written" note
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def refused_outputs(capsys, inputs, assignments, output) -> str:
    """The one-line refusal of ``assign`` on the test runs and nuggets with these two outputs."""
    return refused(capsys, str(inputs["runs"]), "--nuggets", str(inputs["nuggets"]), "--assignments",
                   str(assignments), "--output", str(output))


# --- the two outputs ---------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["same", "symbolic", "dotdot", "hard"])
def test_output_and_assignments_naming_one_file_are_refused_before_the_work(inputs, tmp_path, capsys, how):
    import os

    old = inputs["old"]
    before = old.read_bytes()
    (tmp_path / "sub").mkdir()
    other = {
        "same": old,
        "symbolic": tmp_path / "link.jsonl",
        "dotdot": tmp_path / "sub" / ".." / "old.jsonl",
        "hard": tmp_path / "hard.jsonl",
    }[how]
    if how == "symbolic":
        other.symlink_to(old)
    elif how == "hard":
        os.link(old, other)
    err = refused_outputs(capsys, inputs, str(old), str(other))
    assert "--assignments" in err and "--output" in err and "name one file" in err, err
    assert old.read_bytes() == before


def test_an_unwritable_output_folder_is_refused_before_the_work_naming_the_real_path(inputs, tmp_path, capsys):
    old = inputs["old"]
    before = old.read_bytes()
    for unwritable in (
        "/proc/assignments.jsonl",
        str(tmp_path / "missing" / "assignments.jsonl"),
        str(inputs["runs"]) + "/assignments.jsonl",
    ):
        err = refused_outputs(capsys, inputs, unwritable, str(old))
        assert unwritable in err and ".partial" not in err, err
        assert old.read_bytes() == before  # the run table's older file is as it was
    assert not [path.name for path in tmp_path.iterdir() if ".partial" in path.name]


def test_a_failed_output_loses_no_other_one(tmp_path, capsys):
    table = pd.DataFrame({"run": ["a"], "all": [0.5]})
    assignments = pd.DataFrame({"qid": ["moon"], "docno": ["a"], "assignment": ["support"]})
    blocked = tmp_path / "blocked.jsonl"
    blocked.mkdir()  # became a folder after the checks: its write fails
    for order in (
        [(table, str(blocked), "Run table"), (assignments, str(tmp_path / "a.jsonl"), "Assignments")],
        [(assignments, str(blocked), "Assignments"), (table, str(tmp_path / "t.jsonl"), "Run table")],
    ):
        with pytest.raises(OSError) as caught:
            write_outputs(order)
        assert str(blocked) in str(caught.value) and ".partial" not in str(caught.value)
        written = order[1][1]
        assert pd.read_json(written, lines=True, dtype=False).equals(order[1][0])
        assert f"written to {written}" in capsys.readouterr().out


# --- the model file ----------------------------------------------------------------------------


def shipped() -> dict:
    model = NuggetModel.default()
    return {field: list(value) if isinstance(value, tuple) else value for field, value in vars(model).items()}


def text_with(**changes) -> str:
    return json.dumps({**shipped(), **changes}, indent=2, ensure_ascii=False)


MALFORMED_MODELS = {
    "a list": ("[1, 2]", "expected a JSON object"),
    "deep nesting": ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    "string means": (text_with(means=["a", "b", "c", "d", "e"]), "means[0] must be a number"),
    "weights of another shape": (text_with(weights=[[1.0, 2.0]] * 5), "weights[0] must be a number"),
    "too few weights": (text_with(weights=[1.0, 2.0]), "weights has 2 entries, but features has 5"),
    "a NaN intercept": (text_with().replace('"intercept": -1.1055033177496172', '"intercept": NaN'), "NaN"),
    "a repeated intercept": (
        text_with().replace('"intercept":', '"intercept": 5.0, "intercept":'),
        "key 'intercept' twice",
    ),
    "an empty feature list": (text_with(features=[], means=[], scales=[], weights=[]), "features is empty"),
    "a zero scale": (text_with(scales=[0.0, 1.0, 1.0, 1.0, 1.0]), "scales[0] must be > 0"),
    "a 5,000-digit number": (text_with().replace("-1.1055033177496172", "9" * 5000), "5,000 digits"),
    "1e400": (text_with().replace("-1.1055033177496172", "1e400"), "out of range"),
    "an unknown field": (text_with(bias=1.0), "unknown field 'bias'"),
    "a missing field": (
        json.dumps({key: value for key, value in shipped().items() if key != "encoder"}),
        "field 'encoder' is missing",
    ),
}


@pytest.mark.parametrize("case", sorted(MALFORMED_MODELS))
def test_a_malformed_model_is_refused_at_construction_in_one_line_naming_the_file(inputs, tmp_path, capsys, case):
    text, expected = MALFORMED_MODELS[case]
    model = tmp_path / "model.json"
    model.write_text(text, encoding="utf-8")
    old = inputs["old"]
    before = old.read_bytes()
    err = refused(
        capsys, str(inputs["runs"]), "--nuggets", str(inputs["nuggets"]), "--model", str(model), "--output", str(old)
    )
    assert f"{model}:" in err and expected in err, err
    assert old.read_bytes() == before


def test_a_latin1_model_file_is_refused_naming_file_and_line(inputs, tmp_path, capsys):
    model = tmp_path / "model.json"
    model.write_bytes(text_with(encoder="all-MiniLM-L6-v2 café").encode("latin-1"))
    err = refused(capsys, str(inputs["runs"]), "--nuggets", str(inputs["nuggets"]), "--model", str(model))
    assert f"{model}:" in err and "not UTF-8 text (byte 0xe9" in err, err


def test_a_model_fitted_on_other_embeddings_is_refused(inputs, tmp_path, capsys):
    model = tmp_path / "model.json"
    model.write_text(text_with(encoder="bge-small-en-v1.5"), encoding="utf-8")
    err = refused(capsys, str(inputs["runs"]), "--nuggets", str(inputs["nuggets"]), "--model", str(model))
    assert str(model) in err and "'bge-small-en-v1.5'" in err and "'all-MiniLM-L6-v2'" in err, err
    # the shipped model with another encoder (--sentence-model: its name before)
    for option in ("--encoder", "--sentence-model"):
        err = refused(capsys, str(inputs["runs"]), "--nuggets", str(inputs["nuggets"]), option, "bge-small")
        assert "the shipped nugget model" in err and "'bge-small'" in err, err
    # the shipped model (fitted on the transformer's embeddings) with the static model distilled from it
    err = refused(capsys, str(inputs["runs"]), "--nuggets", str(inputs["nuggets"]), "--encoder", "static")
    assert "'all-MiniLM-L6-v2:static'" in err and "encoder='all-MiniLM-L6-v2'" in err, err


# --- run files ---------------------------------------------------------------------------------


def test_an_empty_run_file_is_refused_and_no_output_is_replaced(inputs, tmp_path, capsys):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    old = inputs["old"]
    before = old.read_bytes()
    err = refused(
        capsys,
        str(inputs["runs"]),
        str(empty),
        "--nuggets",
        str(inputs["nuggets"]),
        "--output",
        str(old),
        "--assignments",
        str(tmp_path / "assignments.jsonl"),
    )
    assert f"{empty}:1: no answers" in err, err
    assert old.read_bytes() == before and not (tmp_path / "assignments.jsonl").exists()


def test_run_files_that_disagree_name_the_file_and_line(inputs, tmp_path, capsys):
    other = write_records(
        tmp_path / "other.jsonl",
        [
            run_line("c", "Apollo 11 landed in 1969."),
            run_line("d", "It was 1969.", topic="When was the Moon landing?"),
        ],
    )
    err = refused(capsys, str(other), "--nuggets", str(inputs["nuggets"]))  # within one file
    assert f"{other}:2: topic 'moon' has the query text" in err and "on line 1" in err, err
    other = write_records(tmp_path / "other.jsonl", [run_line("d", "It was 1969.", topic="When was the landing?")])
    err = refused(capsys, str(inputs["runs"]), str(other), "--nuggets", str(inputs["nuggets"]))  # across files
    assert f"{other}:1: topic 'moon' has the query text" in err and f"at {inputs['runs']}:1" in err, err
    again = write_records(tmp_path / "again.jsonl", [run_line("b", "Again.")])
    err = refused(capsys, str(inputs["runs"]), str(again), "--nuggets", str(inputs["nuggets"]))
    assert f"{again}:1: run 'b' answers topic 'moon' again (first at {inputs['runs']}:2)" in err, err


def test_assign_writes_both_outputs_and_a_real_process_refuses_in_one_line(inputs, tmp_path):
    def assign(table: str, assignments: str):
        return run_cli("assign", str(inputs["runs"]), "--nuggets", str(inputs["nuggets"]), "--output",
                       str(tmp_path / table), "--assignments", str(tmp_path / assignments), cwd=tmp_path)

    completed = assign("table.jsonl", "pairs.tsv")
    assert completed.returncode == 0, completed.stderr
    assert "Run table written to" in completed.stdout and "Assignments written to" in completed.stdout
    assert len(pd.read_json(tmp_path / "table.jsonl", lines=True)) == 2
    assert "name one file" in cli_error(assign("table.jsonl", "table.jsonl"))


def test_ctrl_c_prints_one_line_and_exits_130(inputs, tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    from conftest import PROJECT_ROOT

    # enough answers that the embedding is still under way when the signal comes
    runs = write_records(
        tmp_path / "many-runs.jsonl",
        [run_line(f"run{i}", f"Apollo 11 landed on the Moon in {1900 + i}. Crew member {i} walked there.")
         for i in range(1500)],
    )
    environment = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "HF_HUB_OFFLINE": "1"}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pyterrier_rag_axioms",
            "assign",
            str(runs),
            "--nuggets",
            str(inputs["nuggets"]),
            "--output",
            str(inputs["old"]),
            "--cache",
            "none",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
        cwd=tmp_path,
    )
    maps = f"/proc/{process.pid}/maps"
    while process.poll() is None:  # the work is under way once the models' libraries are loaded
        try:
            # the encoder's library: spaCy has parsed and the embedding is about to start (a Ctrl-C
            # during the import of spaCy's Cython modules makes CPython end by SIGINT after the
            # handler ran)
            if "onnxruntime" in open(maps).read():
                time.sleep(1.0)  # onnxruntime's import done: the answers are being embedded
                break
        except OSError:
            break
        time.sleep(0.05)
    assert process.poll() is None, process.communicate()
    before = inputs["old"].read_bytes()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=600)
    assert process.returncode == 130, err
    assert err.strip().splitlines() == ["rag-axioms assign: interrupted"], err
    assert inputs["old"].read_bytes() == before


def test_cache_prune_removes_the_partial_files_killed_writes_left(tmp_path, capsys, monkeypatch):
    import os
    import time

    monkeypatch.delenv("RAG_AXIOMS_CACHE", raising=False)
    outputs, cache = tmp_path / "outputs", tmp_path / "cache"
    outputs.mkdir()
    cache.mkdir()
    stale = [outputs / ".a1b2c3.partial-table.jsonl", cache / ".x9y8.partial-model.json"]
    fresh = outputs / ".d4e5.partial-pairs.jsonl"  # a write under way
    kept = outputs / "table.jsonl"
    for path in [*stale, fresh, kept]:
        path.write_text("{}\n")
    hours_ago = time.time() - 2 * 3600
    for path in [*stale, kept]:
        os.utime(path, (hours_ago, hours_ago))
    assert main(["cache", "--prune", "--cache", str(cache), "--outputs-in", str(outputs)]) == 0
    assert "Removed 2 .partial-* files" in capsys.readouterr().out
    assert not any(path.exists() for path in stale) and fresh.exists() and kept.exists()
    assert main(["cache", "--outputs-in", str(outputs)]) == 2  # only with --prune


def test_a_log_gets_progress_lines_and_quiet_silences_them(inputs, tmp_path):
    arguments = ["assign", str(inputs["runs"]), "--nuggets", str(inputs["nuggets"]), "--cache", "none"]
    logged = run_cli(*arguments, cwd=tmp_path, RAG_AXIOMS_PROGRESS_SECONDS="0")  # a line at every update
    assert logged.returncode == 0, logged.stderr
    lines = [line for line in logged.stderr.splitlines() if line.startswith("NuggetAssigner: ")]
    assert lines and "1/1 topic (100%)" in lines[-1] and " elapsed, " in lines[-1] and lines[-1].endswith(" left")
    assert "\r" not in logged.stderr and "|" not in logged.stderr  # lines, not a redrawn bar
    quiet = run_cli(*arguments, "--quiet", cwd=tmp_path, RAG_AXIOMS_PROGRESS_SECONDS="0")
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
    assert quiet.stdout == logged.stdout
