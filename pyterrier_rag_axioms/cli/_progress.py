"""Progress: ``--quiet``/``--verbose``; bars on a terminal, and for a log, where stderr is no terminal, a plain
line every few minutes per long stage (stage, done, rate, time left), so that a batch job's log shows it is alive."""

from __future__ import annotations

import argparse
import io
import os
import sys
import time

import tqdm

#: Environment variable: seconds between two progress lines in a log (default :data:`LOG_INTERVAL`).
INTERVAL_VARIABLE = "RAG_AXIOMS_PROGRESS_SECONDS"
#: Seconds between two progress lines of one stage in a log, by default.
LOG_INTERVAL = 180.0


def log_interval() -> float:
    """The seconds between two progress lines: ``$RAG_AXIOMS_PROGRESS_SECONDS``, else :data:`LOG_INTERVAL`."""
    value = os.environ.get(INTERVAL_VARIABLE, "").strip()
    try:
        return max(float(value), 0.0) if value else LOG_INTERVAL
    except ValueError:
        raise ValueError(f"${INTERVAL_VARIABLE} must be a number of seconds, not {value!r}") from None


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    minutes, seconds = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


class LogLines(tqdm.tqdm):
    """A ``tqdm`` that writes one plain line per interval instead of redrawing a bar:
    ``STAGE: DONE/TOTAL UNIT (PERCENT), RATE UNIT/s, ELAPSED elapsed, LEFT left``."""

    def __init__(self, *args, **kwargs):
        self.interval = log_interval()
        self.last_line = time.monotonic()
        kwargs.update(file=io.StringIO(), mininterval=self.interval, maxinterval=max(self.interval, 10.0))
        super().__init__(*args, **kwargs)

    def display(self, msg: str | None = None, pos: int | None = None) -> None:
        now = time.monotonic()
        if now - self.last_line < self.interval:
            return
        self.last_line = now
        info = self.format_dict
        done, total, unit, rate = info["n"], info["total"], info["unit"], info["rate"]
        if rate is None and info["elapsed"]:
            rate = done / info["elapsed"]
        share = f" ({100 * done / total:.0f}%)" if total else ""
        left = (total - done) / rate if total and rate else None
        stage = info["prefix"] or "progress"
        line = (
            f"{stage}: {done}/{total if total else '?'} {unit}{share}, {rate or 0:.2f} {unit}/s, "
            f"{_duration(info['elapsed'])} elapsed, {_duration(left)} left"
        )
        sys.stderr.write(line + "\n")
        sys.stderr.flush()


_replaced: list[type] = []


def use_log_lines() -> None:
    """Make ``pt.tqdm`` (every progress bar of the package) write :class:`LogLines`, until
    :func:`restore_bars`."""
    import pyterrier as pt

    log_interval()  # a malformed $RAG_AXIOMS_PROGRESS_SECONDS fails now, in one line
    if pt.tqdm is not LogLines:
        _replaced.append(pt.tqdm)
        pt.tqdm = LogLines


def restore_bars() -> None:
    """Give ``pt.tqdm`` back what it was before :func:`use_log_lines` (a command's end)."""
    if _replaced:
        import pyterrier as pt

        pt.tqdm = _replaced.pop()


def add_progress_options(parser: argparse.ArgumentParser) -> None:
    """``--quiet`` and ``--verbose``: progress bars on stderr, by default where stderr is a terminal."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--quiet", action="store_true", help="no progress bars (default where stderr is no terminal)")
    group.add_argument("--verbose", action="store_true", help="progress bars also where stderr is no terminal")


def resolve_progress(args: argparse.Namespace) -> None:
    """Set ``args.verbose``: whether to show progress (one bar per long stage) on stderr.

    ``--verbose`` shows it, ``--quiet`` hides it (and the notes on model files built at first use); by
    default it shows where stderr is a terminal, so that output redirected to a file or read by a
    program holds results and notes only; there, a stage that runs for minutes writes a plain line
    every few minutes instead (see :class:`LogLines`). Model libraries' own bars (loading weights) are never shown.
    """
    args.verbose = bool(args.verbose or (not args.quiet and sys.stderr.isatty()))
    if args.quiet:  # the notes on model files built at first use too, in worker processes as well
        from pyterrier_rag_axioms.runtime.model_files import QUIET_VARIABLE

        os.environ[QUIET_VARIABLE] = "1"
    if not args.verbose and not args.quiet:  # a log: one line per stage every few minutes, not a bar
        use_log_lines()
        args.verbose = True
    quiet_model_loading()


def quiet_model_loading() -> None:
    """Hide the progress bars that model libraries print while loading weights.

    Without importing them where they are not imported yet (transformers alone takes seconds to
    import, and a run whose model work is all cached loads no model): the environment variable
    that huggingface_hub and transformers read on import does it then.
    """
    if "transformers" in sys.modules:
        from transformers.utils import logging as transformers_logging

        transformers_logging.disable_progress_bar()
    elif "huggingface_hub" in sys.modules:
        from huggingface_hub.utils import disable_progress_bars

        disable_progress_bars()
    else:
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
