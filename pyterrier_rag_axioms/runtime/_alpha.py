"""The pyterrier-alpha workers behind ``.parallel(N)`` (:class:`~pyterrier_rag_axioms.runtime.by_topic.ByTopic`).

PyTerrier's ``Transformer.parallel`` (pyterrier-alpha) splits a frame with ``qid`` and ``docno``
by query, but any other frame with ``qid`` by rows, as if each row were a query. Response frames
without ``docno`` (pyterrier-rag's answers) and preference frames (``docno_a``, ``docno_b``) hold
several rows per query, and a query cut in two is judged or ranked twice, each time against part
of its responses. The transformers of this package therefore split every frame by ``qid`` (in qid
order, as PyTerrier splits a result frame), by the one split of the package's worker processes too
(:func:`~pyterrier_rag_axioms.runtime.topics.split_by_topic`); an empty frame, or one without ``qid`` or with a
missing one (whose error the transformer itself reports), runs serially. A ``>>`` pipeline is
PyTerrier's own transformer and splits as PyTerrier does.
pyterrier-alpha (and this module) is imported only when ``.parallel`` is called.
"""

from __future__ import annotations

import pandas as pd
from pyterrier_alpha.parallel import PoolParallelTransformer

from pyterrier_rag_axioms.runtime.topics import split_by_topic


class QueryParallelTransformer(PoolParallelTransformer):
    """pyterrier-alpha's worker processes, fed whole queries: the same rows and values as a serial run."""

    def transform(self, topics_and_res: pd.DataFrame) -> pd.DataFrame:
        if len(topics_and_res) == 0 or "qid" not in topics_and_res.columns or topics_and_res["qid"].isna().any():
            return self.parent(topics_and_res)  # nothing to split, or an error the transformer reports itself
        splits = split_by_topic(topics_and_res, self.n_jobs)
        if self.backend == "ray":
            return self._transform_ray(splits)
        return self._transform_joblib(splits)

    def __repr__(self) -> str:
        return f"{self.parent!r}.parallel({self.n_jobs}, backend={self.backend!r})"

    __str__ = __repr__
