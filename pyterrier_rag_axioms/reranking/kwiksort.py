"""KwikSort: quicksort on pairwise preferences, asking only the pairs it needs."""

from __future__ import annotations

import zlib

import numpy as np
import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.declaration import PRESENTATION, REQUIRED, declared_repr, parameter, parameters
from pyterrier_rag_axioms.reranking._candidates import (
    PIVOTS,
    Candidates,
    Pivot,
    Source,
    _empty_input_result,
    check_source,
    source_name,
)
from pyterrier_rag_axioms.runtime.by_topic import ByTopic


def pivot_parameter() -> Pivot:
    """KwikSort's pivot rule, declared alike by the rerankers that pass it on (see :class:`KwikSort`)."""
    return parameter("random", choices=PIVOTS)


def seed_parameter() -> int:
    """The seed of KwikSort's random pivots, declared alike by the rerankers that pass it on."""
    return parameter(0, whole=True, at_least=0)


def _qid_seed(seed: int, qid: str) -> np.random.Generator:
    """A random generator per query, so that other queries in the frame never change a ranking."""
    return np.random.default_rng([seed, zlib.crc32(qid.encode("utf-8"))])


@parameters
class KwikSort(ByTopic, pt.Transformer):
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

    #: A preference column name, an :class:`Axiom`, or a :class:`Combinator`.
    source: Source = parameter(REQUIRED, positional=True, check=check_source)
    #: How the pivot of each part is chosen: the ``"first"``, ``"middle"`` or ``"last"`` response in
    #: original order, or ``"random"`` (seeded by ``seed`` and the qid).
    pivot: Pivot = pivot_parameter()
    #: The seed of the random pivots.
    seed: int = seed_parameter()
    #: Show the progress of the comparisons.
    verbose: bool = parameter(False, role=PRESENTATION, hidden=True)

    @property
    def name(self) -> str:
        """The preference column the ranking reads or computes."""
        return source_name(self.source)

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
        return self.rank_frame(inp, self)

    def rank_frame(self, inp: pd.DataFrame, caller: object) -> pd.DataFrame:
        """:meth:`transform`, with errors and warnings naming ``caller`` (e.g. a reranker that delegates here)."""
        if len(inp) == 0:
            return _empty_input_result(inp, caller, self.source)
        candidates = Candidates.from_frame(inp, self.source, caller)
        return candidates.result(self.rank(candidates))

    __repr__ = declared_repr
