"""Does this text say that? The support model: a calibrated probability that evidence supports a statement.
Not here: its users, the answers' claims and faithfulness (``grounding/``) and the axioms and measures."""

from pyterrier_rag_axioms.support.features import FEATURES, WINDOW_SENTENCES
from pyterrier_rag_axioms.support.model import SupportModel, resolve_support_model

__all__ = ["FEATURES", "WINDOW_SENTENCES", "SupportModel", "resolve_support_model"]
