"""Does this text say that? The support model: a calibrated probability that evidence text(s)
support a statement, with its features and its fitted file (``benchmarks/fit_support_model.py``)."""

from pyterrier_rag_axioms.support.features import FEATURES, WINDOW_SENTENCES
from pyterrier_rag_axioms.support.model import SupportModel

__all__ = ["FEATURES", "WINDOW_SENTENCES", "SupportModel"]
