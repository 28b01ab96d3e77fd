"""Automatic nugget assignment: TREC RAG nugget scores from nugget texts, without an LLM.

- :func:`load_nuggets`: each topic's nuggets from a frame or a file (TREC 2024 RAG nugget files too).
- :class:`NuggetAssigner`: a transformer from a response frame to one row per (response, nugget)
  with an assignment (support / partial_support / not_support), a confidence and the supporting spans.
- :class:`NuggetModel` / :func:`fit_nugget_model`: the fitted decision, and how to fit another.

The assignments go through the same score functions as human ones
(:func:`~pyterrier_rag_axioms.judgments.nugget_scores`).
"""

from pyterrier_rag_axioms.nuggets.assigner import ASSIGNMENT_COLUMNS, NuggetAssigner
from pyterrier_rag_axioms.nuggets.files import IMPORTANCES, NUGGET_COLUMNS, load_nuggets
from pyterrier_rag_axioms.nuggets.model import ASSIGNMENTS, NuggetModel, fit_nugget_model

__all__ = [
    "ASSIGNMENTS", "ASSIGNMENT_COLUMNS", "IMPORTANCES", "NUGGET_COLUMNS", "NuggetAssigner", "NuggetModel",
    "fit_nugget_model", "load_nuggets",
]
