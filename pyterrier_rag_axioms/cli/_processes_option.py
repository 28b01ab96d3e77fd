"""The ``--processes N`` option of the commands that work topic by topic (``assign``, ``runs``, ``nuggetize``):
worker processes on this machine's cores, each on whole topics, with the same results
(:mod:`~pyterrier_rag_axioms.runtime.processes`)."""

from __future__ import annotations

import argparse

from pyterrier_rag_axioms.cli._declared_option import add_declared_option


def add_processes_option(parser: argparse.ArgumentParser) -> None:
    """The ``--processes N`` option, as the transformers that work topic by topic declare ``processes``."""
    from pyterrier_rag_axioms.nuggets import NuggetAssigner
    from pyterrier_rag_axioms.runtime.processes import MAX_PROCESSES

    add_declared_option(
        parser, NuggetAssigner, "processes", metavar="N",
        help="worker processes, each on whole topics, with the same results",
        default_text=f"the cores this process may use, at most {MAX_PROCESSES}; 1: this process alone",
    )
