"""What the preference model's helpers (its terms, scores, parameters and files) read of it, as a protocol,
so that none of them imports the model they serve (:class:`~pyterrier_rag_axioms.preference.PreferenceModel`)."""

from __future__ import annotations

from typing import Protocol

from pyterrier_rag_axioms.axioms import FeatureAxiom


class ModelView(Protocol):
    """A preference model as its helpers read it."""

    short_name: str
    name: str
    axioms: tuple[FeatureAxiom, ...]
    scales: tuple[float, ...] | None
    value_transform: str
    reference_weight: float
    grounding_weight: float
    processes: int | None
    verbose: bool

    def fitted_coefficients(self) -> tuple[float, ...]: ...

    def computed_axioms(self) -> tuple[FeatureAxiom, ...]: ...

    def grounding_axiom(self) -> FeatureAxiom: ...
