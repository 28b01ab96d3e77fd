"""Automatic nugget assignment without an LLM: nuggets, the assigner, its fitted model and their files.
Not here: nugget scores and the human assignments (``judgments/``), or the COV8 axiom (``axioms/``)."""

from pyterrier_rag_axioms.nuggets.assigner import ASSIGNMENT_COLUMNS, NuggetAssigner
from pyterrier_rag_axioms.nuggets.files import IMPORTANCES, NUGGET_COLUMNS, load_nuggets
from pyterrier_rag_axioms.nuggets.model import ASSIGNMENTS, NuggetModel, fit_nugget_model

__all__ = [
    "ASSIGNMENTS", "ASSIGNMENT_COLUMNS", "IMPORTANCES", "NUGGET_COLUMNS", "NuggetAssigner", "NuggetModel",
    "fit_nugget_model", "load_nuggets",
]
