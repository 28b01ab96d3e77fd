"""Rerankers: turn pairwise preferences into a ranking of each query's responses.

Every reranker takes a response frame (and then computes the preferences it needs) or a
preference frame (and then reads them), and returns a result frame ``qid, query, docno,
response, score, rank`` (rank 0 is best, score descending along the ranking) that
``pt.Experiment`` can evaluate. Where preferences tie or are missing, the *original order*
decides: an input ``rank`` (ascending) or ``score`` (descending) of a response frame if present,
else the input order.
"""

from __future__ import annotations

import numbers
import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np
import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.aggregation import Combinator
from pyterrier_rag_axioms.base import Axiom
from pyterrier_rag_axioms.frames import (
    ResponseTable,
    is_preference_frame,
    preference_frame,
    response_frame,
)

#: The columns every reranker returns first.
RESULT_COLUMNS: list[str] = ["qid", "query", "docno", "response", "score", "rank"]

Source = str | Axiom | Combinator
Pivot = Literal["first", "middle", "last", "random"]
PIVOTS: tuple[str, ...] = ("first", "middle", "last", "random")


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
    """

    responses: pd.DataFrame
    groups: list[np.ndarray]
    compare: Callable[[np.ndarray, np.ndarray], np.ndarray]

    @classmethod
    def from_frame(cls, inp: pd.DataFrame, source: Source, reranker: object) -> Candidates:
        """Validate a response or preference frame and prepare its responses for ranking."""
        if is_preference_frame(inp):
            return cls._from_pairs(inp, source, reranker)
        return cls._from_responses(inp, source, reranker)

    @classmethod
    def _from_responses(cls, inp: pd.DataFrame, source: Source, reranker: object) -> Candidates:
        if isinstance(source, str):
            pt.validate.columns(inp, includes=["docno_a", "docno_b", source], context=reranker)
        frame = response_frame(inp, reranker)
        if isinstance(source, Combinator):
            missing = source.required_columns([])
            if missing:
                raise ValueError(
                    f"{reranker}: {source.name} reads preference columns {missing}, which a response frame lacks; "
                    "give a preference frame with them, or axioms instead of column names"
                )
        given_context = "context" in inp.columns or "qcontext" in inp.columns
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

        def compare(a: np.ndarray, b: np.ndarray) -> np.ndarray:
            # ask in input order (as a preference frame lists the pair) and negate where swapped
            swapped = input_position[a] > input_position[b]
            first, second = np.where(swapped, b, a), np.where(swapped, a, b)
            # one table for all rounds: per-response values are computed once, in the first round
            pairs = replace(table, a=first, b=second)
            values = np.sign(np.nan_to_num(np.asarray(source.preferences(pairs), dtype=float), nan=0.0))
            return np.where(swapped, -values, values)

        return cls(responses=responses, groups=groups, compare=compare)

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
        responses = table.responses.iloc[order].reset_index(drop=True)[["qid", "query", "docno", "response"]]
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

        return cls(responses=responses, groups=groups, compare=compare)

    def result(self, order: list[np.ndarray], scores: list[np.ndarray] | None = None) -> pd.DataFrame:
        """The result frame for a ranking per group (positions, best first); score ``n - rank`` by default."""
        if not order:
            return _empty_result(self.responses)
        positions = np.concatenate(order)
        ranks = np.concatenate([np.arange(len(group)) for group in order])
        if scores is None:
            score = np.concatenate([len(group) - np.arange(len(group)) for group in order]).astype(float)
        else:
            score = np.concatenate(scores).astype(float)
        frame = self.responses.iloc[positions].reset_index(drop=True)
        frame["score"] = score
        frame["rank"] = ranks
        return frame[[*RESULT_COLUMNS, *(c for c in frame.columns if c not in RESULT_COLUMNS)]]


def _empty_result(responses: pd.DataFrame) -> pd.DataFrame:
    columns = [*RESULT_COLUMNS, *(c for c in responses.columns if c not in RESULT_COLUMNS)]
    frame = responses.iloc[:0].reindex(columns=columns)
    return frame.astype({"score": float, "rank": int})


def _empty_input_result(inp: pd.DataFrame, reranker: object) -> pd.DataFrame:
    """The result of an empty input, after validating its columns."""
    if is_preference_frame(inp):
        preference_frame(inp, reranker)
        columns = ["qid", "query", "docno", "response"]
    else:
        frame = response_frame(inp, reranker)
        columns = [c for c in frame.columns if c not in ("rank", "score")]
        if "context" not in inp.columns and "qcontext" not in inp.columns:
            columns.remove("context")
    return _empty_result(pd.DataFrame(columns=columns))


def _check_seed(seed: object, reranker: str) -> int:
    """A seed for numpy's random generator: a whole number >= 0."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"{reranker}: seed must be a whole number >= 0, not {seed!r}")
    return int(seed)


def _qid_seed(seed: int, qid: str) -> np.random.Generator:
    """A random generator per query, so that other queries in the frame never change a ranking."""
    return np.random.default_rng([seed, zlib.crc32(qid.encode("utf-8"))])


class KwikSort(pt.Transformer):
    """Rank each query's responses by quicksort on pairwise preferences (KwikSort).

    A pivot response splits the others into those preferred over it (ranked above) and those
    it is preferred over (ranked below); both parts are sorted the same way. A response that ties
    with the pivot, or whose preference is missing, goes to the side given by the original order.
    When the preferences form a consistent total order, the result is that order, whatever the
    pivots; otherwise KwikSort approximates the order that disagrees least with them (with random
    pivots, within a factor 3 in expectation, Ailon et al. 2008).

    Each pair is asked for at most once, and only pairs that KwikSort compares: given a response
    frame, the axiom or combinator computes only those (all pairs of one round, across queries,
    in one call). Given a preference frame, the preferences are read from its column, in either
    orientation (a swapped pair negates); a column the frame lacks is computed by the axiom or
    combinator over the listed pairs first.
    """

    def __init__(self, source: Source, *, pivot: Pivot = "random", seed: int = 0, verbose: bool = False):
        """
        Args:
            source: a preference column name, an :class:`Axiom`, or a :class:`Combinator`.
            pivot: how the pivot of each part is chosen: ``"first"``, ``"middle"`` or ``"last"``
                response in original order, or ``"random"`` (default; seeded by ``seed`` and the qid).
            seed: seed of the random pivots, a whole number >= 0.
            verbose: show the progress of the comparisons.
        """
        self.name = _check_source(source, "KwikSort")
        if pivot not in PIVOTS:
            raise ValueError(f"KwikSort: pivot must be one of {', '.join(PIVOTS)}, not {pivot!r}")
        self.source = source
        self.pivot = pivot
        self.seed = _check_seed(seed, "KwikSort")
        self.verbose = verbose

    def _choose(self, part: np.ndarray, rng: np.random.Generator) -> int:
        """The index within ``part`` of its pivot."""
        if self.pivot == "first":
            return 0
        if self.pivot == "last":
            return len(part) - 1
        if self.pivot == "middle":
            return (len(part) - 1) // 2
        return int(rng.integers(len(part)))

    def rank(self, candidates: Candidates) -> list[np.ndarray]:
        """The positions of each group's responses, best first."""
        rngs = [_qid_seed(self.seed, str(candidates.responses["qid"].iloc[g[0]])) for g in candidates.groups]
        # each group is a list of segments: a pending part (array) or a placed response (int)
        segments: list[list[np.ndarray | int]] = [[group] for group in candidates.groups]
        progress = pt.tqdm(desc=repr(self), unit="pair", disable=not self.verbose)
        try:
            while True:
                requests: list[tuple[int, int, np.ndarray, int]] = []  # group, segment, others, pivot
                for g, group_segments in enumerate(segments):
                    for s, segment in enumerate(group_segments):
                        if isinstance(segment, np.ndarray) and len(segment) > 1:
                            chosen = self._choose(segment, rngs[g])
                            requests.append((g, s, np.delete(segment, chosen), int(segment[chosen])))
                if not requests:
                    break
                others = np.concatenate([request[2] for request in requests])
                pivots = np.concatenate([np.full(len(request[2]), request[3]) for request in requests])
                preferences = candidates.compare(others, pivots)
                progress.update(len(others))
                # a tie (or no preference) falls back to the original order
                above = np.where(preferences != 0, preferences > 0, others < pivots)
                start = 0
                replacements: dict[tuple[int, int], list[np.ndarray | int]] = {}
                for g, s, part, pivot in requests:
                    part_above = above[start : start + len(part)]
                    start += len(part)
                    replacements[(g, s)] = [part[part_above], pivot, part[~part_above]]
                for g, group_segments in enumerate(segments):
                    new: list[np.ndarray | int] = []
                    for s, segment in enumerate(group_segments):
                        for piece in replacements.get((g, s), [segment]):
                            if isinstance(piece, np.ndarray) and len(piece) == 1:
                                new.append(int(piece[0]))
                            elif not (isinstance(piece, np.ndarray) and len(piece) == 0):
                                new.append(piece)
                    segments[g] = new
        finally:
            progress.close()
        return [
            np.array([int(piece) if not isinstance(piece, np.ndarray) else int(piece[0]) for piece in group], dtype=int)
            for group in segments
        ]

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """Rank the responses of each query of a response or preference frame."""
        if len(inp) == 0:
            return _empty_input_result(inp, self)
        candidates = Candidates.from_frame(inp, self.source, self)
        return candidates.result(self.rank(candidates))

    def __repr__(self) -> str:
        arguments = [repr(self.source), f"pivot={self.pivot!r}"]
        if self.pivot == "random":
            arguments.append(f"seed={self.seed!r}")
        return f"KwikSort({', '.join(arguments)})"


class PreferenceCountReranker(pt.Transformer):
    """Rank each query's responses by how many responses they beat minus how many beat them.

    The simple baseline to KwikSort: every pair of a query is compared once (given a response
    frame) or read from the preference frame (pairs it does not list count as ties). The output
    adds ``wins`` and ``losses``; ``score`` is ``wins - losses``, and responses with equal counts
    keep the original order, with ``score`` lowered by less than 1 for each later one (``j / k``
    for the j-th of k equal responses) so that ``pt.Experiment`` sees the same order as ``rank``.
    """

    def __init__(self, source: Source, *, verbose: bool = False):
        """
        Args:
            source: a preference column name, an :class:`Axiom`, or a :class:`Combinator`.
            verbose: show the progress of the comparisons.
        """
        self.name = _check_source(source, "PreferenceCountReranker")
        self.source = source
        self.verbose = verbose

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """Rank the responses of each query of a response or preference frame by wins minus losses."""
        if len(inp) == 0:
            return _empty_input_result(inp, self).assign(wins=pd.Series(dtype=int), losses=pd.Series(dtype=int))
        candidates = Candidates.from_frame(inp, self.source, self)
        size = len(candidates.responses)
        # positions of every pair's responses: all pairs of each group in original order
        a = np.concatenate([g[np.triu_indices(len(g), k=1)[0]] for g in candidates.groups]).astype(int)
        b = np.concatenate([g[np.triu_indices(len(g), k=1)[1]] for g in candidates.groups]).astype(int)
        with pt.tqdm(total=len(a), desc=repr(self), unit="pair", disable=not self.verbose) as progress:
            preferences = candidates.compare(a, b) if len(a) else np.empty(0)
            progress.update(len(a))
        prefer_a, prefer_b = (preferences > 0).astype(float), (preferences < 0).astype(float)
        wins = np.bincount(a, prefer_a, minlength=size) + np.bincount(b, prefer_b, minlength=size)
        losses = np.bincount(a, prefer_b, minlength=size) + np.bincount(b, prefer_a, minlength=size)
        balance = wins - losses
        order, scores = [], []
        for group in candidates.groups:
            ranked = group[np.lexsort((group, -balance[group]))]
            counts = balance[ranked]
            _, first, sizes = np.unique(-counts, return_index=True, return_counts=True)
            offsets = np.zeros(len(ranked))
            for start, k in zip(first, sizes):
                offsets[start : start + k] = np.arange(k) / k
            order.append(ranked)
            scores.append(counts - offsets)
        result = candidates.result(order, scores)
        positions = np.concatenate(order)
        result["wins"] = wins[positions].astype(int)
        result["losses"] = losses[positions].astype(int)
        return result

    def __repr__(self) -> str:
        return f"PreferenceCountReranker({self.source!r})"


class AxiomaticReranker(pt.Transformer):
    """Rank each query's responses by an axiom or combinator, in one transformer.

    ``AxiomaticReranker(MajorityVote(COV1(), CONS2(), CORR1()))`` takes a response frame and
    returns a result frame; ``method="kwiksort"`` (default) compares only the pairs KwikSort asks
    for, ``method="count"`` compares all pairs and ranks by wins minus losses.
    """

    def __init__(
        self,
        source: Source,
        *,
        method: Literal["kwiksort", "count"] = "kwiksort",
        pivot: Pivot = "random",
        seed: int = 0,
        verbose: bool = False,
    ):
        """
        Args:
            source: an :class:`Axiom` or :class:`Combinator` (or a preference column name, for
                preference frames).
            method: ``"kwiksort"`` (default) or ``"count"``.
            pivot: the pivot selection of KwikSort (see :class:`KwikSort`).
            seed: the seed of KwikSort's random pivots, a whole number >= 0.
            verbose: show the progress of the comparisons.
        """
        self.name = _check_source(source, "AxiomaticReranker")
        seed = _check_seed(seed, "AxiomaticReranker")
        if method == "kwiksort":
            self.reranker: KwikSort | PreferenceCountReranker = KwikSort(
                source, pivot=pivot, seed=seed, verbose=verbose
            )
        elif method == "count":
            self.reranker = PreferenceCountReranker(source, verbose=verbose)
        else:
            raise ValueError(f"AxiomaticReranker: method must be 'kwiksort' or 'count', not {method!r}")
        self.source = source
        self.method = method
        self.pivot = pivot
        self.seed = seed
        self.verbose = verbose

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """Rank the responses of each query."""
        return self.reranker.transform(inp)

    def __repr__(self) -> str:
        arguments = [repr(self.source), f"method={self.method!r}"]
        if self.method == "kwiksort":
            arguments.append(f"pivot={self.pivot!r}")
            if self.pivot == "random":
                arguments.append(f"seed={self.seed!r}")
        return f"AxiomaticReranker({', '.join(arguments)})"
