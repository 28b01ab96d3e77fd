"""The command line never replaces its input and never lets response text drive the terminal (a real
process each time, never a traceback)."""

from __future__ import annotations

import os

import pytest
from conftest import cli_error, run_cli, write_records

RESPONSES = [
    {"qid": "q1", "query": "Why is the sky blue?", "docno": "a", "response": "Because of Rayleigh scattering."},
    {"qid": "q1", "query": "Why is the sky blue?", "docno": "b", "response": "It reflects the sea."},
]


# --- output that names the input -------------------------------------------------------------


@pytest.mark.parametrize("command", [[], ["rerank"], ["runs"]])
@pytest.mark.parametrize("link", ["same", "hard", "symbolic"])
def test_output_naming_the_input_is_refused_before_any_work(tmp_path, command, link):
    source = write_records(tmp_path / "responses.jsonl", RESPONSES)
    before = source.read_bytes()
    output = {"same": source, "hard": tmp_path / "hard.jsonl", "symbolic": tmp_path / "link.jsonl"}[link]
    if link == "hard":
        os.link(source, output)
    elif link == "symbolic":
        output.symlink_to(source)
    completed = run_cli(*command, str(source), "--axioms", "LEN1", "--output", str(output), cwd=tmp_path)
    line = cli_error(completed)
    assert str(output) in line and "input" in line
    assert completed.stdout == ""  # refused before any judging
    assert source.read_bytes() == before


@pytest.mark.parametrize("named", ["run", "nuggets"])
def test_assign_refuses_an_output_that_is_one_of_its_inputs(tmp_path, named):
    run = write_records(tmp_path / "run.jsonl", [{"run_id": "r", "topic_id": "q1", "answer": []}])
    nuggets = write_records(tmp_path / "nuggets.jsonl", [{"qid": "q1", "nuggets": []}])
    before = {path: path.read_bytes() for path in (run, nuggets)}
    output = {"run": run, "nuggets": nuggets}[named]
    line = cli_error(run_cli("assign", str(run), "--nuggets", str(nuggets), "--output", str(output), cwd=tmp_path))
    assert str(output) in line and "input" in line
    assert {path: path.read_bytes() for path in before} == before

def test_cli_tables_escape_terminal_control_sequences(tmp_path):
    hostile = [
        {**RESPONSES[0], "query": "sky\x1b]0;owned\x07", "docno": "a\x1b[2J", "response": "Blue\x1b[31m red\x9b."},
        {**RESPONSES[1], "query": "sky\x1b]0;owned\x07"},
    ]
    source = write_records(tmp_path / "hostile.jsonl", hostile)
    for command in ([], ["rerank"], ["runs"]):
        completed = run_cli(*command, str(source), "--axioms", "LEN1", cwd=tmp_path)
        assert completed.returncode == 0, completed.stderr
        assert "\x1b" not in completed.stdout and "\x9b" not in completed.stdout and "\x07" not in completed.stdout
        assert "\\x1b" in completed.stdout


def test_an_import_that_ctrl_c_broke_ends_as_an_interrupt(monkeypatch, capsys):
    from pyterrier_rag_axioms import cli

    def broken_import(argv):
        raise ImportError("DLL load failed while importing onnxruntime_pybind11_state")

    def interrupted_import(argv):
        try:
            raise KeyboardInterrupt  # Ctrl-C while a compiled module initialises
        except KeyboardInterrupt:
            raise ImportError("DLL load failed while importing onnxruntime_pybind11_state")  # noqa: B904 (as it is raised)

    monkeypatch.setitem(cli.SUBCOMMANDS, "runs", interrupted_import)
    assert cli.main(["runs"]) == cli.INTERRUPTED_STATUS
    assert capsys.readouterr().err.splitlines() == ["rag-axioms runs: interrupted"]
    monkeypatch.setitem(cli.SUBCOMMANDS, "runs", broken_import)  # no interrupt behind it: the error itself
    with pytest.raises(ImportError, match="DLL load failed"):
        cli.main(["runs"])
