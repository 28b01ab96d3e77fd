"""pyterrier-rag-axioms: judge retrieval-augmented generation responses with axioms, in PyTerrier."""

from pyterrier_rag_axioms.axioms.clarity import (
    CLAR1,
    CLAR2,
    FleschReadingEaseClarityAxiom,
    LanguageToolGrammarErrorProportionClarityAxiom,
)
from pyterrier_rag_axioms.axioms.coherence import (
    COH1,
    COH2,
    SubjectVerbClosenessCoherenceAxiom,
    WordLengthDeviationCoherenceAxiom,
)
from pyterrier_rag_axioms.axioms.consistency import (
    CONS1,
    CONS2,
    CONS3,
    AspectSimilaritySentenceCountConsistencyAxiom,
    EntityContradictionConsistencyAxiom,
    RougeConsistencyAxiom,
)
from pyterrier_rag_axioms.axioms.correctness import CORR1, CitationSentenceCorrectnessAxiom
from pyterrier_rag_axioms.axioms.coverage import (
    COV1,
    COV2,
    COV3,
    AspectCountCoverageAxiom,
    AspectRedundancyCoverageAxiom,
    AspectSimilaritySentenceCountCoverageAxiom,
)
from pyterrier_rag_axioms.base import Axiom, FeatureAxiom, compare_with_margin
from pyterrier_rag_axioms.frames import preference_frame, response_frame
from pyterrier_rag_axioms.tools.grammar import GrammarChecker, LanguageToolUnavailableError
from pyterrier_rag_axioms.tools.similarity import SentenceSimilarity
from pyterrier_rag_axioms.tools.text import EntityAspects, NounChunkAspects, TextAnalyzer

__version__ = "0.1.0"

#: The eleven RAG axioms of the ICTIR 2025 paper, by short name.
RAG_AXIOMS = {
    axiom.short_name: axiom for axiom in (COH1, COH2, COV1, COV2, COV3, CONS1, CONS2, CONS3, CORR1, CLAR1, CLAR2)
}

__all__ = [
    "CLAR1", "CLAR2", "COH1", "COH2", "CONS1", "CONS2", "CONS3", "CORR1", "COV1", "COV2", "COV3",
    "AspectCountCoverageAxiom", "AspectRedundancyCoverageAxiom", "AspectSimilaritySentenceCountConsistencyAxiom",
    "AspectSimilaritySentenceCountCoverageAxiom", "Axiom", "CitationSentenceCorrectnessAxiom",
    "EntityAspects", "EntityContradictionConsistencyAxiom", "FeatureAxiom", "FleschReadingEaseClarityAxiom",
    "GrammarChecker", "LanguageToolGrammarErrorProportionClarityAxiom", "LanguageToolUnavailableError",
    "NounChunkAspects", "RAG_AXIOMS", "RougeConsistencyAxiom", "SentenceSimilarity",
    "SubjectVerbClosenessCoherenceAxiom", "TextAnalyzer", "WordLengthDeviationCoherenceAxiom",
    "compare_with_margin", "preference_frame", "response_frame",
]
