"""``python -m pyterrier_rag_axioms``: the ``rag-axioms`` command."""

from pyterrier_rag_axioms.cli import run

run()
