"""Retrieval axioms adapted to generated responses (GEN_*), one module per family of ir-axioms.
Not here: the RAG axioms (their dimensions' modules) and the term tools (``tools/terms``)."""

from __future__ import annotations

from pyterrier_rag_axioms.axioms.gen._base import (
    LENGTH_MARGIN_FRACTION,
    GenerativeRetrievalAxiom,
    GenerativeRetrievalFeatureAxiom,
    compare,
    similar_lengths,
)
from pyterrier_rag_axioms.axioms.gen.argumentative import (
    GenerativeArgumentativeUnitsCountAxiom,
    GenerativeAverageSentenceLengthAxiom,
    GenerativeQueryTermOccurrenceInArgumentativeUnitsAxiom,
    GenerativeQueryTermPositionInArgumentativeUnitsAxiom,
)
from pyterrier_rag_axioms.axioms.gen.proximity import (
    GenerativeProx1Axiom,
    GenerativeProx2Axiom,
    GenerativeProx3Axiom,
    GenerativeProx4Axiom,
    GenerativeProx5Axiom,
)
from pyterrier_rag_axioms.axioms.gen.query_aspects import (
    GenerativeAndAxiom,
    GenerativeAntiRegAxiom,
    GenerativeDivAxiom,
    GenerativeLenAndAxiom,
    GenerativeLenDivAxiom,
    GenerativeModifiedAndAxiom,
    GenerativeRegAxiom,
)
from pyterrier_rag_axioms.axioms.gen.semantic import GenerativeStmc1Axiom, GenerativeStmc2Axiom
from pyterrier_rag_axioms.axioms.gen.term_frequency import (
    GenerativeLnc1Axiom,
    GenerativeTfc1Axiom,
    GenerativeTfLncAxiom,
)
from pyterrier_rag_axioms.registry import order_group

GEN_TFC1 = GenerativeTfc1Axiom
GEN_LNC1 = GenerativeLnc1Axiom
GEN_TF_LNC = GenerativeTfLncAxiom
GEN_REG = GenerativeRegAxiom
GEN_ANTI_REG = GenerativeAntiRegAxiom
GEN_AND = GenerativeAndAxiom
GEN_LEN_AND = GenerativeLenAndAxiom
GEN_M_AND = GenerativeModifiedAndAxiom
GEN_DIV = GenerativeDivAxiom
GEN_LEN_DIV = GenerativeLenDivAxiom
GEN_STMC1 = GenerativeStmc1Axiom
GEN_STMC2 = GenerativeStmc2Axiom
GEN_PROX1 = GenerativeProx1Axiom
GEN_PROX2 = GenerativeProx2Axiom
GEN_PROX3 = GenerativeProx3Axiom
GEN_PROX4 = GenerativeProx4Axiom
GEN_PROX5 = GenerativeProx5Axiom
GEN_ArgUC = GenerativeArgumentativeUnitsCountAxiom
GEN_QTArg = GenerativeQueryTermOccurrenceInArgumentativeUnitsAxiom
GEN_QTPArg = GenerativeQueryTermPositionInArgumentativeUnitsAxiom
GEN_aSL = GenerativeAverageSentenceLengthAxiom

#: The 21 adapted retrieval axioms, by short name, in the order of the reference documentation.
GENERATIVE_RETRIEVAL_AXIOMS: dict[str, type[GenerativeRetrievalAxiom]] = {
    axiom.short_name: axiom
    for axiom in (
        GEN_TFC1, GEN_LNC1, GEN_TF_LNC, GEN_REG, GEN_ANTI_REG, GEN_AND, GEN_LEN_AND, GEN_M_AND, GEN_DIV,
        GEN_LEN_DIV, GEN_STMC1, GEN_STMC2, GEN_PROX1, GEN_PROX2, GEN_PROX3, GEN_PROX4, GEN_PROX5, GEN_ArgUC,
        GEN_QTArg, GEN_QTPArg, GEN_aSL,
    )
}

order_group("gen", tuple(GENERATIVE_RETRIEVAL_AXIOMS))  # the registry lists them in this order too

__all__ = [
    "GENERATIVE_RETRIEVAL_AXIOMS", "LENGTH_MARGIN_FRACTION", "GenerativeRetrievalAxiom",
    "GenerativeRetrievalFeatureAxiom", "compare", "similar_lengths",
    *(cls.__name__ for cls in GENERATIVE_RETRIEVAL_AXIOMS.values()), *GENERATIVE_RETRIEVAL_AXIOMS,
]
