"""Human and LLM judgments of RAG responses: TREC 2024 RAG and CrowdRAG-25 loaders, nugget scores, the
PyTerrier dataset. Not here: agreement with the judgments (``evaluation/``) and the oracle axioms."""

from pyterrier_rag_axioms.judgments.crowdrag import (
    CROWDRAG_DIMENSIONS,
    JUDGMENT_COLUMNS,
    load_crowdrag_judgments,
    load_crowdrag_responses,
    load_llm_ratings,
)
from pyterrier_rag_axioms.judgments.dataset import trec_rag_2024_dataset
from pyterrier_rag_axioms.judgments.rag_runs import load_run_file, load_run_files, render_answer
from pyterrier_rag_axioms.judgments.trec_rag import (
    DEFAULT_QRELS_SCALE,
    NUGGET_ASSIGNMENT_SCORES,
    NUGGET_IMPORTANCE_WEIGHTS,
    NUGGET_SCORE_TYPES,
    TREC_RAG_2024_IR_DATASET,
    NuggetScoreType,
    load_nugget_assignments,
    load_topics,
    nested_assignments,
    nugget_qrels,
    nugget_score,
    nugget_scores,
    trec_rag_2024_topics,
)

__all__ = [
    "CROWDRAG_DIMENSIONS", "DEFAULT_QRELS_SCALE", "JUDGMENT_COLUMNS", "NUGGET_ASSIGNMENT_SCORES",
    "NUGGET_IMPORTANCE_WEIGHTS", "NUGGET_SCORE_TYPES", "NuggetScoreType", "load_crowdrag_judgments",
    "load_crowdrag_responses", "load_llm_ratings", "load_nugget_assignments", "load_run_file", "load_run_files",
    "load_topics", "TREC_RAG_2024_IR_DATASET", "nested_assignments", "nugget_qrels", "nugget_score", "nugget_scores",
    "render_answer", "trec_rag_2024_dataset", "trec_rag_2024_topics",
]
