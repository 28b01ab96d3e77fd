"""``python -m pyterrier_rag_axioms.languagetool``: the command of the local LanguageTool server.

The server manager lives in :mod:`pyterrier_rag_axioms.tools.grammar.languagetool`; this module
only keeps the short command.
"""

from pyterrier_rag_axioms.tools.grammar.languagetool import main

if __name__ == "__main__":
    raise SystemExit(main())
