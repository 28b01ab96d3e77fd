"""Pool axioms: what the other responses to the same query state too (the pyramid idea).

TREC's nuggets are facts that many systems state. The pyramid method of summarisation evaluation
(Nenkova & Passonneau 2004) weighs each content unit by how many reference summaries state it;
pseudo-references built from other systems' outputs (Louis & Nenkova 2013) and ranking retrieval
systems without relevance judgments (Soboroff et al. 2001; Aslam & Savell 2003) take the other
systems as the references. A pool axiom does the same with the other responses to a query.

**A pool axiom's value depends on the pool**, the other responses to the same query: unlike
every other axiom, other responses in the frame change its preferences. The default pool is the
query's responses in the input (for a preference frame, the distinct responses in it); ``pool=``
fixes it (a response frame, e.g. all submitted runs), so that a subset is judged as within the
whole. A response never supports itself: the pool member with its qid and docno is left out (where
its docno is not in a fixed pool, nothing is). ``group=`` names a column (e.g. a team's variant
runs) whose responses count once per unit, so that ten variants of one system cannot outvote the
rest. With no other response (group) in the pool, the value is NaN: no preference.

Values are computed per query with one sparse or dense matrix product, in an order fixed by the
pool's docnos and groups, so row order never changes a value; they depend on the pool and are
therefore never stored in the persistent cache (the texts' analyses and embeddings are).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pandas as pd

from pyterrier_rag_axioms.axioms._analyzed import EmbeddingFeatureAxiom
from pyterrier_rag_axioms.axioms._base import parameter, parameters
from pyterrier_rag_axioms.frames import ResponseTable, response_frame, source_column

#: Bytes of sentence similarities (float32) held at once by the sentence axioms.
BLOCK_BYTES = 64 * 2**20
#: Content units of :class:`PyramidPoolAxiom`: names to the analysis field that gives them.
UNITS: dict[str, str] = {"terms": "terms", "noun_chunks": "noun_chunks", "entities": "entities"}


class PoolLabel:
    """How a pool axiom's ``repr`` shows a fixed pool (the default pool shows as ``pool=None``, always)."""

    def __init__(self, pool: pd.DataFrame):
        self.pool = pool

    def __repr__(self) -> str:
        return f"<pool axiom: fixed pool of {len(self.pool)} responses, {self.pool['qid'].nunique()} qids>"


def _shown_pool(pool: pd.DataFrame | None) -> PoolLabel | None:
    return None if pool is None else PoolLabel(pool)


def _checked_pool(axiom: PoolAxiom, pool: pd.DataFrame | None) -> pd.DataFrame | None:
    if pool is None:
        return None
    if not isinstance(pool, pd.DataFrame):
        raise TypeError(f"{axiom.short_name}: pool must be a response frame (or None), not {type(pool).__name__}")
    return response_frame(pool, f"{axiom.short_name} pool")



@dataclass
class Pool:
    """The pool of one query: its members' texts and group codes, and each judged response's own member."""

    texts: list[str]
    groups: np.ndarray  # one code per member, 0 .. number of groups - 1, numbered in sorted order of the labels
    selves: np.ndarray  # per judged response: the position of its own member, or -1

    def others(self) -> np.ndarray:
        """Per judged response: the number of groups of the pool other than itself (its group
        counts where it has other members)."""
        sizes = np.bincount(self.groups, minlength=self.group_count)
        own = np.where(self.selves >= 0, self.groups[np.maximum(self.selves, 0)], -1)
        alone = (self.selves >= 0) & (sizes[np.maximum(own, 0)] == 1)
        return self.group_count - alone.astype(int)

    @property
    def group_count(self) -> int:
        return int(self.groups.max()) + 1 if len(self.groups) else 0


@parameters
class PoolAxiom(EmbeddingFeatureAxiom):
    """Base of the pool axioms: the pool of each query, self-support left out, groups counted once."""

    #: The pool: a response frame of the responses that support each other (default ``None``: each
    #: query's responses in the input). Values for a subset of a fixed pool equal those of the whole.
    pool: pd.DataFrame | None = parameter(None, resolve=_checked_pool, shown=_shown_pool, always_shown=True)
    #: The name of a column whose responses count once per unit (default ``None``: each response
    #: counts alone); read from ``pool`` where given, else from the input (``<group>_a``/``_b`` of
    #: a preference frame). A missing value counts alone.
    group: str | None = parameter(None)

    #: Pool axioms say so (their ``repr`` always shows ``pool``) and are listed apart in the registry.
    is_pool_axiom: ClassVar[bool] = True
    registry_group: ClassVar[str] = "pool"

    def response_values(self, table: ResponseTable) -> np.ndarray:
        values = np.full(len(table), np.nan)
        responses = table.responses
        groups = self._groups(table)
        fixed = None if self.pool is None else self.pool.groupby("qid", sort=False).indices
        for qid, rows in responses.groupby("qid", sort=False).indices.items():
            pool = self._pool_of(str(qid), responses.iloc[rows], None if groups is None else groups[rows], fixed)
            values[rows] = self.pool_values(pool, [responses["response"].iat[row] for row in rows])
        return values

    def pool_values(self, pool: Pool, texts: Sequence[str]) -> np.ndarray:
        """The values of the responses ``texts`` (one per entry of ``pool.selves``) within ``pool``."""
        raise NotImplementedError

    def _groups(self, table: ResponseTable) -> np.ndarray | None:
        if self.group is None or self.pool is not None:
            return None
        column = source_column(table, self.group)
        if column is None:
            raise ValueError(
                f"{self.name}: the group column {self.group!r} is not in the input "
                f"(a response frame needs {self.group!r}, a preference frame {self.group + '_a'!r} and "
                f"{self.group + '_b'!r}); pass group=None to count every response alone"
            )
        return column.to_numpy(dtype=object)

    def _pool_of(
        self, qid: str, judged: pd.DataFrame, judged_groups: np.ndarray | None, fixed: dict | None
    ) -> Pool:
        """The pool of one query, its members in order of docno (``fixed``: the fixed pool's rows by qid)."""
        if fixed is None:
            members, labels = judged, judged_groups
        else:
            if qid not in fixed:
                raise ValueError(
                    f"{self.name}: the fixed pool has no response for qid {qid!r}; "
                    "give a pool with every qid of the input, or pool=None to pool the input's responses"
                )
            members = self.pool.iloc[fixed[qid]]
            labels = None
            if self.group is not None:
                if self.group not in members.columns:
                    raise ValueError(f"{self.name}: the group column {self.group!r} is not in the pool")
                labels = members[self.group].to_numpy(dtype=object)
        docnos = members["docno"].astype(str).to_numpy()
        order = np.argsort(docnos, kind="stable")
        docnos = docnos[order]
        texts = [members["response"].iat[position] for position in order]
        if labels is None:
            keys = [("docno", docno) for docno in docnos]
        else:
            labels = np.asarray(labels, dtype=object)[order]
            keys = [("docno", d) if pd.isna(g) else ("group", str(g)) for d, g in zip(docnos, labels)]
        codes = {key: code for code, key in enumerate(sorted(set(keys)))}
        groups = np.array([codes[key] for key in keys], dtype=int)
        position = {docno: index for index, docno in enumerate(docnos)}
        selves = np.array([position.get(str(docno), -1) for docno in judged["docno"]], dtype=int)
        return Pool(texts=texts, groups=groups, selves=selves)


@parameters
class PyramidPoolAxiom(PoolAxiom):
    """Base of POOL1 and POOL2: content units weighted by how many other responses state them."""

    #: The content units: ``"terms"`` (lemmas of the content words, default), ``"noun_chunks"``
    #: or ``"entities"``.
    units: str = parameter("terms", choices=tuple(UNITS))

    def unit_sets(self, texts: Sequence[str]) -> list[frozenset[str]]:
        field = UNITS[self.units]
        return [frozenset(getattr(analysis, field)) for analysis in self.text_analyzer.analyse(texts)]

    def supports(self, pool: Pool, texts: Sequence[str]) -> tuple[list[np.ndarray], list[np.ndarray], np.ndarray]:
        """Per judged response: the support of each of its units (the number of other groups that
        state it), the support of every unit of the pool as seen from it, and its number of other groups."""
        from scipy import sparse

        member_units = self.unit_sets(pool.texts)
        vocabulary = {unit: index for index, unit in enumerate(sorted(set().union(*member_units)))}
        rows = np.repeat(np.arange(len(member_units)), [len(units) for units in member_units])
        columns = np.array([vocabulary[unit] for units in member_units for unit in units], dtype=int)
        members = sparse.csr_matrix((np.ones(len(rows)), (rows, columns)), shape=(len(pool.texts), len(vocabulary)))
        size = len(pool.groups)
        membership = sparse.csr_matrix(
            (np.ones(size), (pool.groups, np.arange(size))), shape=(pool.group_count, size)
        )
        by_group = (membership @ members).tocsr()  # groups x units: how many members of each group state each unit
        stated = np.asarray((by_group > 0).sum(axis=0)).ravel().astype(float)  # groups stating each unit
        own_units = self.unit_sets(texts)
        per_unit, every_unit = [], []
        for self_position, units in zip(pool.selves, own_units):
            indices = np.array(sorted(vocabulary[unit] for unit in units if unit in vocabulary), dtype=int)
            weights = stated.copy()
            if self_position >= 0:  # the own member never counts; its group counts if another member states the unit
                group_row = by_group.getrow(pool.groups[self_position])
                own = members.getrow(self_position).toarray().ravel()
                touched = group_row.indices
                weights[touched] -= (group_row.data > 0) & (group_row.data - own[touched] <= 0)
            per_unit.append(np.concatenate([weights[indices], np.zeros(len(units) - len(indices))]))
            every_unit.append(weights)
        return per_unit, every_unit, pool.others()


class PyramidSumPoolAxiom(PyramidPoolAxiom):
    """POOL1 (pool axiom): prefer responses that state more of what other responses state.

    Intuition: the facts that matter (TREC's nuggets) are those that many systems state; a content
    unit stated by more of the other responses is a heavier nugget, as in the pyramid method. The
    value sums, over the response's distinct content units (lemmas of content words by default),
    the share of the other responses (groups) that state the unit too: a recall-like pyramid sum;
    higher is better. Its value depends on the pool, the other responses to the query (see the
    module). NaN where the pool holds no other response.
    """

    short_name = "POOL1"
    default_margin_fraction = 0.0

    def pool_values(self, pool: Pool, texts: Sequence[str]) -> np.ndarray:
        per_unit, _, others = self.supports(pool, texts)
        with np.errstate(invalid="ignore", divide="ignore"):
            sums = np.array([support.sum() for support in per_unit], dtype=float)
            return np.where(others > 0, sums / np.maximum(others, 1), np.nan)


class PyramidScorePoolAxiom(PyramidPoolAxiom):
    """POOL2 (pool axiom): prefer responses whose content units are the most widely stated ones.

    Intuition: the pyramid score of summarisation evaluation: of all ways to say as many units as
    the response does, how close does it come to the best one, the units most other responses
    state? The value is the pyramid sum (POOL1 before dividing) divided by the largest sum that as
    many units of the pool reach; higher is better. Precision-like: it does not grow with length.
    Its value depends on the pool (see the module). NaN without units, or where no other response
    in the pool states any unit.
    """

    short_name = "POOL2"
    default_margin_fraction = 0.0

    def pool_values(self, pool: Pool, texts: Sequence[str]) -> np.ndarray:
        per_unit, every_unit, others = self.supports(pool, texts)
        values = np.full(len(per_unit), np.nan)
        for index, (support, weights) in enumerate(zip(per_unit, every_unit)):
            count = len(support)
            if count == 0 or others[index] == 0:
                continue
            best = weights.sum() if count >= len(weights) else -np.partition(-weights, count - 1)[:count].sum()
            if best > 0:
                values[index] = support.sum() / best
        return values


@parameters
class SentencePoolAxiom(PoolAxiom):
    """Base of POOL3 and POOL4: sentences supported by other responses' sentences (cosine >= threshold)."""

    #: The cosine similarity (all-MiniLM-L6-v2 by default) from which another response's sentence
    #: states the same as a sentence of the response.
    threshold: float = parameter(0.6)

    def support_counts(self, pool: Pool, texts: Sequence[str]) -> tuple[list[np.ndarray], np.ndarray]:
        """Per judged response: for each of its sentences, the number of other groups with a sentence
        of cosine similarity >= ``threshold``; and its number of other groups."""
        analyses = self.text_analyzer.analyse([*pool.texts, *texts], verbose=self.verbose)
        member_sentences = [analysis.sentence_texts for analysis in analyses[: len(pool.texts)]]
        own_sentences = [analysis.sentence_texts for analysis in analyses[len(pool.texts) :]]
        self.embed_distinct([*member_sentences, *own_sentences])
        owners = np.repeat(np.arange(len(member_sentences)), [len(s) for s in member_sentences])
        order = np.argsort(pool.groups[owners], kind="stable")  # the pool's sentences by group
        owners = owners[order]
        pool_vectors = self.encoder.embed([s for sentences in member_sentences for s in sentences])[order]
        starts = np.flatnonzero(np.r_[True, np.diff(pool.groups[owners]) != 0])
        selves = np.repeat(pool.selves, [len(sentences) for sentences in own_sentences])
        vectors = self.encoder.embed([s for sentences in own_sentences for s in sentences])
        found = np.zeros(len(selves), dtype=int)
        block = max(1, BLOCK_BYTES // (4 * max(len(owners), 1)))
        for first in range(0, len(selves) if len(owners) else 0, block):
            rows = slice(first, first + block)
            supported = self._supported(vectors[rows], pool_vectors)
            supported &= owners[None, :] != selves[rows, None]  # never its own sentences
            found[rows] = np.maximum.reduceat(supported.view(np.uint8), starts, axis=1).sum(axis=1)
        bounds = np.cumsum([0, *(len(sentences) for sentences in own_sentences)])
        return [found[start:end] for start, end in zip(bounds[:-1], bounds[1:])], pool.others()

    def _supported(self, vectors: np.ndarray, pool_vectors: np.ndarray) -> np.ndarray:
        """Whether each pair of sentences reaches the threshold: one float32 product, and the pairs
        within 1e-4 of the threshold again in float64, so that the blocks' shapes never flip one."""
        similarity = vectors @ pool_vectors.T
        supported = similarity >= self.threshold
        rows, columns = np.nonzero(np.abs(similarity - self.threshold) < 1e-4)
        if len(rows):
            exact = np.einsum(
                "ij,ij->i", vectors[rows].astype(np.float64), pool_vectors[columns].astype(np.float64)
            )
            supported[rows, columns] = exact >= self.threshold
        return supported


class SentenceSupportPoolAxiom(SentencePoolAxiom):
    """POOL3 (pool axiom): prefer responses whose sentences other responses state too.

    Intuition: sentence-level pseudo-nuggets, AutoNuggetizer's idea without a language model: a
    sentence that many other responses state in other words (cosine similarity of their sentence
    embeddings >= ``threshold``) is a nugget of that weight. The value sums, over the response's
    sentences, the share of the other responses (groups) that state it; higher is better. Its
    value depends on the pool (see the module). NaN without sentences or other responses.
    """

    short_name = "POOL3"
    default_margin_fraction = 0.0

    def pool_values(self, pool: Pool, texts: Sequence[str]) -> np.ndarray:
        counts, others = self.support_counts(pool, texts)
        values = np.full(len(counts), np.nan)
        for index, found in enumerate(counts):
            if len(found) and others[index] > 0:
                values[index] = found.sum() / others[index]
        return values


class UnsupportedSentencePoolAxiom(SentencePoolAxiom):
    """POOL4 (pool axiom): prefer responses with a lower share of sentences that no other response supports.

    Intuition: the precision side of the pool. A sentence that no other response states in any
    words (no sentence of cosine similarity >= ``threshold``) may be made up, or off the point
    that the other systems agree on. The value is the share of such sentences; lower is better.
    Its value depends on the pool (see the module). NaN without sentences or other responses.
    """

    short_name = "POOL4"
    default_margin_fraction = 0.0
    prefer_higher = False

    def pool_values(self, pool: Pool, texts: Sequence[str]) -> np.ndarray:
        counts, others = self.support_counts(pool, texts)
        values = np.full(len(counts), np.nan)
        for index, found in enumerate(counts):
            if len(found) and others[index] > 0:
                values[index] = float(np.mean(found == 0))
        return values


POOL1 = PyramidSumPoolAxiom
POOL2 = PyramidScorePoolAxiom
POOL3 = SentenceSupportPoolAxiom
POOL4 = UnsupportedSentencePoolAxiom
