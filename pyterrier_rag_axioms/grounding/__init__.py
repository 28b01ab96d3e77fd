"""Grounding: precision against the context. Each answer's claims checked against its own passages
by the support model (:mod:`~pyterrier_rag_axioms.support`)."""

from pyterrier_rag_axioms.grounding.claims import (
    DECLINING,
    answer_claims,
    claims_of,
    declines,
    without_source_references,
)
from pyterrier_rag_axioms.grounding.faithfulness import (
    FAITHFULNESS_COLUMNS,
    Faithfulness,
    Grounding,
    groundings,
    uncovered_idf,
)

__all__ = [
    "DECLINING",
    "FAITHFULNESS_COLUMNS",
    "Faithfulness",
    "Grounding",
    "answer_claims",
    "claims_of",
    "declines",
    "groundings",
    "uncovered_idf",
    "without_source_references",
]
