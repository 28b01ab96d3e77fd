"""``python -m pyterrier_rag_axioms``: the ``rag-axioms`` command."""

import sys

from pyterrier_rag_axioms.cli import main

sys.exit(main())
