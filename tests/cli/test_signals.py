"""SIGTERM and SIGHUP end a command as Ctrl-C does: one line, 128 + the signal's number; ``nohup`` is kept.
A signal after the result is printed, while the process ends, does the same."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
from conftest import PROJECT_ROOT, run_cli

from pyterrier_rag_axioms.cli._errors import Terminated, signals_end_as_errors

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="a POSIX signal")


@pytest.fixture
def handlers():
    """The test's own SIGTERM and SIGHUP handlers, put back afterwards."""
    before = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGHUP)}
    yield
    for signum, handler in before.items():
        signal.signal(signum, handler)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_raises_terminated_and_the_default_comes_back(handlers, signum: int):
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    with pytest.raises(Terminated) as raised, signals_end_as_errors():
        os.kill(os.getpid(), signum)  # the handler runs as the call returns
    assert str(raised.value) == f"terminated by {signal.Signals(signum).name}"
    assert raised.value.status == 128 + signum
    assert not isinstance(raised.value, Exception)  # no `except Exception` swallows it
    assert signal.getsignal(signal.SIGTERM) == signal.getsignal(signal.SIGHUP) == signal.SIG_DFL


def test_an_ignored_or_handled_signal_stays_so(handlers):
    def own(signum, frame):
        pass

    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # nohup
    signal.signal(signal.SIGTERM, own)
    with signals_end_as_errors():
        assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN and signal.getsignal(signal.SIGTERM) is own
    assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN and signal.getsignal(signal.SIGTERM) is own


def test_the_command_line_prints_one_line_and_the_status(handlers, monkeypatch, capsys):
    from pyterrier_rag_axioms import cli

    def ended(arguments):
        os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setitem(cli.SUBCOMMANDS, "data", ended)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    assert cli.main(["data"]) == 128 + signal.SIGTERM
    assert capsys.readouterr().err == "rag-axioms data: terminated by SIGTERM\n"


# A command in a new process whose exit work (writing the caches' pending entries, once its result is
# printed) gets a real signal, as from a Ctrl-C after the result is printed.
AT_EXIT = """
import os, signal, sys
from pyterrier_rag_axioms.cli import run
from pyterrier_rag_axioms.sample import trec_sample_path
from pyterrier_rag_axioms.runtime.cache import register_flushable

class Ending:
    def flush(self):
        if ending.done:  # flushes during the work
            os.kill(os.getpid(), signal.{signal})

ending = Ending()
ending.done = False
register_flushable(ending)
sys.argv = ["rag-axioms", "score", str(trec_sample_path("assignments.jsonl"))]
import pyterrier_rag_axioms.cli as cli
command = cli.SUBCOMMANDS["score"]

def score(arguments):
    status = command(arguments)
    ending.done = True
    return status

cli.SUBCOMMANDS["score"] = score
run()
"""


def _command(*arguments: str, cwd) -> subprocess.Popen:
    environment = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "HF_HUB_OFFLINE": "1"}
    environment.pop("RAG_AXIOMS_CACHE", None)
    return subprocess.Popen([sys.executable, *arguments], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=environment, cwd=cwd)


@pytest.mark.parametrize(("name", "status", "line"), [("SIGINT", 130, "interrupted"),
                                                      ("SIGTERM", 143, "terminated by SIGTERM")])
def test_a_signal_while_the_process_ends_prints_one_line_and_the_status(tmp_path, name, status, line):
    process = _command("-c", AT_EXIT.format(signal=name), cwd=tmp_path)
    out, err = process.communicate(timeout=300)
    assert process.returncode == status, err
    assert err.splitlines() == [f"rag-axioms score: {line}"]
    assert "ldilab_gpt_4o" in out  # the result, printed before


def test_ctrl_c_right_after_the_result_never_ends_the_process_without_a_word(tmp_path):
    process = _command("-m", "pyterrier_rag_axioms", "rerank", "--axioms", "COV1", cwd=tmp_path)
    out = ""
    for text in process.stdout:  # the last query's ranking: the result is printed
        out += text
        if text.startswith("[q8]"):
            break
    process.send_signal(signal.SIGINT)
    out += process.stdout.read()
    err = process.stderr.read()
    process.wait(timeout=300)
    # it had ended (0), or the signal came while it ended (130, one line); never SIGINT's own death (-2)
    assert process.returncode in (0, 130), (process.returncode, err)
    assert "Traceback" not in err
    if process.returncode == 130:
        assert err.splitlines()[-1] == "rag-axioms rerank: interrupted"


def test_the_process_that_ends_at_once_leaves_its_cache_closed(tmp_path):
    cache = tmp_path / "cache"
    completed = run_cli("--axioms", "COV1", cwd=tmp_path, RAG_AXIOMS_CACHE=str(cache))
    assert completed.returncode == 0, completed.stderr
    # SQLite's write-ahead log folded back: the connection was closed, as the interpreter's teardown did
    assert sorted(path.name for path in cache.iterdir()) == ["model-work.sqlite3"]
    again = run_cli("--axioms", "COV1", cwd=tmp_path, RAG_AXIOMS_CACHE=str(cache))
    assert again.stdout == completed.stdout
