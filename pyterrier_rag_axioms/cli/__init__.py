"""The ``rag-axioms`` command: ``rag-axioms [FILE]`` judges responses (:mod:`.judge`), ``rag-axioms rerank
[FILE]`` ranks them (:mod:`.rerank`). Without a file, both run on the sample shipped inside the package.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

from pyterrier_rag_axioms.cli.judge import judge_main
from pyterrier_rag_axioms.cli.rerank import rerank_main

#: Subcommands by name; each takes the remaining arguments and returns an exit status.
SUBCOMMANDS: dict[str, Callable[[Sequence[str]], int]] = {"rerank": rerank_main}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``rag-axioms``."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in SUBCOMMANDS:
        return SUBCOMMANDS[argv[0]](argv[1:])
    return judge_main(argv)


__all__ = ["SUBCOMMANDS", "judge_main", "main", "rerank_main"]
