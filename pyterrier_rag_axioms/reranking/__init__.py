"""Rerankers: turn pairwise preferences into a ranking of each query's responses.

Every reranker takes a response frame (and then computes the preferences it needs) or a
preference frame (and then reads them), and returns a result frame ``qid, query, docno,
response, score, rank`` (rank 0 is best, score descending along the ranking) that
``pt.Experiment`` can evaluate. Where preferences tie or are missing, the *original order*
decides: an input ``rank`` (ascending) or ``score`` (descending) of a response frame if present,
else the input order.
"""

from pyterrier_rag_axioms.registry import RANKERS, RERANKERS, set_pivot_rules
from pyterrier_rag_axioms.reranking._candidates import PIVOTS, RESULT_COLUMNS, Candidates, Pivot, Source
from pyterrier_rag_axioms.reranking.counting import AxiomaticReranker, PreferenceCountReranker
from pyterrier_rag_axioms.reranking.kwiksort import KwikSort

RANKERS.update(kwiksort=KwikSort, count=PreferenceCountReranker)
RERANKERS.update(axiomatic=AxiomaticReranker)
set_pivot_rules(PIVOTS)

__all__ = [
    "PIVOTS",
    "RESULT_COLUMNS",
    "AxiomaticReranker",
    "Candidates",
    "KwikSort",
    "Pivot",
    "PreferenceCountReranker",
    "Source",
]
