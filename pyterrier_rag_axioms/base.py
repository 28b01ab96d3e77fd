"""Base classes of all axioms: the transformer contract and the margin comparison."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

import numpy as np
import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.frames import PAIR_COLUMNS, ResponseTable, preference_frame, response_frame


def compare_with_margin(
    values_a: np.ndarray,
    values_b: np.ndarray,
    *,
    margin_fraction: float,
    prefer_higher: bool = True,
) -> np.ndarray:
    """Vectorised preferences from per-response values: +1 prefers a, -1 prefers b, 0 ties.

    Two values tie when ``|a - b| <= margin_fraction * max(|a|, |b|)``; with a margin of 0 only
    equal values tie. An infinite value is beyond any finite one (equal infinities tie). A NaN on
    either side gives 0. This is the one margin rule of the package.
    """
    values_a = np.asarray(values_a, dtype=float)
    values_b = np.asarray(values_b, dtype=float)
    with np.errstate(invalid="ignore"):
        difference = values_a - values_b
        tolerance = margin_fraction * np.maximum(np.abs(values_a), np.abs(values_b))
        decisive = (np.abs(difference) > tolerance) | np.isinf(difference)
    preferences = np.where(decisive, np.sign(difference), 0.0)
    preferences[np.isnan(difference)] = 0.0
    if not prefer_higher:
        preferences = -preferences
    return preferences + 0.0  # turns -0.0 into 0.0


class Axiom(pt.Transformer, ABC):
    """A pairwise rule over responses to the same request, as a PyTerrier transformer.

    Given a response frame, an axiom builds all pairs of each query's responses; given a
    preference frame, it fills the pairs listed there. Either way it adds one float column named
    ``name``: ``+1.0`` prefers response a, ``-1.0`` prefers response b, ``0.0`` no preference.
    """

    #: The short name, e.g. ``"COV1"``; the default ``name`` of the preference column.
    short_name: ClassVar[str]
    #: The documented default of ``margin_fraction``.
    default_margin_fraction: ClassVar[float] = 0.0

    def __init__(self, *, margin_fraction: float | None = None, name: str | None = None, verbose: bool = False):
        """
        Args:
            margin_fraction: relative difference within which two values tie (default: the
                axiom's documented margin).
            name: name of the preference column (default: the axiom's short name).
            verbose: show progress of long work.
        """
        margin = self.default_margin_fraction if margin_fraction is None else float(margin_fraction)
        if not margin >= 0.0:
            raise ValueError(f"{type(self).__name__}: margin_fraction must be >= 0, not {margin_fraction!r}")
        self.margin_fraction = margin
        self.name = self.short_name if name is None else name
        self.verbose = verbose

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """Add this axiom's preference column to the (built or given) preference frame."""
        pairs = preference_frame(inp, self)
        if len(pairs) == 0:
            columns = [*PAIR_COLUMNS, *(c for c in pairs.columns if c not in PAIR_COLUMNS)]
            return pairs.reindex(columns=columns).assign(**{self.name: pd.Series(dtype=float)})
        table = ResponseTable.from_pairs(pairs)
        pairs[self.name] = self.preferences(table)
        return pairs

    @abstractmethod
    def preferences(self, table: ResponseTable) -> np.ndarray:
        """The preference of each pair ``(table.a[i], table.b[i])`` as an array of floats."""

    def _parameters(self) -> dict[str, object]:
        """Parameters shown by ``repr`` besides the margin, name and verbosity."""
        return {}

    def __repr__(self) -> str:
        parameters = {"margin_fraction": self.margin_fraction, **self._parameters()}
        if self.name != self.short_name:
            parameters["name"] = self.name
        arguments = ", ".join(f"{key}={value!r}" for key, value in parameters.items())
        return f"{self.short_name}({arguments})"


class FeatureAxiom(Axiom):
    """An axiom that compares one number per response, with a relative margin.

    Subclasses compute :meth:`response_values`; :meth:`values` shows them for a response frame,
    so a user can see why the axiom prefers one response over another.
    """

    #: Whether the response with the higher value is preferred.
    prefer_higher: ClassVar[bool] = True

    @abstractmethod
    def response_values(self, table: ResponseTable) -> np.ndarray:
        """One float per row of ``table.responses`` (NaN where it cannot be computed)."""

    def cached_values(self, table: ResponseTable) -> np.ndarray:
        """:meth:`response_values`, computed once per table (tables of the same responses share them)."""
        if id(self) not in table.values:
            table.values[id(self)] = np.asarray(self.response_values(table), dtype=float)
        return table.values[id(self)]

    def preferences(self, table: ResponseTable) -> np.ndarray:
        values = self.cached_values(table)
        return compare_with_margin(
            values[table.a], values[table.b], margin_fraction=self.margin_fraction, prefer_higher=self.prefer_higher
        )

    def values(self, inp: pd.DataFrame) -> pd.DataFrame:
        """The per-response value this axiom compares, as column ``<name>_value`` of a response frame."""
        responses = response_frame(inp, self)
        table = ResponseTable.from_responses(responses)
        values = self.response_values(table) if len(table) else np.array([], dtype=float)
        return responses.assign(**{f"{self.name}_value": np.asarray(values, dtype=float)})
