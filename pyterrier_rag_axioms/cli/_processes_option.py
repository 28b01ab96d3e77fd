"""The ``--processes N`` option of the commands that work topic by topic (``assign``, ``runs``, ``nuggetize``):
worker processes on this machine's cores, each on whole topics, with the same results
(:mod:`~pyterrier_rag_axioms.processes`)."""

from __future__ import annotations

import argparse


def _process_count(value: str) -> int:
    try:
        count = int(value)
    except ValueError:
        count = 0
    if count < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 1, not {value!r}")
    return count


def add_processes_option(parser: argparse.ArgumentParser) -> None:
    """The ``--processes N`` option (default: ``None``, the cores this process may use, at most 4)."""
    parser.add_argument(
        "--processes",
        metavar="N",
        type=_process_count,
        help="worker processes, each on whole topics, with the same results "
        "(default: the cores this process may use, at most 4; 1: this process alone)",
    )
