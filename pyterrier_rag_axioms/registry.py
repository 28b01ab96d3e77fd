"""Every axiom, combinator, ranker and pivot of the package by name: the one list that the command
line, the tests and the README's tables read.

Importing this module loads neither spaCy nor torch: the axioms load their models when they run.
"""

from __future__ import annotations

from pyterrier_rag_axioms.aggregation import Cascade, Combinator, Conjunction, MajorityVote, WeightedSum
from pyterrier_rag_axioms.axioms.answer_first import CORR5
from pyterrier_rag_axioms.axioms.citations import CORR2, CORR3, CORR4
from pyterrier_rag_axioms.axioms.clarity import CLAR1, CLAR2
from pyterrier_rag_axioms.axioms.coherence import COH1, COH2
from pyterrier_rag_axioms.axioms.consistency import CONS1, CONS2, CONS3
from pyterrier_rag_axioms.axioms.correctness import CORR1
from pyterrier_rag_axioms.axioms.coverage import COV1, COV2, COV3
from pyterrier_rag_axioms.axioms.discourse import COH3, COH4
from pyterrier_rag_axioms.axioms.gen import GENERATIVE_RETRIEVAL_AXIOMS
from pyterrier_rag_axioms.axioms.length import LEN1
from pyterrier_rag_axioms.axioms.non_answers import COV6
from pyterrier_rag_axioms.axioms.oracles import TREC_RAG_CROWD, TREC_RAG_LLM_ORIG, TREC_RAG_NUGGET
from pyterrier_rag_axioms.axioms.query_coverage import COV5, COV7
from pyterrier_rag_axioms.axioms.redundancy import COV4
from pyterrier_rag_axioms.base import Axiom
from pyterrier_rag_axioms.preference import PreferenceModel
from pyterrier_rag_axioms.reranking import PIVOTS, AxiomaticReranker, KwikSort, PreferenceCountReranker

#: The eleven RAG axioms of the ICTIR 2025 paper, by short name.
RAG_AXIOMS: dict[str, type[Axiom]] = {
    axiom.short_name: axiom for axiom in (COH1, COH2, COV1, COV2, COV3, CONS1, CONS2, CONS3, CORR1, CLAR1, CLAR2)
}

#: Axioms beyond the paper (length, citations, discourse, redundancy, query coverage, non-answers,
#: on-topic aspects, the opening sentence), by short name.
EXTRA_AXIOMS: dict[str, type[Axiom]] = {
    axiom.short_name: axiom for axiom in (LEN1, COH3, COH4, COV4, COV5, COV6, COV7, CORR2, CORR3, CORR4, CORR5)
}

#: The 21 retrieval axioms adapted to generated responses, by short name.
GEN_AXIOMS: dict[str, type[Axiom]] = dict(GENERATIVE_RETRIEVAL_AXIOMS)

#: The oracle axioms that read human or LLM judgments, by short name.
ORACLE_AXIOMS: dict[str, type[Axiom]] = {
    axiom.short_name: axiom for axiom in (TREC_RAG_NUGGET, TREC_RAG_LLM_ORIG, TREC_RAG_CROWD)
}

#: Every axiom, by short name.
AXIOMS: dict[str, type[Axiom]] = {**RAG_AXIOMS, **EXTRA_AXIOMS, **GEN_AXIOMS, **ORACLE_AXIOMS}

#: The combinators, by the name the command line gives them.
COMBINATORS: dict[str, type[Combinator]] = {
    "majority": MajorityVote,
    "cascade": Cascade,
    "conjunction": Conjunction,
    "weighted": WeightedSum,
}

#: Fitted models over the per-response values of feature axioms, by name.
MODELS: dict[str, type] = {"preference": PreferenceModel}

#: The rankers that turn preferences into a ranking, by the name the command line gives them.
RANKERS: dict[str, type] = {"kwiksort": KwikSort, "count": PreferenceCountReranker}

#: The transformers that rank with a ranker of :data:`RANKERS` over a combination of axioms.
RERANKERS: dict[str, type] = {"axiomatic": AxiomaticReranker}

#: The pivot rules of :class:`~pyterrier_rag_axioms.reranking.KwikSort`.
PIVOT_RULES: tuple[str, ...] = PIVOTS


def axiom_class(name: str) -> type[Axiom]:
    """The axiom class of a short name, case-insensitive (``KeyError`` naming the known ones otherwise)."""
    by_upper = {short_name.upper(): cls for short_name, cls in AXIOMS.items()}
    try:
        return by_upper[name.strip().upper()]
    except KeyError:
        raise KeyError(f"unknown axiom {name!r}; known: {', '.join(sorted(AXIOMS))}") from None
