"""The fitted preference model: the model, its features, saving and loading, and the shipped JSON
models (``models/``); no axioms of its own (it reads theirs by name from the registry)."""

from pyterrier_rag_axioms.preference.features import TRANSFORMS, Transform, axiom_classes
from pyterrier_rag_axioms.preference.io import DEFAULT_MODELS, FORMAT
from pyterrier_rag_axioms.preference.model import PreferenceModel

__all__ = ["DEFAULT_MODELS", "FORMAT", "TRANSFORMS", "PreferenceModel", "Transform", "axiom_classes"]
