"""BestOfN: one answer per query at the end of a pipeline, each query's best response of an
axiomatic ranking as ``qanswer`` (see :mod:`~pyterrier_rag_axioms.pipelines.rag`)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.declaration import PRESENTATION, declared_repr, parameter, parameters
from pyterrier_rag_axioms.pipelines.rag import ANSWER_COLUMNS
from pyterrier_rag_axioms.reranking import AxiomaticReranker, Pivot, Source
from pyterrier_rag_axioms.reranking.counting import Method, method_parameter
from pyterrier_rag_axioms.reranking.kwiksort import pivot_parameter, seed_parameter
from pyterrier_rag_axioms.runtime.by_topic import ByTopic


@parameters
class BestOfN(ByTopic, pt.Transformer):
    """Keep each query's best response of an axiomatic ranking, as ``qanswer``: best-of-n selection.

    ``BestOfN()`` reads a ranking (``rank`` ascending, else ``score`` descending; ties keep the
    input order), e.g. the output of ``KwikSort``; ``BestOfN(MajorityVote(COV1(), CONS2()))``
    ranks a response frame itself (:class:`AxiomaticReranker` with ``method``, ``pivot`` and
    ``seed``). Returns one row per query: ``qid, query, docno`` (the chosen response),
    ``qanswer``, ``qcontext`` where the responses had a context, and the other columns of the
    chosen row (not ``rank`` and ``score``), so that ``pyterrier_rag.measures`` and
    ``pt.Experiment`` evaluate the chosen answer like a reader's.
    """

    #: ``None`` to read a ranking, or an axiom, combinator or preference column to rank by first.
    source: Source | None = parameter(None, positional=True)
    #: The ranking method where ``source`` is given: ``"kwiksort"`` or ``"count"``.
    method: Method = method_parameter()
    #: KwikSort's pivot selection.
    pivot: Pivot = pivot_parameter()
    #: KwikSort's seed for random pivots.
    seed: int = seed_parameter()
    #: Show the progress of the ranking.
    verbose: bool = parameter(False, role=PRESENTATION, hidden=True)

    def __post_init__(self) -> None:
        self.reranker = None if self.source is None else AxiomaticReranker(
            self.source, method=self.method, pivot=self.pivot, seed=self.seed, verbose=self.verbose
        )

    __repr__ = declared_repr

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """One answer per query: the best of its responses."""
        ranking = inp if self.reranker is None else self.reranker.rank_frame(inp, self)
        answer = next((c for c in ANSWER_COLUMNS if c in ranking.columns), None)
        pt.validate.columns(ranking, includes=["qid", answer or "qanswer"], context=self)
        order_column = next((c for c in ("rank", "score") if c in ranking.columns), None)
        if order_column is None:
            raise ValueError(
                f"{self}: needs a ranking with a 'rank' or 'score' column, e.g. from KwikSort, "
                f"or a source to rank by (BestOfN(MajorityVote(...))); got columns {list(ranking.columns)}"
            )
        renames = {answer: "qanswer", "context": "qcontext"}
        frame = ranking.rename(columns={k: v for k, v in renames.items() if v not in ranking.columns})
        if len(frame) == 0:
            return self._ordered(frame.drop(columns=["rank", "score"], errors="ignore").reset_index(drop=True))
        values = pd.to_numeric(frame[order_column], errors="coerce")
        if values.isna().any():
            raise TypeError(f"{self}: column {order_column!r} must hold numbers")
        key = values if order_column == "rank" else -values
        qids = frame["qid"].astype(str)
        chosen = (
            pd.DataFrame({"qid": qids.to_numpy(), "key": key.to_numpy(), "position": np.arange(len(frame))})
            .sort_values(["key", "position"], kind="mergesort")
            .drop_duplicates("qid")
            .sort_values("position")["position"]
            .to_numpy()
        )
        return self._ordered(frame.iloc[chosen].drop(columns=["rank", "score"], errors="ignore").reset_index(drop=True))

    @staticmethod
    def _ordered(best: pd.DataFrame) -> pd.DataFrame:
        """The columns in one order, empty or not: ids, query, answer and context first, then the rest."""
        first = ["qid", "query", "query_0", "docno", "qanswer", "qcontext"]
        return best[[*(c for c in first if c in best.columns), *(c for c in best.columns if c not in first)]]

