"""What every reranker shares: the result columns, the source check, the candidates and the empty result.

Every reranker takes a response frame (and then computes the preferences it needs) or a
preference frame (and then reads them), and returns a result frame ``qid, query, docno,
response, score, rank`` (rank 0 is best, score descending along the ranking) that
``pt.Experiment`` can evaluate. Where preferences tie or are missing, the *original order*
decides: an input ``rank`` (ascending) or ``score`` (descending) of a response frame if present,
else the input order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Literal, get_args

import numpy as np
import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.aggregation import Combinator
from pyterrier_rag_axioms.axioms import Axiom, warn_about_contexts
from pyterrier_rag_axioms.frames import (
    NAMES_ATTR,
    ResponseTable,
    is_preference_frame,
    preference_frame,
    response_extras,
    response_frame,
    restore_names,
    warn_single_responses,
)

#: The columns every reranker returns first.
RESULT_COLUMNS: list[str] = ["qid", "query", "docno", "response", "score", "rank"]

Source = str | Axiom | Combinator
Pivot = Literal["first", "middle", "last", "random"]
#: The pivot rules of :class:`~pyterrier_rag_axioms.reranking.KwikSort`, as :data:`Pivot` spells them.
PIVOTS: tuple[str, ...] = get_args(Pivot)


def _check_source(source: object, reranker: str) -> str:
    """The preference column name of a source, after checking its type."""
    if isinstance(source, str):
        if not source:
            raise ValueError(f"{reranker}: the preference column name must not be empty")
        return source
    if isinstance(source, Axiom | Combinator):
        return source.name
    raise TypeError(
        f"{reranker}: the source of preferences must be a preference column name, an Axiom or a Combinator, "
        f"not {type(source).__name__} {source!r}"
    )


def check_source(reranker: object, source: object) -> None:
    """The declared check of a reranker's ``source`` (see :func:`_check_source`)."""
    _check_source(source, type(reranker).__name__)


def source_name(source: Source) -> str:
    """The preference column name of a checked source."""
    return source if isinstance(source, str) else source.name


def checked_response_frame(inp: pd.DataFrame, source: Source, reranker: object) -> pd.DataFrame:
    """A response frame to rank, validated, after checking that ``source`` can judge its pairs.

    A preference column name, or a combinator of column names, needs a preference frame.

    Raises:
        pt.validate.InputValidationError: ``source`` is a column name, or a combinator that reads
            preference columns (a preference frame with them is needed).
    """
    if isinstance(source, str):
        pt.validate.columns(inp, includes=["docno_a", "docno_b", source], context=reranker)
    if isinstance(source, Combinator) and (missing := source.required_columns(list(inp.columns))):
        try:
            pt.validate.columns(inp, includes=["docno_a", "docno_b", *missing], context=reranker)
        except pt.validate.InputValidationError as error:
            raise type(error)(
                f"{reranker}: {source.name} reads preference columns {missing}, which a response frame lacks; "
                "give a preference frame with them, or axioms instead of column names",
                error.modes,
            ) from None
    return response_frame(inp, reranker)


@dataclass
class Candidates:
    """The responses to rank and a way to ask for the preference of pairs of them.

    Attributes:
        responses: one row per response, grouped by qid (in order of first appearance) and, within
            a qid, in original order; at least ``qid``, ``query``, ``docno``, ``response``.
        groups: for each qid, the positions of its responses in ``responses`` (ascending, so a
            lower position means earlier in the original order).
        compare: for arrays of positions ``a`` and ``b`` (same qid), the sign of the preference
            of each pair: +1 prefers a, -1 prefers b, 0 tie or no preference.
        names: pyterrier-rag's names the input used (alias -> our name), restored in the result.
    """

    responses: pd.DataFrame
    groups: list[np.ndarray]
    compare: Callable[[np.ndarray, np.ndarray], np.ndarray]
    names: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_frame(cls, inp: pd.DataFrame, source: Source, reranker: object) -> Candidates:
        """Validate a response or preference frame and prepare its responses for ranking."""
        if is_preference_frame(inp):
            return cls._from_pairs(inp, source, reranker)
        return cls._from_responses(inp, source, reranker)

    @classmethod
    def _from_responses(cls, inp: pd.DataFrame, source: Source, reranker: object) -> Candidates:
        frame = checked_response_frame(inp, source, reranker)
        given_context = "context" in inp.columns or "qcontext" in inp.columns
        warn_single_responses(frame, reranker)
        frame["_input_position"] = np.arange(len(frame))
        frame["_qid_order"] = pd.factorize(frame["qid"])[0]
        keys = ["_qid_order"]
        ascending = [True]
        for column, up in (("rank", True), ("score", False)):
            if column in frame.columns:
                values = pd.to_numeric(frame[column], errors="coerce")
                if values.isna().any():
                    row = frame.index[int(np.flatnonzero(values.isna().to_numpy())[0])]
                    raise TypeError(f"{reranker}: column {column!r} must hold numbers, but row {row!r} does not")
                frame[f"_{column}"] = values
                keys.append(f"_{column}")
                ascending.append(up)
                break
        keys.append("_input_position")
        ascending.append(True)
        frame = frame.sort_values(keys, ascending=ascending, kind="mergesort").reset_index(drop=True)
        input_position = frame["_input_position"].to_numpy()
        groups = list(frame.groupby("_qid_order", sort=True).indices.values())
        helpers = ["_input_position", "_qid_order", "_rank", "_score"]
        responses = frame.drop(columns=[c for c in frame.columns if c in helpers or c in ("rank", "score")])
        if not given_context:
            responses = responses.drop(columns=["context"])
        table = ResponseTable.from_responses(frame)
        if not isinstance(source, str):
            warn_about_contexts(table, reranker, [source])

        def compare(a: np.ndarray, b: np.ndarray) -> np.ndarray:
            # ask in input order (as a preference frame lists the pair) and negate where swapped
            swapped = input_position[a] > input_position[b]
            first, second = np.where(swapped, b, a), np.where(swapped, a, b)
            # one table for all rounds: per-response values are computed once, in the first round
            pairs = replace(table, a=first, b=second)
            values = np.sign(np.nan_to_num(np.asarray(source.preferences(pairs), dtype=float), nan=0.0))
            return np.where(swapped, -values, values)

        return cls(responses=responses, groups=groups, compare=compare, names=frame.attrs.get(NAMES_ATTR, {}))

    @classmethod
    def _from_pairs(cls, inp: pd.DataFrame, source: Source, reranker: object) -> Candidates:
        name = _check_source(source, str(reranker))
        pairs = preference_frame(inp, reranker)
        if name not in pairs.columns:
            if isinstance(source, str):
                pt.validate.columns(pairs, includes=[name], context=reranker)
            pairs = source.transform(pairs)  # type: ignore[union-attr]
        table = ResponseTable.from_pairs(pairs)
        # original order: first appearance in the pair rows (a before b)
        appearance = np.full(len(table), len(pairs) * 2, dtype=int)
        order_of_rows = np.arange(len(pairs))
        np.minimum.at(appearance, table.b, 2 * order_of_rows + 1)
        np.minimum.at(appearance, table.a, 2 * order_of_rows)
        qid_order = pd.factorize(table.responses["qid"])[0]
        # first appearance of a qid is the first appearance of any of its responses
        qid_first = pd.Series(appearance).groupby(qid_order).transform("min").to_numpy()
        order = np.lexsort((appearance, qid_first))
        kept = ["qid", "query", "docno", "response"]
        if table.responses["context"].notna().any():
            kept.append("context")
        responses = pd.concat(
            [table.responses[kept], response_extras(pairs, table.a, table.b, len(table))], axis=1
        ).iloc[order].reset_index(drop=True)
        position = np.empty(len(order), dtype=int)
        position[order] = np.arange(len(order))
        groups = list(pd.Series(np.arange(len(order))).groupby(qid_first[order], sort=True).indices.values())
        groups = [np.asarray(group) for group in groups]
        values = np.sign(np.nan_to_num(pairs[name].to_numpy(dtype=float), nan=0.0))
        size = len(order)
        at_a, at_b = position[table.a], position[table.b]
        keys = np.concatenate([at_a * size + at_b, at_b * size + at_a])
        lookup = pd.Series(np.concatenate([values, -values]), index=keys)
        lookup = lookup[~lookup.index.duplicated(keep="first")]

        def compare(a: np.ndarray, b: np.ndarray) -> np.ndarray:
            found = lookup.reindex(a * size + b).to_numpy()
            return np.nan_to_num(found, nan=0.0)

        return cls(responses=responses, groups=groups, compare=compare, names=pairs.attrs.get(NAMES_ATTR, {}))

    def result(self, order: list[np.ndarray], scores: list[np.ndarray] | None = None) -> pd.DataFrame:
        """The result frame for a ranking per group (positions, best first); score ``n - rank`` by default."""
        if not order:
            return restore_names(_empty_result(self.responses), self.names)
        positions = np.concatenate(order)
        ranks = np.concatenate([np.arange(len(group)) for group in order])
        if scores is None:
            score = np.concatenate([len(group) - np.arange(len(group)) for group in order]).astype(float)
        else:
            score = np.concatenate(scores).astype(float)
        frame = self.responses.iloc[positions].reset_index(drop=True)
        frame["score"] = score
        frame["rank"] = ranks
        return restore_names(frame[_result_order(list(frame.columns))], self.names)


def _result_order(columns: list[str]) -> list[str]:
    """A result frame's columns in one order, whatever frame it came from: :data:`RESULT_COLUMNS`,
    then the context (where there is one), then the other columns of the responses."""
    first = [*RESULT_COLUMNS, *(["context"] if "context" in columns else [])]
    return [*first, *(c for c in columns if c not in first)]


def _empty_result(responses: pd.DataFrame) -> pd.DataFrame:
    frame = responses.iloc[:0].reindex(columns=_result_order(list(responses.columns)))
    return frame.astype({"score": float, "rank": int})


def _empty_input_result(inp: pd.DataFrame, reranker: object, source: Source) -> pd.DataFrame:
    """The result of an empty input, after validating it as a non-empty one is (also for ``source``)."""
    if is_preference_frame(inp):
        frame = preference_frame(inp, reranker)
        columns = ["qid", "query", "docno", "response"]
        if {"context", "context_a", "qcontext"} & set(inp.columns):
            columns.append("context")
        columns.extend(response_extras(frame, np.array([], dtype=int), np.array([], dtype=int), 0).columns)
    else:
        frame = checked_response_frame(inp, source, reranker)
        columns = [c for c in frame.columns if c not in ("rank", "score")]
        if "context" not in inp.columns and "qcontext" not in inp.columns:
            columns.remove("context")
    return restore_names(_empty_result(pd.DataFrame(columns=columns)), frame.attrs.get(NAMES_ATTR, {}))
