"""``.parallel(N)`` that splits a frame by query, whatever its columns.

PyTerrier's ``Transformer.parallel`` (pyterrier-alpha) splits a frame with ``qid`` and ``docno``
by query, but any other frame with ``qid`` by rows, as if each row were a query. Response frames
without ``docno`` (pyterrier-rag's answers) and preference frames (``docno_a``, ``docno_b``) hold
several rows per query, and a query cut in two is judged or ranked twice, each time against part
of its responses. The transformers of this package therefore split every frame by ``qid`` (in qid
order, as PyTerrier splits a result frame); an empty frame, or one without ``qid`` or with a
missing one (whose error the transformer itself reports), runs serially. A ``>>`` pipeline is
PyTerrier's own transformer and splits as PyTerrier does.
pyterrier-alpha is imported only when ``.parallel`` is called.
"""

from __future__ import annotations

import pyterrier as pt


class QueryParallel:
    """Mixin: ``.parallel(N, backend=...)`` splits the input by query (see the module)."""

    def parallel(self, N: int, backend: str = "joblib") -> pt.Transformer:  # noqa: N803 (PyTerrier's name)
        """A parallel version of this transformer over ``N`` workers (joblib or ray), split by ``qid``."""
        try:
            from pyterrier_rag_axioms.parallel.pool import QueryPoolParallelTransformer
        except ImportError as error:
            raise ImportError(
                f"{self!r}.parallel needs pyterrier-alpha: pip install \"pyterrier-rag-axioms[parallel]\""
            ) from error
        return QueryPoolParallelTransformer(self, N, backend)

