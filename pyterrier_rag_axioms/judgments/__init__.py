"""Human and LLM judgments of RAG responses: loaders for TREC 2024 RAG and CrowdRAG-25, one module per source.

Every loader reads JSON lines or TSV, gzip-compressed or not (recognised by its magic bytes, so
the suffix does not matter), and returns a response frame or a preference frame (see
``DESIGN.md``). A malformed line raises a ``ValueError`` that starts with ``path:line:``.

- :func:`load_nugget_assignments`: TREC 2024 RAG nugget assignments, one response per run and topic.
- :func:`nugget_scores` / :func:`nugget_qrels`: the nugget score of each response, and qrels graded by it,
  from human or automatic assignments (:func:`nested_assignments` reads the latter).
- :func:`load_crowdrag_responses` / :func:`load_crowdrag_judgments`: CrowdRAG-25 responses with their
  context, and the judged pairs with one truth column per utility dimension.
- :func:`load_llm_ratings`: the likelihood an LLM assigns to each response.
- :func:`load_topics`: a TREC RAG topics file (``qid<TAB>query``).
- :func:`load_run_file`: a TREC 2024 RAG run file (JSON lines of the track's format).

The PyTerrier dataset over the nugget judgments is in :mod:`pyterrier_rag_axioms.judgments.dataset`.
"""

from pyterrier_rag_axioms.judgments.crowdrag import (
    CROWDRAG_DIMENSIONS,
    JUDGMENT_COLUMNS,
    load_crowdrag_judgments,
    load_crowdrag_responses,
    load_llm_ratings,
)
from pyterrier_rag_axioms.judgments.dataset import trec_rag_2024_dataset
from pyterrier_rag_axioms.judgments.trec_rag import (
    DEFAULT_QRELS_SCALE,
    NUGGET_ASSIGNMENT_SCORES,
    NUGGET_IMPORTANCE_WEIGHTS,
    NUGGET_SCORE_TYPES,
    NuggetScoreType,
    load_nugget_assignments,
    load_run_file,
    load_topics,
    nested_assignments,
    nugget_qrels,
    nugget_score,
    nugget_scores,
    render_answer,
)

__all__ = [
    "CROWDRAG_DIMENSIONS", "DEFAULT_QRELS_SCALE", "JUDGMENT_COLUMNS", "NUGGET_ASSIGNMENT_SCORES",
    "NUGGET_IMPORTANCE_WEIGHTS", "NUGGET_SCORE_TYPES", "NuggetScoreType", "load_crowdrag_judgments",
    "load_crowdrag_responses", "load_llm_ratings", "load_nugget_assignments", "load_run_file", "load_topics",
    "nested_assignments", "nugget_qrels", "nugget_score", "nugget_scores", "render_answer", "trec_rag_2024_dataset",
]
