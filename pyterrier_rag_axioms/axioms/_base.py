"""Base classes of all axioms: the transformer contract and the margin comparison."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TypeVar

import numpy as np
import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.axioms.operators import PreferenceOperators
from pyterrier_rag_axioms.declaration import (
    DECISION,
    PRESENTATION,
    declared_repr,
    label_of,
    parameter,
    parameters,
    same_parameters,
)
from pyterrier_rag_axioms.frames import (
    NAMES_ATTR,
    PAIR_COLUMNS,
    ResponseTable,
    check_column_name,
    preference_frame,
    response_frame,
    restore_names,
    warn_joined_context,
    warn_missing_context,
)
from pyterrier_rag_axioms.registry import register_axiom
from pyterrier_rag_axioms.runtime.by_topic import ByTopic
from pyterrier_rag_axioms.runtime.cache import flush_caches

T = TypeVar("T")

#: The modules whose axiom classes register themselves (see :mod:`~pyterrier_rag_axioms.registry`).
_AXIOM_MODULES = ("pyterrier_rag_axioms.axioms.",)


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


def resolve_tool(resolve: Callable[[Any], Any]) -> Callable[[Any, Any], Any]:
    """A :func:`parameter` resolver from a one-argument tool resolver (e.g. a model name to its shared tool)."""
    return lambda transformer, argument: resolve(argument)


def _margin(axiom: Axiom, margin_fraction: float | None) -> float:
    """The margin in use: the argument (checked by its declared bounds), else the axiom's documented one."""
    return axiom.default_margin_fraction if margin_fraction is None else float(margin_fraction)


def _check_name(axiom: Axiom, name: str | None) -> None:
    """A given column name must be a non-empty string and no column of the frames (the error names the axiom)."""
    if name is not None:
        check_column_name(name, label_of(axiom))


@parameters
class Axiom(PreferenceOperators, ByTopic, pt.Transformer, ABC):
    """A pairwise rule over responses to the same request, as a PyTerrier transformer.

    Given a response frame, an axiom builds all pairs of each query's responses; given a
    preference frame, it fills the pairs listed there. Either way it adds one float column named
    ``name``: ``+1.0`` prefers response a, ``-1.0`` prefers response b, ``0.0`` no preference.
    Constructor parameters are keyword-only and declared once per class (:func:`parameters`).
    """

    #: The short name, e.g. ``"COV1"``; the default ``name`` of the preference column.
    short_name: ClassVar[str]
    #: The documented default of ``margin_fraction``.
    default_margin_fraction: ClassVar[float] = 0.0
    #: Whether the axiom reads the retrieved context (and gives no preference without one).
    needs_context: ClassVar[bool] = False
    #: Whether the axiom reads citation markers as the numbers of the context's passages.
    cites_passages: ClassVar[bool] = False
    #: The table of :mod:`~pyterrier_rag_axioms.registry` the axiom is listed in: ``"rag"`` (the
    #: paper's axioms), ``"extra"``, ``"pool"``, ``"gen"`` or ``"oracle"``.
    registry_group: ClassVar[str] = "extra"

    #: Relative difference within which two values tie (default: the axiom's documented margin).
    margin_fraction: float | None = parameter(None, role=DECISION, at_least=0, resolve=_margin, always_shown=True)
    #: Name of the preference column (default: the axiom's short name).
    name: str | None = parameter(
        None,
        role=PRESENTATION,
        check=_check_name,
        resolve=lambda axiom, name: axiom.default_name() if name is None else name,
    )
    #: Show progress of long work.
    verbose: bool = parameter(False, role=PRESENTATION, hidden=True)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # An axiom of this package registers itself where its class is defined: adding an axiom
        # touches its dimension's module only.
        super().__init_subclass__(**kwargs)
        if "short_name" in cls.__dict__ and cls.__module__.startswith(_AXIOM_MODULES):
            register_axiom(cls, cls.registry_group)

    def __post_init__(self) -> None:
        """Derived state, after the declared constructor checked and resolved the parameters (subclasses extend it)."""

    def default_name(self) -> str:
        """The name of the preference column when none is given."""
        return self.short_name

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """Add this axiom's columns (:meth:`output_columns`) to the (built or given) preference frame."""
        pairs = preference_frame(inp, self)
        if len(pairs) == 0:
            columns = [*PAIR_COLUMNS, *(c for c in pairs.columns if c not in PAIR_COLUMNS)]
            empty = {column: pd.Series(dtype=float) for column in self.output_columns()}
            return pairs.reindex(columns=columns).assign(**empty)
        table = ResponseTable.from_pairs(pairs)
        warn_about_contexts(table, self, self.context_sources())
        for column, values in self.output_values(table).items():
            pairs[column] = values
        flush_caches()  # what the models computed for this axiom persists, where a cache is set
        return pairs

    def output_columns(self) -> list[str]:
        """The columns :meth:`transform` adds: the preference column ``name`` (a subclass may add more)."""
        return [self.name]

    def output_values(self, table: ResponseTable) -> dict[str, np.ndarray]:
        """The values of :meth:`output_columns` for each pair of ``table``: the preferences."""
        return {self.name: self.preferences(table)}

    def context_sources(self) -> list[object]:
        """The axioms whose reading of the context :meth:`transform` warns about: this one (a model: its features)."""
        return [self]

    @abstractmethod
    def preferences(self, table: ResponseTable) -> np.ndarray:
        """The preference of each pair ``(table.a[i], table.b[i])`` as an array of floats."""

    def __repr__(self) -> str:
        return declared_repr(self, self.short_name)

    def __eq__(self, other: object) -> bool:
        """Axioms of one class with the same declared parameters are equal (``verbose`` aside)."""
        return same_parameters(self, other)

    def __hash__(self) -> int:
        return hash(type(self))


def context_readers(source: object, *, citing: bool = False) -> list[str]:
    """The names of the axioms in ``source`` (an axiom, or a combinator's members) that read the
    context (with ``citing``: that read citation markers as numbers of its passages)."""
    if isinstance(source, Axiom):
        return [source.name] if (source.cites_passages if citing else source.needs_context) else []
    members = getattr(source, "members", ())
    return list(dict.fromkeys(name for member in members for name in context_readers(member, citing=citing)))


def warn_about_contexts(table: ResponseTable, transformer: object, sources: Sequence[object]) -> None:
    """Warn where the axioms of ``sources`` read contexts that are missing, or that are one string
    of several lines where they index passages by citation numbers."""
    readers = [name for source in sources for name in context_readers(source)]
    warn_missing_context(table, transformer, list(dict.fromkeys(readers)))
    citers = [name for source in sources for name in context_readers(source, citing=True)]
    warn_joined_context(table, transformer, list(dict.fromkeys(citers)))


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
        if id(self) not in table.values:  # the axiom is kept with its values, so its id is never reused meanwhile
            table.values[id(self)] = (self, np.asarray(self.response_values(table), dtype=float))
        return table.values[id(self)][1]

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
        flush_caches()
        frame = responses.assign(**{f"{self.name}_value": np.asarray(values, dtype=float)})
        return restore_names(frame, responses.attrs.get(NAMES_ATTR, {}))  # pyterrier-rag's names, where given
