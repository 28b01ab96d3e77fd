"""Rerankers: KwikSort and counting turn pairwise preferences into a ranking of each query's responses;
run files write it. Not here: the preferences themselves (axioms, combinators, the model)."""

from pyterrier_rag_axioms.registry import RANKERS, RERANKERS, set_pivot_rules
from pyterrier_rag_axioms.reranking._candidates import PIVOTS, RESULT_COLUMNS, Candidates, Pivot, Source
from pyterrier_rag_axioms.reranking.counting import METHODS, AxiomaticReranker, Method, PreferenceCountReranker
from pyterrier_rag_axioms.reranking.kwiksort import KwikSort

RANKERS.update(zip(METHODS, (KwikSort, PreferenceCountReranker)))
RERANKERS.update(axiomatic=AxiomaticReranker)
set_pivot_rules(PIVOTS)

__all__ = [
    "METHODS",
    "PIVOTS",
    "RESULT_COLUMNS",
    "AxiomaticReranker",
    "Candidates",
    "KwikSort",
    "Method",
    "Pivot",
    "PreferenceCountReranker",
    "Source",
]
