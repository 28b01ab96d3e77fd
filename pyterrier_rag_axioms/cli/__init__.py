"""The ``rag-axioms`` command: judge (``rag-axioms [FILE]``), ``rerank``, ``runs``, ``assign``, ``score``,
``nuggetize``, ``ground``, ``cache``, ``data``, a module each. Not here: what they run, only how it is called."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import NoReturn

from pyterrier_rag_axioms.cli._errors import (
    ENDING_SIGNALS,
    USAGE_ERROR_STATUS,
    Terminated,
    error_line,
    is_input_error,
    signals_end_as_errors,
)
from pyterrier_rag_axioms.cli._printing import print_note
from pyterrier_rag_axioms.cli._progress import restore_bars
from pyterrier_rag_axioms.cli.assign import assign_main
from pyterrier_rag_axioms.cli.cache import cache_main
from pyterrier_rag_axioms.cli.data import data_main
from pyterrier_rag_axioms.cli.ground import ground_main
from pyterrier_rag_axioms.cli.judge import judge_main
from pyterrier_rag_axioms.cli.nuggetize import nuggetize_main
from pyterrier_rag_axioms.cli.rerank import rerank_main
from pyterrier_rag_axioms.cli.runs import runs_main
from pyterrier_rag_axioms.cli.score import score_main

#: Subcommands by name; each takes the remaining arguments and returns an exit status.
SUBCOMMANDS: dict[str, Callable[[Sequence[str]], int]] = {
    "judge": judge_main,  # the default command, by name
    "rerank": rerank_main, "runs": runs_main, "assign": assign_main, "cache": cache_main, "data": data_main,
    "nuggetize": nuggetize_main, "score": score_main, "ground": ground_main,
}


#: Exit status after Ctrl-C (128 + SIGINT, as a shell reports a process that SIGINT ended).
INTERRUPTED_STATUS = 130


def _caused_by_interrupt(error: BaseException) -> bool:
    """Whether a ``KeyboardInterrupt`` is behind ``error`` (its cause or context, at any depth)."""
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False


def _command(argv: Sequence[str]) -> str:
    """The command's name in its messages: ``rag-axioms`` or ``rag-axioms SUBCOMMAND``."""
    return f"rag-axioms {argv[0]}" if argv and argv[0] in SUBCOMMANDS else "rag-axioms"


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``rag-axioms``: the exit status (2 for bad input or arguments, with one line on stderr)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    command = _command(argv)

    def note(message: Warning | str, *_: object, **__: object) -> None:
        print_note(command, str(message))

    try:
        with warnings.catch_warnings(), signals_end_as_errors():
            warnings.showwarning = note  # a warning is one line on stderr, not a source line
            if argv and argv[0] in SUBCOMMANDS:
                return SUBCOMMANDS[argv[0]](argv[1:])
            return judge_main(argv)
    except KeyboardInterrupt:  # Ctrl-C: one line and the status a shell gives, no traceback
        print(f"{command}: interrupted", file=sys.stderr)
        return INTERRUPTED_STATUS
    except Terminated as ended:  # SIGTERM or SIGHUP: the same, once the workers are stopped
        print(f"{command}: {ended}", file=sys.stderr)
        return ended.status
    except BrokenPipeError:  # the reader of stdout left (`rag-axioms ... | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 0
    except Exception as error:
        if _caused_by_interrupt(error):  # Ctrl-C while a module loaded (e.g. onnxruntime): an ImportError
            print(f"{command}: interrupted", file=sys.stderr)
            return INTERRUPTED_STATUS
        if not is_input_error(error):
            raise
        print(f"{command}: error: {error_line(error)}", file=sys.stderr)
        return USAGE_ERROR_STATUS
    finally:
        restore_bars()  # progress lines for a log end with the command


def _signal_status(signum: int) -> tuple[int, str]:
    """The exit status and the line of a command that ``signum`` ended."""
    if signum == signal.SIGINT:
        return INTERRUPTED_STATUS, "interrupted"
    return 128 + signum, f"terminated by {signal.Signals(signum).name}"


def run() -> NoReturn:
    """The ``rag-axioms`` process (the installed script, ``python -m pyterrier_rag_axioms``): :func:`main`,
    the package's exit work (the caches' pending entries; :func:`main` has joined its worker pools), then the
    end of the process at once.

    The interpreter's own shutdown, which would follow, tears down torch, onnxruntime and spaCy for up to
    seconds without Python's signal handlers: a Ctrl-C then ended the process by SIGINT, with no word. Here a
    signal that comes after the result is printed ends the command as during the work: one line, status 130
    (128 + the signal's number for SIGTERM and SIGHUP). A second one ends it at once.
    """
    argv = sys.argv[1:]
    received: list[int] = []

    def record(signum: int, frame: object) -> None:
        received.append(signum)
        signal.signal(signum, signal.SIG_DFL)

    status = 0
    try:
        status = main(argv)
        for signum in (signal.SIGINT, *ENDING_SIGNALS):  # not one ignored (nohup) or handled (a JVM's)
            if signal.getsignal(signum) in (signal.SIG_DFL, signal.default_int_handler):
                signal.signal(signum, record)
    except KeyboardInterrupt:  # in main's last lines, after its own handler
        received.append(signal.SIGINT)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    from pyterrier_rag_axioms.runtime.cache import finish_caches

    # the package's exit work, now under these handlers: the caches' pending entries written (as its exit
    # handler would), then closed (as the teardown would: SQLite folds its write-ahead log into the database)
    finish_caches()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError):  # the reader left (`| head`): as main, stop quietly
            stream.flush()
    if received and status < 128:  # not a command that a signal ended already
        status, line = _signal_status(received[0])
        with contextlib.suppress(OSError):
            print(f"{_command(argv)}: {line}", file=sys.stderr, flush=True)
    os._exit(status)


__all__ = [
    "SUBCOMMANDS", "assign_main", "cache_main", "data_main", "judge_main", "main", "nuggetize_main", "rerank_main",
    "run", "runs_main", "score_main",
]
