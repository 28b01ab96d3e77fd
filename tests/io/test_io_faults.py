"""Files read back as written, malformed files reported by file and line, and writes that leave
nothing half-done: the round trip of every response-frame format, TSV contexts, strict JSON, atomic
writes under signals."""

from __future__ import annotations

import gzip
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from conftest import PROJECT_ROOT, cli_error, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyterrier_rag_axioms.io import atomic_write, read_responses, write_frame

RESPONSES = [
    {"qid": "q1", "query": "Why is the sky blue?", "docno": "a", "response": "Because of Rayleigh scattering."},
    {"qid": "q1", "query": "Why is the sky blue?", "docno": "b", "response": "It reflects the sea."},
]


# --- contexts and texts in TSV, and the round trip of every format --------------------------


def test_pandas_written_tsv_context_lists_are_read_as_lists(tmp_path):
    frame = pd.DataFrame(RESPONSES).assign(context=[["Blue light scatters.", "It's short."], ["The sea."]])
    frame.to_csv(tmp_path / "pandas.tsv", sep="\t", index=False)  # contexts as Python reprs
    read = read_responses(tmp_path / "pandas.tsv")
    assert read["context"].tolist() == [["Blue light scatters.", "It's short."], ["The sea."]]


def test_a_tsv_context_that_is_no_list_of_strings_is_refused_with_the_way_to_write_lists(tmp_path):
    path = tmp_path / "bad.tsv"
    path.write_text("qid\tquery\tdocno\tresponse\tcontext\nq1\tq\ta\tr\t['one', 2]\nq1\tq\tb\ts\t\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.tsv:2: .*JSON list"):
        read_responses(path)


def test_the_string_brackets_keeps_its_meaning_from_jsonl_to_tsv(tmp_path):
    frame = pd.DataFrame(RESPONSES).assign(context=["[]", ["[1] A passage."]])
    write_frame(frame, tmp_path / "out.tsv")
    read = read_responses(tmp_path / "out.tsv")
    assert [tuple(c) if isinstance(c, list) else (c,) for c in read["context"]] == [("[]",), ("[1] A passage.",)]


def test_a_carriage_return_in_a_tsv_cell_reads_back(tmp_path):
    frame = pd.DataFrame(RESPONSES).assign(response=["one\rtwo", "three\r\nfour"])
    write_frame(frame, tmp_path / "out.tsv")
    assert read_responses(tmp_path / "out.tsv")["response"].tolist() == ["one\rtwo", "three\r\nfour"]


_TEXT = st.text(
    st.one_of(st.characters(codec="utf-8"), st.sampled_from(["\r", "\n", "\t", '"', "'", "[", "]", "\\", "\x00"])),
    max_size=12,
)
_NONBLANK = _TEXT.filter(lambda text: text.strip() != "")
_CONTEXT = st.one_of(st.none(), st.just("[]"), _NONBLANK, st.lists(_NONBLANK, min_size=1, max_size=3))
_SUFFIXES = [".jsonl", ".jsonl.gz", ".tsv", ".tsv.gz", ".parquet", ".parquet.gz"]


def _meaning(context: object) -> tuple[str, ...] | None:
    """A context as its passages: a string is one passage, nothing is None (the response frame's rule)."""
    from pyterrier_rag_axioms.frames import normalize_context

    return normalize_context(context)


@st.composite
def response_frames(draw) -> pd.DataFrame:
    queries = draw(st.lists(_TEXT, min_size=1, max_size=3))
    rows = []
    for number, query in enumerate(queries):
        docnos = draw(st.lists(_NONBLANK, min_size=1, max_size=3, unique=True))
        for docno in docnos:
            rows.append({"qid": f"q{number}", "query": query, "docno": docno, "response": draw(_TEXT),
                         "context": draw(_CONTEXT)})
    return pd.DataFrame(rows)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(frame=response_frames())
def test_every_response_frame_reads_back_unchanged_from_every_format(tmp_path, frame):
    for suffix in _SUFFIXES:
        path = tmp_path / f"frame{suffix}"
        write_frame(frame, path)
        read = read_responses(path)
        for column in ("qid", "query", "docno", "response"):
            assert read[column].tolist() == frame[column].tolist(), (suffix, column)
        assert [_meaning(c) for c in read["context"]] == [_meaning(c) for c in frame["context"]], suffix


# --- malformed input files -------------------------------------------------------------


_LINE = '{"qid": "q1", "query": "q", "docno": "b", "response": "r"}\n'


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ('{"qid": "q1", "query": "q", "docno": "a", "response": "x", "response": "y"}\n', "'response' twice"),
        ('{"qid": "q1", "query": "q", "docno": "a", "response": "x", "score": 1e400}\n', "1e400"),
        ('{"qid": "q1", "query": "q", "docno": "a", "response": "x", "m": ' + "[" * 50000 + "]" * 50000 + "}\n",
         "nested"),
        ('{"qid": "q1", "query": "q", "docno": "a", "response": "x\\ud800y"}\n', "surrogate"),
    ],
    ids=["duplicate-key", "1e400", "deep-nesting", "lone-surrogate"],
)
def test_malformed_jsonl_is_an_error_with_file_and_line(tmp_path, content, problem):
    path = tmp_path / "bad.jsonl"
    path.write_text(_LINE + content, encoding="utf-8")
    with pytest.raises(ValueError, match=rf"bad\.jsonl:2: .*{problem}"):
        read_responses(path)
    line = cli_error(run_cli(str(path), "--axioms", "LEN1", cwd=tmp_path))
    assert "bad.jsonl:2:" in line and problem in line


def test_a_duplicate_tsv_header_is_an_error_with_file_and_line(tmp_path):
    path = tmp_path / "bad.tsv"
    path.write_text("qid\tquery\tdocno\tresponse\tresponse\nq1\tq\ta\tx\ty\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.tsv:1: .*'response'.*twice"):
        read_responses(path)
    assert "bad.tsv:1:" in cli_error(run_cli(str(path), "--axioms", "LEN1", cwd=tmp_path))


# --- rewriting an output: its mode, signals, reproducible gzip -------------------------------------


def test_rewriting_an_output_keeps_its_mode(tmp_path):
    path = tmp_path / "out.jsonl"
    write_frame(pd.DataFrame(RESPONSES), path)
    os.chmod(path, 0o600)
    write_frame(pd.DataFrame(RESPONSES), path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_gzip_output_is_the_same_bytes_on_every_run(tmp_path):
    write_frame(pd.DataFrame(RESPONSES), tmp_path / "out.jsonl.gz")
    first = (tmp_path / "out.jsonl.gz").read_bytes()
    assert int.from_bytes(first[4:8], "little") == 0, "the gzip header carries the time of writing"
    time.sleep(1.1)
    write_frame(pd.DataFrame(RESPONSES), tmp_path / "out.jsonl.gz")
    assert (tmp_path / "out.jsonl.gz").read_bytes() == first
    assert gzip.decompress(first)


_SLOW_WRITE = """
import signal, sys, time
from pathlib import Path
from pyterrier_rag_axioms.io import atomic_write
target, chained = Path(sys.argv[1]), sys.argv[2] == "chained"
if chained:  # a handler of the program's own, as `languagetool run` installs
    def stop(signum, frame):
        Path(str(target) + ".handler-ran").write_text("yes")
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, stop)
def write(path):
    Path(path).write_bytes(b"x" * 1_000_000)
    Path(str(target) + ".ready").write_text("yes")
    time.sleep(60)
atomic_write(target, write)
"""


@pytest.mark.parametrize(("signum", "chained"), [(signal.SIGTERM, False), (signal.SIGINT, False),
                                                 (signal.SIGTERM, True)])
def test_a_signal_during_a_write_leaves_no_partial_file(tmp_path, signum, chained):
    target = tmp_path / "out.jsonl"
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-c", _SLOW_WRITE, str(target), "chained" if chained else "plain"], env=env,
        stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 60
    while not Path(str(target) + ".ready").exists():
        assert process.poll() is None and time.monotonic() < deadline, process.stderr.read()
        time.sleep(0.05)
    process.send_signal(signum)
    process.wait(timeout=30)
    assert sorted(p.name for p in tmp_path.iterdir() if "partial" in p.name) == []
    assert not target.exists()
    if chained:
        assert Path(str(target) + ".handler-ran").exists()
        assert process.returncode == 128 + signum
    else:
        assert process.returncode != 0


def test_atomic_write_creates_its_temporary_file_in_the_target_directory(tmp_path):
    seen = []
    atomic_write(tmp_path / "out.txt", lambda path: (seen.append(Path(path).parent), Path(path).write_text("x")))
    assert seen == [tmp_path]
