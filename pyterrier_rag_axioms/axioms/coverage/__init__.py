"""The coverage axioms COV1-COV8, one module per family (aspects, redundancy, query aspects, non-answers,
on-topic aspects, nuggets), each registering its axioms. Not here: the nugget assigner, aspect extraction."""

# the modules in the order of the short names, so that the registry lists the axioms in that order
# isort: off
from pyterrier_rag_axioms.axioms.coverage.aspects import (
    AspectAxiom,
    AspectCountCoverageAxiom,
    AspectRedundancyCoverageAxiom,
    AspectSentenceCoverageAxiom,
    AspectSimilaritySentenceCountCoverageAxiom,
    COV1,
    COV2,
    COV3,
)
from pyterrier_rag_axioms.axioms.coverage.redundancy import COV4, SentenceRedundancyCoverageAxiom
from pyterrier_rag_axioms.axioms.coverage.query_aspects import COV5, QueryAspectCoverageAxiom
from pyterrier_rag_axioms.axioms.coverage.non_answers import (
    COV6,
    NON_ANSWER_PATTERNS,
    NonAnswerCoverageAxiom,
    is_non_answer,
)
from pyterrier_rag_axioms.axioms.coverage.on_topic import COV7, OnTopicAspectCoverageAxiom, states
from pyterrier_rag_axioms.axioms.coverage.nuggets import COV8, NuggetCoverageAxiom
# isort: on

__all__ = [
    "COV1", "COV2", "COV3", "COV4", "COV5", "COV6", "COV7", "COV8", "NON_ANSWER_PATTERNS", "AspectAxiom",
    "AspectCountCoverageAxiom", "AspectRedundancyCoverageAxiom", "AspectSentenceCoverageAxiom",
    "AspectSimilaritySentenceCountCoverageAxiom", "NonAnswerCoverageAxiom", "NuggetCoverageAxiom",
    "OnTopicAspectCoverageAxiom", "QueryAspectCoverageAxiom", "SentenceRedundancyCoverageAxiom", "is_non_answer",
    "states",
]
