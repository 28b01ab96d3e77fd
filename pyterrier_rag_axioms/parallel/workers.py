"""The pyterrier-alpha worker processes behind :class:`~pyterrier_rag_axioms.parallel.QueryParallel` (imported on use).

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

import math

import pandas as pd
from pyterrier_alpha.parallel import PoolParallelTransformer


def split_by_query(frame: pd.DataFrame, parts: int) -> list[pd.DataFrame]:
    """``frame`` cut into at most ``parts`` frames of whole queries, in qid order, each query's rows
    in input order (as PyTerrier splits a result frame)."""
    queries = [group for _, group in frame.groupby("qid", sort=True)]
    size = math.ceil(len(queries) / max(1, parts))
    return [pd.concat(queries[start : start + size]) for start in range(0, len(queries), size)]


class QueryParallelTransformer(PoolParallelTransformer):
    """pyterrier-alpha's worker processes, fed whole queries: the same rows and values as a serial run."""

    def transform(self, topics_and_res: pd.DataFrame) -> pd.DataFrame:
        if len(topics_and_res) == 0 or "qid" not in topics_and_res.columns or topics_and_res["qid"].isna().any():
            return self.parent(topics_and_res)  # nothing to split, or an error the transformer reports itself
        splits = split_by_query(topics_and_res, self.n_jobs)
        if self.backend == "ray":
            return self._transform_ray(splits)
        return self._transform_joblib(splits)

    def __repr__(self) -> str:
        return f"{self.parent!r}.parallel({self.n_jobs}, backend={self.backend!r})"

    __str__ = __repr__
