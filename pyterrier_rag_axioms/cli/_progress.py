"""Progress for a log: where stderr is no terminal, each long stage writes a plain line every few minutes
(stage, done, rate, time left) instead of a bar, so that a batch job's log shows it is alive."""

from __future__ import annotations

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
