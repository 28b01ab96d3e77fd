"""The command line reports bad input on one line with exit status 2, checks its output before any
work, and leaves the previous output where a run fails."""

from __future__ import annotations

import gzip
import json

import pandas as pd
import pytest
from conftest import OCEAN, SKY, two_systems, write_jsonl

from pyterrier_rag_axioms.cli import main
from pyterrier_rag_axioms.cli.rerank import write_ranking
from pyterrier_rag_axioms.io import read_responses, write_frame


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _assert_one_line_error(status: int, err: str, *parts: str) -> None:
    assert status == 2
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for part in parts:
        assert part in err, err


def _umask() -> int:
    import os

    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_cli_reports_bad_input_on_one_line(tmp_path, capsys):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    _assert_one_line_error(*_run([str(empty)], capsys)[::2], "empty.jsonl:1: no responses")
    _assert_one_line_error(*_run([str(tmp_path / "nope.jsonl")], capsys)[::2], "nope.jsonl: no such file")
    csv = tmp_path / "r.csv"
    csv.write_text("qid,query,response\n")
    _assert_one_line_error(*_run([str(csv)], capsys)[::2], "r.csv: unknown file format (suffix '.csv')")
    _assert_one_line_error(*_run(["--axioms", ","], capsys)[::2], "--axioms ',' names no axiom")
    _assert_one_line_error(*_run(["--axioms", "NOPE"], capsys)[::2], "unknown axiom 'NOPE'")
    bad = write_jsonl(tmp_path / "bad.jsonl", [
        '{"qid": "1", "query": "q", "docno": "a", "response": "One."}',
        '{"qid": "1", "query": "q", "docno": "b", "response": "Two.", "context": ["ok", 7]}',
    ])
    _assert_one_line_error(*_run([str(bad), "--axioms", "CORR1"], capsys)[::2], "bad.jsonl:2: column 'context'")
    _assert_one_line_error(*_run(["rerank", str(bad)], capsys)[::2], "rag-axioms rerank: error: ", "bad.jsonl:2:")
    _assert_one_line_error(*_run(["rerank", "--seed", "-1"], capsys)[::2], "--seed: must be a whole number >= 0")


def test_cli_checks_the_output_format_before_judging(tmp_path, capsys):
    status, out, err = _run(["--axioms", "CORR1", "--output", str(tmp_path / "prefs.csv")], capsys)
    _assert_one_line_error(status, err, "prefs.csv: unknown file format")
    assert out == ""  # nothing was judged
    status, out, err = _run(["rerank", "--output", str(tmp_path / "r.run"), "--run-name", "my run"], capsys)
    _assert_one_line_error(status, err, "run name 'my run' must be one word")
    assert out == ""


def test_cli_rerank_refuses_ids_with_whitespace_for_trec_output(tmp_path, capsys):
    path = two_systems().assign(docno=["run A", "B"])
    source = tmp_path / "r.jsonl"
    path.to_json(source, orient="records", lines=True)
    status, out, err = _run(["rerank", str(source), "--axioms", "CORR1", "--output", str(tmp_path / "r.run")], capsys)
    _assert_one_line_error(status, err, "docno 'run A'")
    assert out == "" and not (tmp_path / "r.run").exists()


def test_cli_reads_contexts_given_as_strings_and_lists(tmp_path, capsys):
    source = write_jsonl(tmp_path / "mixed.jsonl", [
        json.dumps({"qid": "1", "query": "q", "docno": "A", "response": SKY, "context": SKY}),
        json.dumps({"qid": "1", "query": "q", "docno": "B", "response": OCEAN, "context": [OCEAN, "Fish swim."]}),
    ])
    output = tmp_path / "prefs.parquet"
    status, _, err = _run([str(source), "--axioms", "CONS2", "--output", str(output)], capsys)
    assert status == 0, err
    written = pd.read_parquet(output)
    assert list(written["context_a"].iloc[0]) == [SKY] and list(written["context_b"].iloc[0]) == [OCEAN, "Fish swim."]
    ranking = tmp_path / "ranking.parquet"
    assert _run(["rerank", str(source), "--axioms", "CONS2", "--output", str(ranking)], capsys)[0] == 0
    assert [list(context) for context in pd.read_parquet(ranking)["context"]] in (
        [[SKY], [OCEAN, "Fish swim."]], [[OCEAN, "Fish swim."], [SKY]]
    )


def test_a_failed_run_leaves_the_previous_output(tmp_path, capsys):
    good = write_jsonl(tmp_path / "good.jsonl", [
        '{"qid": "1", "query": "q", "docno": "a", "response": "One [1]."}',
        '{"qid": "1", "query": "q", "docno": "b", "response": "Two."}',
    ])
    output = tmp_path / "prefs.jsonl"
    assert _run([str(good), "--axioms", "CORR1", "--output", str(output)], capsys)[0] == 0
    before = output.read_bytes()
    bad = write_jsonl(tmp_path / "bad.jsonl", ['{"qid": "1", "query": "q", "docno": "a", "response": null}'])
    assert _run([str(bad), "--axioms", "CORR1", "--output", str(output)], capsys)[0] == 2
    assert output.read_bytes() == before


def test_cli_errors_name_the_option_or_column_on_one_line(tmp_path, capsys):
    source = write_jsonl(tmp_path / "r.jsonl", [
        '{"qid": "1", "query": "q", "docno": "a", "response": "One."}',
        '{"qid": "1", "query": "q", "docno": "b", "response": "Two."}',
    ])
    no_response = write_jsonl(tmp_path / "nocol.jsonl", ['{"qid": "1", "query": "q", "docno": "a"}'])
    _assert_one_line_error(*_run([str(no_response)], capsys)[::2],
                           "nocol.jsonl: no 'response' column (the file's columns: qid, query, docno)")
    _assert_one_line_error(*_run([str(source), "--axioms", "TREC_RAG_NUGGET"], capsys)[::2],
                           "TREC_RAG_NUGGET is an oracle axiom")
    status, err = _run(["rerank", str(source), "--seed", "1.5"], capsys)[::2]
    _assert_one_line_error(status, err, "rag-axioms rerank: error: argument --seed: must be a whole number >= 0, "
                                        "not '1.5'")
    _assert_one_line_error(*_run(["rerank", str(source), "--min-decisive-share", "5"], capsys)[::2],
                           "argument --min-decisive-share: must be a number from 0 to 1, not '5'")
    _assert_one_line_error(*_run(["rerank", str(source), "--pivot", "p"], capsys)[::2],
                           "argument --pivot: invalid choice: 'p'")
    _assert_one_line_error(*_run([str(source), "--bogus"], capsys)[::2], "unrecognized arguments: --bogus")
    _assert_one_line_error(*_run(["rerank", str(source), "--model", "nuggets", "--min-decisive-share", "0.5"],
                                 capsys)[::2], "leave out --axioms, --combine, --weights and --min-decisive-share")
    _assert_one_line_error(*_run(["rerank", str(source), "--axioms", "LEN1", "--combine", "cascade",
                                  "--min-decisive-share", "0.3"], capsys)[::2],
                           "--min-decisive-share is for --combine majority, not --combine cascade")
    _assert_one_line_error(*_run(["rerank", str(source), "--axioms", "LEN1", "--method", "count", "--seed", "3"],
                                 capsys)[::2], "--pivot and --seed are KwikSort's")
    _assert_one_line_error(*_run(["runs", str(source), "--combine", "cascade"], capsys)[::2],
                           "--combine and --weights combine the axioms of --axioms: give --axioms too")
    _assert_one_line_error(*_run([str(source), "--axioms", "LEN1", "--cache", str(source)], capsys)[::2],
                           f"--cache {source}: is a file, not a directory")
    (tmp_path / "out.jsonl").mkdir()
    status, out, err = _run([str(source), "--axioms", "LEN1", "--output", str(tmp_path / "out.jsonl")], capsys)
    _assert_one_line_error(status, err, "out.jsonl: is a directory")
    assert out == ""  # nothing was judged
    _assert_one_line_error(*_run(["rerank", str(source), "--output", str(tmp_path / "r.csv")], capsys)[::2],
                           "use a TREC run file (.run, .txt, .trec) or a frame (.json, .jsonl, .parquet, .tsv)")


@pytest.mark.parametrize("name", ["p.parquet.gz", "p.jsonl.gz", "p.tsv.gz", "p.parquet", "p.run.gz"])
def test_outputs_are_readable_and_gzip_names_the_file_within(tmp_path, name):
    frame = two_systems().assign(score=[2.0, 1.0], rank=[0, 1])
    path = tmp_path / name
    if ".run" in name:
        write_ranking(frame, path, run_name="r")
        assert gzip.open(path, "rt").read().splitlines()[0] == "1 Q0 A 0 2.0 r"
    else:
        write_frame(frame, path)
        assert read_responses(path)["response"].tolist() == [SKY, OCEAN]
    assert path.stat().st_mode & 0o777 == 0o666 & ~_umask()  # a new file's permissions, not 0600
    if name.endswith(".gz"):
        with open(path, "rb") as raw:
            header = raw.read(64)
        assert header[:2] == b"\x1f\x8b" and name[:-3].encode() + b"\x00" in header  # not the temporary name
    assert [p.name for p in tmp_path.iterdir()] == [name]


def test_cli_stops_quietly_when_the_reader_of_its_output_leaves(tmp_path):
    """``rag-axioms FILE | head -1``: more output than a pipe holds, and the reader gone after one line."""
    import os
    import subprocess
    import sys

    responses = tmp_path / "many.jsonl"
    pd.DataFrame([{"qid": f"q{topic}", "query": f"question number {topic}", "docno": docno,
                   "response": "Short." if docno == "a" else "A longer answer here."}
                  for topic in range(400) for docno in ("a", "b")]).to_json(responses, orient="records", lines=True)
    process = subprocess.Popen(
        [sys.executable, "-m", "pyterrier_rag_axioms", str(responses), "--axioms", "LEN1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )
    assert process.stdout.readline().startswith(b"800 responses to 400 queries")
    process.stdout.close()
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=300) == 0, stderr
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr, stderr
