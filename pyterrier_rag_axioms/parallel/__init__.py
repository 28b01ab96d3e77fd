"""``.parallel(N)`` by query, whatever the frame's columns (``workers``). Not here: worker processes of
whole topics on this machine's cores (:mod:`~pyterrier_rag_axioms.processes`), anything that judges or ranks."""

from __future__ import annotations

import pyterrier as pt


class QueryParallel:
    """Mixin: ``.parallel(N, backend=...)`` splits the input by query (see the module)."""

    def parallel(self, N: int, backend: str = "joblib") -> pt.Transformer:  # noqa: N803 (PyTerrier's name)
        """A parallel version of this transformer over ``N`` workers (joblib or ray), split by ``qid``."""
        try:
            from pyterrier_rag_axioms.parallel.workers import QueryParallelTransformer
        except ImportError as error:
            raise ImportError(
                f"{self!r}.parallel needs pyterrier-alpha: pip install \"pyterrier-rag-axioms[parallel]\""
            ) from error
        from pyterrier_rag_axioms.declaration import declares, replaced

        serial = replaced(self, processes=1) if declares(self, "processes") else self
        return QueryParallelTransformer(serial, N, backend)

