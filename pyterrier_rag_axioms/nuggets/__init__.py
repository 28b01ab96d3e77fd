"""Nuggets without an LLM: drawing them from the answers, assigning them, the fitted model and their files.
Not here: nugget scores and the human assignments (``judgments/``), or the COV8 axiom (``axioms/``)."""

from pyterrier_rag_axioms.nuggets.assigner import ASSIGNMENT_COLUMNS, NuggetAssigner
from pyterrier_rag_axioms.nuggets.extractor import EXTRACTED_COLUMNS, NuggetExtractor
from pyterrier_rag_axioms.nuggets.files import IMPORTANCES, NUGGET_COLUMNS, load_nuggets
from pyterrier_rag_axioms.nuggets.model import ASSIGNMENTS, NuggetModel, fit_nugget_model
from pyterrier_rag_axioms.nuggets.reference import reference_nuggets, reference_score

__all__ = [
    "ASSIGNMENTS", "ASSIGNMENT_COLUMNS", "EXTRACTED_COLUMNS", "IMPORTANCES", "NUGGET_COLUMNS", "NuggetAssigner",
    "NuggetExtractor", "NuggetModel", "fit_nugget_model", "load_nuggets", "reference_nuggets", "reference_score",
]
