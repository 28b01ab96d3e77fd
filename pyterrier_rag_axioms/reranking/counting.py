"""Rerankers by preference counts, and the reranker that computes the preferences of an axiom first."""

from __future__ import annotations

from typing import Literal, get_args

import numpy as np
import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.declaration import (
    PRESENTATION,
    REQUIRED,
    declared_repr,
    parameter,
    parameters,
)
from pyterrier_rag_axioms.frames import check_pair_count
from pyterrier_rag_axioms.reranking._candidates import (
    Candidates,
    Pivot,
    Source,
    _empty_input_result,
    check_source,
    source_name,
)
from pyterrier_rag_axioms.reranking.kwiksort import KwikSort, pivot_parameter, seed_parameter
from pyterrier_rag_axioms.runtime.by_topic import ByTopic


@parameters
class PreferenceCountReranker(ByTopic, pt.Transformer):
    """Rank each query's responses by how many responses they beat minus how many beat them.

    The simple baseline to KwikSort: every pair of a query is compared once (given a response
    frame) or read from the preference frame (pairs it does not list count as ties). The output
    adds ``wins`` and ``losses``; ``score`` is ``wins - losses``, and responses with equal counts
    keep the original order, with ``score`` lowered by less than 1 for each later one (``j / k``
    for the j-th of k equal responses) so that ``pt.Experiment`` sees the same order as ``rank``.
    """

    #: A preference column name, an :class:`Axiom`, or a :class:`Combinator`.
    source: Source = parameter(REQUIRED, positional=True, check=check_source)
    #: Show the progress of the comparisons.
    verbose: bool = parameter(False, role=PRESENTATION, hidden=True)

    @property
    def name(self) -> str:
        """The preference column the ranking reads or computes."""
        return source_name(self.source)

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """Rank the responses of each query of a response or preference frame by wins minus losses."""
        return self.rank_frame(inp, self)

    def rank_frame(self, inp: pd.DataFrame, caller: object) -> pd.DataFrame:
        """:meth:`transform`, with errors and warnings naming ``caller`` (e.g. a reranker that delegates here)."""
        if len(inp) == 0:
            empty = _empty_input_result(inp, caller, self.source)
            return empty.assign(wins=pd.Series(dtype=int), losses=pd.Series(dtype=int))
        candidates = Candidates.from_frame(inp, self.source, caller)
        check_pair_count(candidates.responses["qid"], caller)  # all pairs of each query are compared
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

    __repr__ = declared_repr


#: A ranking method of :class:`AxiomaticReranker`: KwikSort, or counting wins and losses.
Method = Literal["kwiksort", "count"]
#: The ranking methods of :class:`AxiomaticReranker`, as :data:`Method` spells them.
METHODS: tuple[str, ...] = get_args(Method)


def method_parameter() -> Method:
    """The ranking method, declared alike by :class:`AxiomaticReranker` and the transformers that pass it on."""
    return parameter("kwiksort", choices=METHODS)


def _ranker(reranker: AxiomaticReranker) -> KwikSort | PreferenceCountReranker:
    if reranker.method == "kwiksort":
        return KwikSort(reranker.source, pivot=reranker.pivot, seed=reranker.seed, verbose=reranker.verbose)
    return PreferenceCountReranker(reranker.source, verbose=reranker.verbose)


@parameters
class AxiomaticReranker(ByTopic, pt.Transformer):
    """Rank each query's responses by an axiom or combinator, in one transformer.

    ``AxiomaticReranker(MajorityVote(COV1(), CONS2(), CORR1()))`` takes a response frame and
    returns a result frame; ``method="kwiksort"`` (default) compares only the pairs KwikSort asks
    for, ``method="count"`` compares all pairs and ranks by wins minus losses.
    """

    #: An :class:`Axiom` or :class:`Combinator` (or a preference column name, for preference frames).
    source: Source = parameter(REQUIRED, positional=True, check=check_source)
    #: The ranking method: ``"kwiksort"`` or ``"count"``.
    method: Method = method_parameter()
    #: The pivot selection of KwikSort (see :class:`KwikSort`).
    pivot: Pivot = pivot_parameter()
    #: The seed of KwikSort's random pivots.
    seed: int = seed_parameter()
    #: Show the progress of the comparisons.
    verbose: bool = parameter(False, role=PRESENTATION, hidden=True)

    def __post_init__(self) -> None:
        self.reranker = _ranker(self)

    @property
    def name(self) -> str:
        """The preference column the ranking reads or computes."""
        return source_name(self.source)

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """Rank the responses of each query."""
        return self.rank_frame(inp, self)

    def rank_frame(self, inp: pd.DataFrame, caller: object) -> pd.DataFrame:
        """:meth:`transform`, with errors and warnings naming ``caller`` (e.g. :class:`BestOfN`)."""
        return self.reranker.rank_frame(inp, caller)

    __repr__ = declared_repr
