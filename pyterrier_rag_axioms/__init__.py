"""pyterrier-rag-axioms: judge retrieval-augmented generation responses with axioms, in PyTerrier."""

from pyterrier_rag_axioms.aggregation import Cascade, Combinator, Conjunction, MajorityVote, WeightedSum
from pyterrier_rag_axioms.agreement import agreement, agreement_by_dimension, calibration, plot_agreement
from pyterrier_rag_axioms.axioms.answer_first import CORR5, AnswerFirstCorrectnessAxiom
from pyterrier_rag_axioms.axioms.citations import (
    CORR2,
    CORR3,
    CORR4,
    CitationSupportCorrectnessAxiom,
    CitationValidityCorrectnessAxiom,
    ReferenceSentenceCorrectnessAxiom,
)
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
from pyterrier_rag_axioms.axioms.discourse import (
    COH3,
    COH4,
    DiscourseConnectiveCoherenceAxiom,
    TenseSwitchCoherenceAxiom,
)
from pyterrier_rag_axioms.axioms.gen import (
    GEN_AND,
    GEN_ANTI_REG,
    GEN_DIV,
    GEN_LEN_AND,
    GEN_LEN_DIV,
    GEN_LNC1,
    GEN_M_AND,
    GEN_PROX1,
    GEN_PROX2,
    GEN_PROX3,
    GEN_PROX4,
    GEN_PROX5,
    GEN_REG,
    GEN_STMC1,
    GEN_STMC2,
    GEN_TF_LNC,
    GEN_TFC1,
    GEN_ArgUC,
    GEN_aSL,
    GEN_QTArg,
    GEN_QTPArg,
    GenerativeAndAxiom,
    GenerativeAntiRegAxiom,
    GenerativeArgumentativeUnitsCountAxiom,
    GenerativeAverageSentenceLengthAxiom,
    GenerativeDivAxiom,
    GenerativeLenAndAxiom,
    GenerativeLenDivAxiom,
    GenerativeLnc1Axiom,
    GenerativeModifiedAndAxiom,
    GenerativeProx1Axiom,
    GenerativeProx2Axiom,
    GenerativeProx3Axiom,
    GenerativeProx4Axiom,
    GenerativeProx5Axiom,
    GenerativeQueryTermOccurrenceInArgumentativeUnitsAxiom,
    GenerativeQueryTermPositionInArgumentativeUnitsAxiom,
    GenerativeRegAxiom,
    GenerativeStmc1Axiom,
    GenerativeStmc2Axiom,
    GenerativeTfc1Axiom,
    GenerativeTfLncAxiom,
)
from pyterrier_rag_axioms.axioms.length import LEN1, ResponseLengthAxiom
from pyterrier_rag_axioms.axioms.non_answers import COV6, NonAnswerCoverageAxiom
from pyterrier_rag_axioms.axioms.oracles import (
    TREC_RAG_CROWD,
    TREC_RAG_LLM_ORIG,
    TREC_RAG_NUGGET,
    TrecRagCrowdAxiom,
    TrecRagLlmOrigAxiom,
    TrecRagNuggetAxiom,
)
from pyterrier_rag_axioms.axioms.query_coverage import (
    COV5,
    COV7,
    OnTopicAspectCoverageAxiom,
    QueryAspectCoverageAxiom,
)
from pyterrier_rag_axioms.axioms.redundancy import COV4, SentenceRedundancyCoverageAxiom
from pyterrier_rag_axioms.base import Axiom, FeatureAxiom, compare_with_margin
from pyterrier_rag_axioms.datasets import trec_rag_2024_dataset
from pyterrier_rag_axioms.frames import preference_frame, response_frame
from pyterrier_rag_axioms.judgments import (
    load_crowdrag_judgments,
    load_crowdrag_responses,
    load_llm_ratings,
    load_nugget_assignments,
    load_run_file,
    load_topics,
    nugget_qrels,
    nugget_scores,
)
from pyterrier_rag_axioms.preference import PreferenceModel
from pyterrier_rag_axioms.registry import EXTRA_AXIOMS, GEN_AXIOMS, RAG_AXIOMS
from pyterrier_rag_axioms.reranking import AxiomaticReranker, KwikSort, PreferenceCountReranker
from pyterrier_rag_axioms.runs import (
    mean_run_scores,
    plot_run_rankings,
    projected_run_correlation,
    run_correlation,
    run_win_rates,
    win_rates,
)
from pyterrier_rag_axioms.tools.arguments import DiscourseMarkerTagger, TargerTagger, TargerUnavailableError
from pyterrier_rag_axioms.tools.grammar import GrammarChecker, LanguageToolUnavailableError
from pyterrier_rag_axioms.tools.similarity import SentenceSimilarity
from pyterrier_rag_axioms.tools.term_similarity import EmbeddingTermSimilarity, FunctionTermSimilarity
from pyterrier_rag_axioms.tools.terms import TermExtractor
from pyterrier_rag_axioms.tools.text import EntityAspects, NounChunkAspects, TextAnalyzer

__version__ = "0.1.0"

__all__ = [
    "CLAR1", "CLAR2", "COH1", "COH2", "CONS1", "CONS2", "CONS3", "CORR1", "COV1", "COV2", "COV3",
    "AspectCountCoverageAxiom", "AspectRedundancyCoverageAxiom", "AspectSimilaritySentenceCountConsistencyAxiom",
    "AspectSimilaritySentenceCountCoverageAxiom", "Axiom", "CitationSentenceCorrectnessAxiom",
    "EntityAspects", "EntityContradictionConsistencyAxiom", "FeatureAxiom", "FleschReadingEaseClarityAxiom",
    "GrammarChecker", "LanguageToolGrammarErrorProportionClarityAxiom", "LanguageToolUnavailableError",
    "NounChunkAspects", "RAG_AXIOMS", "RougeConsistencyAxiom", "SentenceSimilarity",
    "SubjectVerbClosenessCoherenceAxiom", "TextAnalyzer", "WordLengthDeviationCoherenceAxiom",
    "compare_with_margin", "preference_frame", "response_frame",
    # axioms beyond the paper, and the fitted preference model
    "COH3", "COH4", "CORR2", "CORR3", "CORR4", "CORR5", "COV4", "COV5", "COV6", "COV7", "EXTRA_AXIOMS", "LEN1",
    "AnswerFirstCorrectnessAxiom", "CitationSupportCorrectnessAxiom", "CitationValidityCorrectnessAxiom",
    "DiscourseConnectiveCoherenceAxiom", "NonAnswerCoverageAxiom", "OnTopicAspectCoverageAxiom", "PreferenceModel",
    "QueryAspectCoverageAxiom",
    "ReferenceSentenceCorrectnessAxiom", "ResponseLengthAxiom", "SentenceRedundancyCoverageAxiom",
    "TenseSwitchCoherenceAxiom",
    # run-level evaluation
    "mean_run_scores", "plot_run_rankings", "projected_run_correlation", "run_correlation", "run_win_rates",
    "win_rates",
    # aggregation and reranking
    "AxiomaticReranker", "Cascade", "Combinator", "Conjunction", "KwikSort", "MajorityVote",
    "PreferenceCountReranker", "WeightedSum",
    # adapted retrieval axioms
    "GEN_AXIOMS", "GEN_AND", "GEN_ANTI_REG", "GEN_ArgUC", "GEN_DIV", "GEN_LEN_AND", "GEN_LEN_DIV", "GEN_LNC1",
    "GEN_M_AND", "GEN_PROX1", "GEN_PROX2", "GEN_PROX3", "GEN_PROX4", "GEN_PROX5", "GEN_QTArg", "GEN_QTPArg",
    "GEN_REG", "GEN_STMC1", "GEN_STMC2", "GEN_TFC1", "GEN_TF_LNC", "GEN_aSL",
    "GenerativeAndAxiom", "GenerativeAntiRegAxiom", "GenerativeArgumentativeUnitsCountAxiom",
    "GenerativeAverageSentenceLengthAxiom", "GenerativeDivAxiom", "GenerativeLenAndAxiom", "GenerativeLenDivAxiom",
    "GenerativeLnc1Axiom", "GenerativeModifiedAndAxiom", "GenerativeProx1Axiom", "GenerativeProx2Axiom",
    "GenerativeProx3Axiom", "GenerativeProx4Axiom", "GenerativeProx5Axiom",
    "GenerativeQueryTermOccurrenceInArgumentativeUnitsAxiom", "GenerativeQueryTermPositionInArgumentativeUnitsAxiom",
    "GenerativeRegAxiom", "GenerativeStmc1Axiom", "GenerativeStmc2Axiom", "GenerativeTfc1Axiom", "GenerativeTfLncAxiom",
    "DiscourseMarkerTagger", "EmbeddingTermSimilarity", "FunctionTermSimilarity", "TargerTagger",
    "TargerUnavailableError", "TermExtractor",
    # judgments: loaders, oracle axioms, agreement
    "TREC_RAG_CROWD", "TREC_RAG_LLM_ORIG", "TREC_RAG_NUGGET", "TrecRagCrowdAxiom", "TrecRagLlmOrigAxiom",
    "TrecRagNuggetAxiom", "agreement", "agreement_by_dimension", "calibration", "load_crowdrag_judgments",
    "load_crowdrag_responses", "load_llm_ratings", "load_nugget_assignments", "load_run_file", "load_topics",
    "nugget_qrels", "nugget_scores", "plot_agreement", "trec_rag_2024_dataset",
]
