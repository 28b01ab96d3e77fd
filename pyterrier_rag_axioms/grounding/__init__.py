"""Grounding: each answer's claims checked against its own passages (precision against the context).
Not here: the support model it asks (``support/``), or the CONS4 axiom and the measures that read it."""

from pyterrier_rag_axioms.grounding.claims import (
    DECLINING,
    answer_claims,
    claims_of,
    declines,
    without_source_references,
)
from pyterrier_rag_axioms.grounding.extractive import EXTRACTIVE_SHARE, copied_share, is_extractive
from pyterrier_rag_axioms.grounding.faithfulness import (
    FAITHFULNESS_COLUMNS,
    Faithfulness,
    Grounding,
    groundings,
    uncovered_idf,
)

__all__ = [
    "DECLINING",
    "EXTRACTIVE_SHARE",
    "FAITHFULNESS_COLUMNS",
    "Faithfulness",
    "Grounding",
    "answer_claims",
    "claims_of",
    "copied_share",
    "declines",
    "groundings",
    "is_extractive",
    "uncovered_idf",
    "without_source_references",
]
