"""How bad input or arguments are reported: one line that names the file, the line (1-based) and what is
wrong, and exit status 2, never a traceback. Warnings are notes of one line on stderr (:mod:`._printing`)."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from typing import NoReturn

from pyterrier_rag_axioms.cli._printing import printable

#: Exit status for bad input or arguments (as argparse uses for bad options).
USAGE_ERROR_STATUS = 2


class CommandLineError(ValueError):
    """Bad arguments: shown as one line, exit status 2."""


class CommandLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are :class:`CommandLineError`: one line (argparse prints its usage block too)."""

    def error(self, message: str) -> NoReturn:
        raise CommandLineError(f"{message} (see {self.prog} --help)")


class Terminated(BaseException):
    """SIGTERM or SIGHUP reached the command: it ends as after Ctrl-C (its worker processes stopped), with one line
    and the status a shell gives a process that the signal ended (128 + its number)."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"terminated by {signal.Signals(signum).name}")
        self.status = 128 + signum


#: The signals that end a command through :class:`Terminated` (those of the platform).
ENDING_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextlib.contextmanager
def signals_end_as_errors() -> Iterator[None]:
    """A context in which SIGTERM and SIGHUP raise :class:`Terminated` in the main thread, so that the
    command stops its workers and says so; a second signal ends it at once. A signal that is ignored
    (``nohup``) or handled already stays so; the handlers come back on leaving. Outside the main
    thread (where Python cannot handle signals) a no-op."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    command = os.getpid()

    def end(signum: int, frame: object) -> None:
        for ending in ENDING_SIGNALS:
            signal.signal(ending, signal.SIG_DFL)
        if os.getpid() != command:  # a worker forked before it reset the handler: the signal's default action
            os.kill(os.getpid(), signum)
        raise Terminated(signum)

    ours = [signum for signum in ENDING_SIGNALS if signal.getsignal(signum) == signal.SIG_DFL]
    for signum in ours:
        signal.signal(signum, end)
    try:
        yield
    finally:
        for signum in ours:
            if signal.getsignal(signum) is end:  # not one set meanwhile (a JVM's)
                signal.signal(signum, signal.SIG_DFL)


def is_input_error(error: BaseException) -> bool:
    """Whether an error reports bad input, bad arguments, a missing service or too little memory, rather than a
    fault of the program.

    A service is LanguageTool's server (CLAR1) or TARGER's (the argumentative GEN_* axioms): where
    it does not answer, the message says how to start or point to one. A worker process that died
    (the out-of-memory killer's, say) names its topics and suggests ``--processes 1``.
    """
    if isinstance(error, (ValueError, OSError)):
        return True
    known = [
        getattr(sys.modules.get(module), name, None)
        for module, name in [
            ("pyterrier.validate", "InputValidationError"),
            ("pyterrier_rag_axioms.tools.grammar.client", "LanguageToolError"),
            ("pyterrier_rag_axioms.tools.arguments", "TargerUnavailableError"),
            ("pyterrier_rag_axioms.runtime.processes", "WorkerDiedError"),
        ]
    ]
    return isinstance(error, tuple(kind for kind in known if kind is not None))


def error_line(error: BaseException) -> str:
    """The message of an error on one line, control characters escaped."""
    text = str(error.args[0]) if isinstance(error, KeyError) and error.args else str(error)
    return printable(" ".join(text.split())) or type(error).__name__
