"""Nothing lost: outputs never replace inputs, files read back as written, and malformed files are
reported by file and line, from Python and from the command line (a real process, never a traceback)."""

from __future__ import annotations

import gzip
import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyterrier_rag_axioms.io import atomic_write, read_responses, write_frame

PROJECT_ROOT = Path(__file__).resolve().parents[1]

RESPONSES = [
    {"qid": "q1", "query": "Why is the sky blue?", "docno": "a", "response": "Because of Rayleigh scattering."},
    {"qid": "q1", "query": "Why is the sky blue?", "docno": "b", "response": "It reflects the sea."},
]


def run_command(*arguments: str, cwd: Path, **environment: str) -> subprocess.CompletedProcess:
    """``rag-axioms ARGUMENTS`` in a new process; fails the test on a traceback."""
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "HF_HUB_OFFLINE": "1", **environment}
    env.pop("RAG_AXIOMS_CACHE", None)
    completed = subprocess.run(
        [sys.executable, "-m", "pyterrier_rag_axioms", *arguments], capture_output=True, text=True, cwd=cwd,
        env=env, check=False, timeout=600,
    )
    assert "Traceback" not in completed.stderr, completed.stderr
    return completed


def error_line(completed: subprocess.CompletedProcess) -> str:
    """The one line a failed command printed on stderr."""
    assert completed.returncode == 2, (completed.returncode, completed.stdout, completed.stderr)
    lines = [line for line in completed.stderr.splitlines() if "error:" in line]
    assert len(lines) == 1, completed.stderr
    return lines[0]


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


# --- 1. an output that names the input -------------------------------------------------------------


@pytest.mark.parametrize("command", [[], ["rerank"], ["runs"]])
@pytest.mark.parametrize("link", ["same", "hard", "symbolic"])
def test_output_naming_the_input_is_refused_before_any_work(tmp_path, command, link):
    source = write_jsonl(tmp_path / "responses.jsonl", RESPONSES)
    before = source.read_bytes()
    output = {"same": source, "hard": tmp_path / "hard.jsonl", "symbolic": tmp_path / "link.jsonl"}[link]
    if link == "hard":
        os.link(source, output)
    elif link == "symbolic":
        output.symlink_to(source)
    completed = run_command(*command, str(source), "--axioms", "LEN1", "--output", str(output), cwd=tmp_path)
    line = error_line(completed)
    assert str(output) in line and "input" in line
    assert completed.stdout == ""  # refused before any judging
    assert source.read_bytes() == before


# --- 2. and 3. contexts and texts in TSV, and the round trip of every format --------------------------


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


# --- 5. and 15. malformed input files -------------------------------------------------------------


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
    line = error_line(run_command(str(path), "--axioms", "LEN1", cwd=tmp_path))
    assert "bad.jsonl:2:" in line and problem in line


def test_a_duplicate_tsv_header_is_an_error_with_file_and_line(tmp_path):
    path = tmp_path / "bad.tsv"
    path.write_text("qid\tquery\tdocno\tresponse\tresponse\nq1\tq\ta\tx\ty\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.tsv:1: .*'response'.*twice"):
        read_responses(path)
    assert "bad.tsv:1:" in error_line(run_command(str(path), "--axioms", "LEN1", cwd=tmp_path))


# --- 6. rewriting an output: its mode, signals, reproducible gzip -------------------------------------


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


# --- 7. a saved model does not follow a planted link ----------------------------------------------


def test_saving_a_model_does_not_follow_a_planted_link(tmp_path):
    from pyterrier_rag_axioms import PreferenceModel

    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (tmp_path / ".model.json.tmp").symlink_to(victim)
    PreferenceModel.default("crowd").save(tmp_path / "model.json")
    assert victim.read_text() == "keep me"
    assert PreferenceModel.load(tmp_path / "model.json").coefficients


# --- 15. malformed model files, terminal escapes ---------------------------------------------------


def _model_document() -> dict:
    from importlib.resources import files

    return json.loads((files("pyterrier_rag_axioms.models") / "preference-crowd.json").read_text())


def _broken(change) -> dict:
    document = _model_document()
    change(document)
    return document


MALFORMED_MODELS = {
    "features-not-a-list": lambda d: d.update(features=3),
    "feature-not-an-object": lambda d: d.update(features=["LEN1"]),
    "missing-weight": lambda d: d["features"][0].pop("weight"),
    "weight-not-a-number": lambda d: d["features"][0].update(weight="heavy"),
    "parameters-not-an-object": lambda d: d["features"][0].update(parameters=[1, 2]),
    "unknown-parameter": lambda d: d["features"][0].update(parameters={"no_such_parameter": 1}),
    "name-not-a-string": lambda d: d.update(name=5),
}


@pytest.mark.parametrize("kind", list(MALFORMED_MODELS))
def test_a_malformed_model_file_is_a_clear_error(tmp_path, kind):
    from pyterrier_rag_axioms import PreferenceModel

    path = tmp_path / "model.json"
    path.write_text(json.dumps(_broken(MALFORMED_MODELS[kind])), encoding="utf-8")
    with pytest.raises(ValueError, match=r"model\.json: "):
        PreferenceModel.load(path)
    assert "model.json" in error_line(run_command(str(write_jsonl(tmp_path / "r.jsonl", RESPONSES)),
                                                  "--model", str(path), cwd=tmp_path))


_DUPLICATE_FEATURES = (
    b'{"format": "pyterrier-rag-axioms/preference-model", "features": [], '
    b'"features": [{"axiom": "LEN1", "name": "LEN1", "scale": 1.0, "weight": 1.0}]}'
)


@pytest.mark.parametrize("content", [b"\xff\xfe not UTF-8", b"[" * 100000 + b"]" * 100000,
                                     _DUPLICATE_FEATURES],
                         ids=["not-utf8", "deep-nesting", "duplicate-key"])
def test_a_model_file_that_is_no_json_object_is_a_clear_error(tmp_path, content):
    from pyterrier_rag_axioms import PreferenceModel

    path = tmp_path / "model.json"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=r"model\.json"):
        PreferenceModel.load(path)


def test_cli_tables_escape_terminal_control_sequences(tmp_path):
    hostile = [
        {**RESPONSES[0], "query": "sky\x1b]0;owned\x07", "docno": "a\x1b[2J", "response": "Blue\x1b[31m red\x9b."},
        {**RESPONSES[1], "query": "sky\x1b]0;owned\x07"},
    ]
    source = write_jsonl(tmp_path / "hostile.jsonl", hostile)
    for command in ([], ["rerank"], ["runs"]):
        completed = run_command(*command, str(source), "--axioms", "LEN1", cwd=tmp_path)
        assert completed.returncode == 0, completed.stderr
        assert "\x1b" not in completed.stdout and "\x9b" not in completed.stdout and "\x07" not in completed.stdout
        assert "\\x1b" in completed.stdout
