"""What the preference model's helpers (its terms, scores, parameters and files) read of it, as a protocol,
so that none of them imports the model they serve (:class:`~pyterrier_rag_axioms.preference.PreferenceModel`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Protocol, TypeVar

import pandas as pd

from pyterrier_rag_axioms.axioms import FeatureAxiom

R = TypeVar("R")


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

    def by_topic(
        self,
        work: Callable[[list[Hashable], bool], R],
        responses: pd.DataFrame,
        topics: Sequence[Hashable] | None = None,
        *,
        desc: str | None = None,
    ) -> list[R]: ...
