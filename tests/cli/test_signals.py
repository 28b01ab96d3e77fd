"""SIGTERM and SIGHUP end a command as Ctrl-C does: one line, 128 + the signal's number; ``nohup`` is kept."""

from __future__ import annotations

import os
import signal

import pytest

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
