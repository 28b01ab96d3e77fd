"""Combinators: one preference out of the preferences of several axioms or preference columns.

Each combinator is a transformer over a response or preference frame that writes its own
preference column, and a pure vectorised function (:meth:`Combinator.combine`) over a matrix of
member preferences (one row per pair, one column per member), which rankers reuse. Members are
given positionally: a string names a preference column already in the frame; an :class:`Axiom`
(or another combinator) is run by the combinator where its column is not in the frame yet.

Member preferences that are NaN count as 0 (no preference). Every combinator returns ``+1.0``,
``-1.0`` or ``0.0`` and keeps antisymmetry: negating all member preferences negates the result.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.axioms import Axiom, PreferenceOperators, warn_about_contexts
from pyterrier_rag_axioms.declaration import PRESENTATION, REQUIRED, declared_repr, parameter, parameters
from pyterrier_rag_axioms.frames import PAIR_COLUMNS, ResponseTable, check_column_name, preference_frame
from pyterrier_rag_axioms.registry import COMBINATORS
from pyterrier_rag_axioms.runtime.by_topic import ByTopic


def member_name(member: str | Axiom | Combinator) -> str:
    """The name of the preference column a member stands for."""
    return member if isinstance(member, str) else member.name


def _as_matrix(preferences: np.ndarray | Sequence[Sequence[float]], members: int, combinator: object) -> np.ndarray:
    """Member preferences as a float matrix (pairs x members), NaN replaced by 0."""
    matrix = np.asarray(preferences, dtype=float)
    if matrix.ndim != 2 or matrix.shape[1] != members:
        raise ValueError(
            f"{combinator}: expected a matrix with one column per member ({members}), not shape {matrix.shape}"
        )
    return np.where(np.isnan(matrix), 0.0, matrix)


def _check_members(combinator: Combinator, members: tuple) -> None:
    """At least one member, each a non-empty column name, an axiom or a combinator, with distinct names."""
    kind = type(combinator).__name__
    if not members:
        raise ValueError(f"{kind}: needs at least one member (a column name, an axiom or a combinator)")
    for member in members:
        if isinstance(member, str):
            if not member:
                raise ValueError(f"{kind}: a member column name must not be empty")
        elif not isinstance(member, Axiom | Combinator):
            raise TypeError(
                f"{kind}: a member must be a preference column name, an Axiom or a Combinator, "
                f"not {type(member).__name__} {member!r}"
            )
    names = [member_name(member) for member in members]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise ValueError(f"{kind}: members must have distinct names, but {duplicates} occur more than once")


def _default_name(combinator: Combinator, name: str | None) -> str:
    """The column name: ``name``, else the class name followed by the member names; checked."""
    kind = type(combinator).__name__
    name = f"{kind}({','.join(combinator.member_names)})" if name is None else name
    check_column_name(name, kind)
    if name in combinator.member_names:
        raise ValueError(f"{kind}: name {name!r} is also the name of a member")
    return name


@parameters
class Combinator(PreferenceOperators, ByTopic, pt.Transformer, ABC):
    """Base of the combinators: members, naming, running members, and the transformer contract.

    Parameters are declared once (:mod:`~pyterrier_rag_axioms.declaration`); ``repr`` reads them.
    """

    #: Preference column names, axioms or other combinators (at least one), given positionally.
    members: tuple[str | Axiom | Combinator, ...] = parameter(REQUIRED, variadic=True, check=_check_members)
    #: Name of the combined preference column (default: the class name followed by the member names,
    #: e.g. ``"MajorityVote(COV1,CONS2,CORR1)"``).
    name: str | None = parameter(None, role=PRESENTATION, resolve=_default_name)
    #: Show progress of long work.
    verbose: bool = parameter(False, role=PRESENTATION, hidden=True)

    @property
    def member_names(self) -> tuple[str, ...]:
        """The preference column name of each member, in member order."""
        return tuple(member_name(member) for member in self.members)

    def __iter__(self):
        """The member axioms and combinators (column names are no transformers), as PyTerrier's operators do."""
        return iter([member for member in self.members if isinstance(member, pt.Transformer)])

    def subtransformers(self) -> dict[str, list[pt.Transformer]]:
        """The member axioms and combinators, for ``pt.inspect`` and schematics."""
        return {"members": list(self)}

    # --- the pure function ------------------------------------------------------------------

    @abstractmethod
    def _combine(self, matrix: np.ndarray) -> np.ndarray:
        """Combine a NaN-free matrix (pairs x members) into one preference per pair."""

    def combine(self, preferences: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
        """Combine member preferences, one row per pair and one column per member (NaN counts as 0).

        Returns one float per row: ``+1.0`` prefers a, ``-1.0`` prefers b, ``0.0`` no preference.
        """
        matrix = _as_matrix(preferences, len(self.members), self)
        return np.asarray(self._combine(matrix), dtype=float) + 0.0  # turns -0.0 into 0.0

    # --- running the members ----------------------------------------------------------------

    def required_columns(self, available: Sequence[str]) -> list[str]:
        """Column names that must be in a frame with columns ``available`` for this combinator to run."""
        required: list[str] = []
        for member, name in zip(self.members, self.member_names):
            if name in available:
                continue
            if isinstance(member, str):
                required.append(name)
            elif isinstance(member, Combinator):
                required.extend(member.required_columns(available))
        return list(dict.fromkeys(required))

    def _member_values(self, frame: pd.DataFrame, name: str) -> np.ndarray:
        try:
            return frame[name].to_numpy(dtype=float)
        except (TypeError, ValueError):
            raise TypeError(f"{self}: preference column {name!r} must hold numbers") from None

    def compute(self, pairs: pd.DataFrame, table: Callable[[], ResponseTable]) -> dict[str, np.ndarray]:
        """The preference columns this combinator adds to a validated preference frame.

        Members whose column is in ``pairs`` are read from it; axioms and combinators without a
        column are run over ``table()`` (the responses behind the pairs). Returns the computed
        member columns and, last, this combinator's column.
        """
        added: dict[str, np.ndarray] = {}
        columns: list[np.ndarray] = []
        members = zip(self.members, self.member_names)
        for member, name in pt.tqdm(members, total=len(self.members), desc=self.name, disable=not self.verbose):
            if name in pairs.columns:
                values = self._member_values(pairs, name)
            elif name in added:
                values = added[name]
            elif isinstance(member, Combinator):
                nested = member.compute(pairs, table)
                added.update((key, value) for key, value in nested.items() if key not in pairs.columns)
                values = nested[name]
            elif isinstance(member, Axiom):
                values = np.asarray(member.preferences(table()), dtype=float)
                added[name] = values
            else:
                raise KeyError(f"{self}: the frame lacks preference column {name!r}")
            columns.append(values)
        added[self.name] = self.combine(np.column_stack(columns) if columns else np.empty((len(pairs), 0)))
        return added

    def preferences(self, table: ResponseTable) -> np.ndarray:
        """The preference of each pair ``(table.a[i], table.b[i])``, running every member.

        Like :meth:`Axiom.preferences`; needs members that can run (axioms or combinators of them),
        since a table has no preference columns.
        """
        missing = self.required_columns([])
        if missing:
            raise ValueError(
                f"{self}: members {missing} are preference column names, which need a preference frame "
                "that has them; give axioms instead to compute preferences from responses"
            )
        columns = [np.asarray(member.preferences(table), dtype=float) for member in self.members]  # type: ignore[union-attr]
        return self.combine(np.column_stack(columns))

    # --- the transformer --------------------------------------------------------------------

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """Add the combined preference column (and the columns of members it ran) to the preference frame."""
        required = self.required_columns(list(inp.columns))
        if required:  # checked on the caller's frame: a response frame has no preference columns
            pt.validate.columns(inp, includes=["docno_a", "docno_b", *required], context=self)
        pairs = preference_frame(inp, self)
        if len(pairs) == 0:
            columns = [*PAIR_COLUMNS, *(c for c in pairs.columns if c not in PAIR_COLUMNS)]
            names = [name for name in self.output_names() if name not in columns or name == self.name]
            return pairs.reindex(columns=columns).assign(**{name: pd.Series(dtype=float) for name in names})
        cache: list[ResponseTable] = []

        def table() -> ResponseTable:
            if not cache:
                cache.append(ResponseTable.from_pairs(pairs))
                run = [m for m, name in zip(self.members, self.member_names) if name not in pairs.columns]
                warn_about_contexts(cache[0], self, run)
            return cache[0]

        added = self.compute(pairs, table)
        for name, values in added.items():
            pairs[name] = values
        return pairs

    def output_names(self) -> list[str]:
        """All column names this combinator may add: computed members (depth first), then its own."""
        names: list[str] = []
        for member in self.members:
            if isinstance(member, Combinator):
                names.extend(member.output_names())
            elif isinstance(member, Axiom):
                names.append(member.name)
        return [*dict.fromkeys(names), self.name]

    __repr__ = declared_repr


@parameters
class MajorityVote(Combinator):
    """Prefer what most members prefer, when enough members decide.

    Each member votes with the sign of its preference; a member with preference 0 (or NaN) is
    not decisive. With ``d`` decisive votes out of ``m`` members the result is 0 when
    ``d / m < min_decisive_share``; otherwise it is the sign of the sum of the votes: +1 when more
    decisive members prefer a than b, -1 when more prefer b, 0 on a tie of votes (and when no
    member is decisive).

    ``min_decisive_share=0`` counts the votes whatever their number (relative majority);
    ``0.5`` (default) needs at least half of the members to express a preference; ``1`` needs all
    of them.
    """

    #: The least share of members, in [0, 1], that must prefer one of the two responses.
    min_decisive_share: float = parameter(
        0.5, always_shown=True, at_least=0, at_most=1, resolve=lambda vote, share: float(share)
    )

    def _combine(self, matrix: np.ndarray) -> np.ndarray:
        votes = np.sign(matrix)
        decisive = np.count_nonzero(votes, axis=1)
        enough = decisive >= self.min_decisive_share * matrix.shape[1] - 1e-12
        return np.where(enough, np.sign(votes.sum(axis=1)), 0.0)



class Cascade(Combinator):
    """Ask the members in order; the first that prefers one response decides.

    The result is the sign of the first non-zero member preference (NaN counts as 0), or 0 when
    every member ties. Put the most trusted axiom first and the tie breakers after it.
    """

    def _combine(self, matrix: np.ndarray) -> np.ndarray:
        votes = np.sign(matrix)
        decisive = votes != 0
        first = decisive.argmax(axis=1)
        chosen = votes[np.arange(len(votes)), first] if len(votes) else np.empty(0)
        return np.where(decisive.any(axis=1), chosen, 0.0)


class Conjunction(Combinator):
    """Prefer a response only where all decisive members agree.

    Members with preference 0 (or NaN) abstain. The result is +1 when at least one member
    prefers a and none prefers b, -1 when at least one prefers b and none prefers a, and 0 when
    the decisive members disagree or none is decisive.
    """

    def _combine(self, matrix: np.ndarray) -> np.ndarray:
        for_a = (matrix > 0).any(axis=1)
        for_b = (matrix < 0).any(axis=1)
        return np.where(for_a & ~for_b, 1.0, 0.0) - np.where(for_b & ~for_a, 1.0, 0.0)


def _weights(combinator: Combinator, weights: Sequence[float] | None) -> tuple[float, ...]:
    """One finite weight per member, as floats (``None``: 1 each)."""
    weights = [1.0] * len(combinator.members) if weights is None else list(weights)
    if len(weights) != len(combinator.members):
        raise ValueError(
            f"WeightedSum: got {len(weights)} weights for {len(combinator.members)} members; give one weight per member"
        )
    array = np.asarray(weights, dtype=float)
    if not np.isfinite(array).all():
        raise ValueError(f"WeightedSum: weights must be finite numbers, not {weights!r}")
    return tuple(float(weight) for weight in array)


@parameters
class WeightedSum(Combinator):
    """Prefer by the sign of the weighted sum of member preferences.

    The result is the sign of ``sum_i weights[i] * preference_i`` (NaN counts as 0); a sum within
    ``1e-9 * sum_i |weights[i]|`` of zero is a tie. Unlike the other combinators, the member
    preferences enter with their value, so graded preference columns keep their strength. With
    equal weights (default 1 each) and preferences in {-1, 0, +1} this is a majority vote among
    the decisive members.
    """

    #: One finite weight per member, in member order (default: 1 each).
    weights: tuple[float, ...] | None = parameter(None, always_shown=True, resolve=_weights)

    def _combine(self, matrix: np.ndarray) -> np.ndarray:
        weights = np.asarray(self.weights, dtype=float)
        total = matrix @ weights
        tolerance = 1e-9 * np.abs(weights).sum()
        return np.where(np.abs(total) > tolerance, np.sign(total), 0.0)


COMBINATORS.update(majority=MajorityVote, cascade=Cascade, conjunction=Conjunction, weighted=WeightedSum)
