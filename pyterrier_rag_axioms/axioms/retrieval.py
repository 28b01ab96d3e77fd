"""Retrieval axioms adapted to generated responses (GEN_*).

The request text plays the query and each response plays a document; the retrieved context is
not read. Terms are lower-cased spaCy lemmas (or Porter stems) without stop words, punctuation
and citation markers (see :mod:`pyterrier_rag_axioms.tools.terms`); the length of a response is
its number of terms; positions are indices into its term sequence.

Rules all GEN_* axioms keep:

- A response without terms (empty text, or only stop words and punctuation) gives no preference,
  and neither does a request without terms for the axioms that read the request.
- Axioms marked with the length precondition compare only responses whose lengths lie within
  10 % of each other (``|len_a - len_b| <= 0.1 * max(len_a, len_b)``); other pairs get 0.
- ``margin_fraction`` works as in :func:`~pyterrier_rag_axioms.base.compare_with_margin`:
  ``x_a`` and ``x_b`` tie when ``|x_a - x_b| <= margin_fraction * max(|x_a|, |x_b|)``. Each axiom
  says which values it compares with it.
"""

from __future__ import annotations

import itertools
from abc import abstractmethod
from typing import ClassVar

import numpy as np
import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.base import Axiom, FeatureAxiom, compare_with_margin
from pyterrier_rag_axioms.frames import ResponseTable
from pyterrier_rag_axioms.tools.arguments import ArgumentTagger, ArgumentUnit, resolve_argument_tagger
from pyterrier_rag_axioms.tools.similarity import SentenceSimilarity
from pyterrier_rag_axioms.tools.term_similarity import TermSimilarity, resolve_term_similarity
from pyterrier_rag_axioms.tools.terms import Stemmer, TermExtractor, TermProfile, resolve_term_extractor
from pyterrier_rag_axioms.tools.text import TextAnalyzer

#: Lengths (in terms) within this fraction of each other satisfy the length precondition.
LENGTH_MARGIN_FRACTION = 0.1

Profiles = list[TermProfile]


def similar_lengths(lengths_a: np.ndarray, lengths_b: np.ndarray) -> np.ndarray:
    """The length precondition: ``|len_a - len_b| <= 0.1 * max(len_a, len_b)``, per pair."""
    lengths_a = np.asarray(lengths_a, dtype=float)
    lengths_b = np.asarray(lengths_b, dtype=float)
    return np.abs(lengths_a - lengths_b) <= LENGTH_MARGIN_FRACTION * np.maximum(lengths_a, lengths_b)


def compare(
    values_a: np.ndarray, values_b: np.ndarray, *, margin_fraction: float, prefer_higher: bool = True
) -> np.ndarray:
    """:func:`compare_with_margin`, where an infinite value is beyond any finite one (equal infinities tie)."""
    values_a = np.asarray(values_a, dtype=float)
    values_b = np.asarray(values_b, dtype=float)
    finite = np.isfinite(values_a) & np.isfinite(values_b)
    preferences = compare_with_margin(
        np.where(finite, values_a, np.nan),
        np.where(finite, values_b, np.nan),
        margin_fraction=margin_fraction,
        prefer_higher=prefer_higher,
    )
    with np.errstate(invalid="ignore"):
        infinite = ~np.isnan(values_a) & ~np.isnan(values_b) & (np.isinf(values_a) | np.isinf(values_b))
        signs = np.nan_to_num(np.sign(values_a - values_b))
    preferences[infinite] = signs[infinite] if prefer_higher else -signs[infinite]
    return preferences + 0.0


def _same(codes: np.ndarray, table: ResponseTable) -> np.ndarray:
    return codes[table.a] == codes[table.b]


class GenerativeRetrievalAxiom(Axiom):
    """Base of the GEN_* axioms: a retrieval axiom with the request as query and responses as documents."""

    #: Whether the axiom reads the request's terms.
    uses_query: ClassVar[bool] = True
    #: Whether only responses of similar length (within 10 %) are compared.
    length_precondition: ClassVar[bool] = False

    def __init__(
        self,
        *,
        margin_fraction: float | None = None,
        term_extractor: TermExtractor | None = None,
        text_analyzer: TextAnalyzer | str | None = None,
        stemmer: Stemmer = "lemma",
        name: str | None = None,
        verbose: bool = False,
    ):
        """
        Args:
            margin_fraction: relative difference within which two values tie (default: the
                axiom's documented margin).
            term_extractor: a :class:`TermExtractor` (e.g. with other stop words); excludes
                ``text_analyzer`` and ``stemmer``.
            text_analyzer: a :class:`TextAnalyzer` or spaCy model name (default: shared analyzer).
            stemmer: ``"lemma"`` (default) or ``"porter"``.
            name: name of the preference column (default: the axiom's short name).
            verbose: show progress of long work.
        """
        super().__init__(margin_fraction=margin_fraction, name=name, verbose=verbose)
        self.term_extractor = resolve_term_extractor(
            term_extractor, text_analyzer=text_analyzer, stemmer=stemmer, owner=type(self).__name__
        )

    def _parameters(self) -> dict[str, object]:
        return {"stemmer": self.term_extractor.stemmer} if self.term_extractor.stemmer != "lemma" else {}

    def profiles(self, table: ResponseTable) -> tuple[Profiles, Profiles]:
        """The term profiles of each response's request and of each response (texts parsed in one batch)."""
        queries = table.queries
        profiles = self.term_extractor.profiles([*queries, *table.texts], verbose=self.verbose)
        return profiles[: len(queries)], profiles[len(queries) :]

    def judgeable(self, table: ResponseTable, queries: Profiles, responses: Profiles) -> np.ndarray:
        """Whether each response can be judged: it has terms (and so does its request, if read)."""
        judgeable = np.array([len(profile) > 0 for profile in responses], dtype=bool)
        if self.uses_query:
            judgeable &= np.array([len(profile) > 0 for profile in queries], dtype=bool)
        return judgeable

    def comparable(self, table: ResponseTable) -> np.ndarray:
        """Whether each pair may get a preference: both judgeable, same request, and the length precondition."""
        queries, responses = self.profiles(table)
        judgeable = self.judgeable(table, queries, responses)
        comparable = judgeable[table.a] & judgeable[table.b]
        if self.uses_query:
            comparable &= _same(pd.factorize(table.responses["query"])[0], table)
        if self.length_precondition:
            lengths = np.array([len(profile) for profile in responses], dtype=float)
            comparable &= similar_lengths(lengths[table.a], lengths[table.b])
        return comparable

    def preferences(self, table: ResponseTable) -> np.ndarray:
        comparable = self.comparable(table)
        if not comparable.any():
            return np.zeros(len(table.a), dtype=float)
        preferences = np.asarray(self.pair_preferences(table), dtype=float)
        return np.where(comparable, preferences, 0.0) + 0.0

    @abstractmethod
    def pair_preferences(self, table: ResponseTable) -> np.ndarray:
        """The preference of each pair, before the checks of :meth:`comparable`."""


class GenerativeRetrievalFeatureAxiom(GenerativeRetrievalAxiom, FeatureAxiom):
    """A GEN_* axiom that compares one value per response (NaN for a response that cannot be judged)."""

    @abstractmethod
    def profile_values(self, table: ResponseTable, queries: Profiles, responses: Profiles) -> np.ndarray:
        """One float per response, from its request's and its own term profiles."""

    def response_values(self, table: ResponseTable) -> np.ndarray:
        queries, responses = self.profiles(table)
        values = np.asarray(self.profile_values(table, queries, responses), dtype=float)
        return np.where(self.judgeable(table, queries, responses), values, np.nan)

    def pair_preferences(self, table: ResponseTable) -> np.ndarray:
        values = self.response_values(table)
        return compare(
            values[table.a], values[table.b], margin_fraction=self.margin_fraction, prefer_higher=self.prefer_higher
        )


def _query_term_frequencies(queries: Profiles, responses: Profiles) -> tuple[np.ndarray, np.ndarray]:
    """Per response, the frequency of each distinct term of its request (padded with 0), and the padding mask."""
    width = max((len(query.distinct) for query in queries), default=0)
    frequencies = np.zeros((len(responses), width), dtype=float)
    is_term = np.zeros((len(responses), width), dtype=bool)
    for row, (query, response) in enumerate(zip(queries, responses)):
        frequencies[row, : len(query.distinct)] = [response.counts.get(term, 0) for term in query.distinct]
        is_term[row, : len(query.distinct)] = True
    return frequencies, is_term


# ---------------------------------------------------------------------------------------------
# Term frequency and length normalisation: TFC1, LNC1, TF-LNC
# ---------------------------------------------------------------------------------------------


class GenerativeTfc1Axiom(GenerativeRetrievalFeatureAxiom):
    """GEN_TFC1 (TFC1, Fang et al. 2004): prefer the response with more occurrences of query terms.

    Intuition: of two documents of the same length, the one that mentions the query terms more
    often is more relevant. The value is the sum of the response's frequencies of the request's
    distinct terms; higher is better (margin 0.1). Length precondition: lengths within 10 %.
    """

    short_name = "GEN_TFC1"
    default_margin_fraction = 0.1
    length_precondition = True

    def profile_values(self, table: ResponseTable, queries: Profiles, responses: Profiles) -> np.ndarray:
        return np.array(
            [
                sum(response.counts.get(term, 0) for term in query.distinct)
                for query, response in zip(queries, responses)
            ],
            dtype=float,
        )


class GenerativeLnc1Axiom(GenerativeRetrievalAxiom):
    """GEN_LNC1 (LNC1, Fang et al. 2004): among responses with the same query-term frequencies, prefer the shorter.

    Intuition: adding terms that are not query terms to a document makes it less relevant. Where
    the frequency of every distinct request term ties within the margin (0.1) in both responses,
    the response with fewer terms is preferred (strictly); otherwise no preference.
    """

    short_name = "GEN_LNC1"
    default_margin_fraction = 0.1

    def pair_preferences(self, table: ResponseTable) -> np.ndarray:
        queries, responses = self.profiles(table)
        frequencies, _ = _query_term_frequencies(queries, responses)
        lengths = np.array([len(response) for response in responses], dtype=float)
        same_frequencies = np.all(
            compare_with_margin(frequencies[table.a], frequencies[table.b], margin_fraction=self.margin_fraction) == 0,
            axis=1,
        )
        shorter = np.sign(lengths[table.b] - lengths[table.a])
        return np.where(same_frequencies, shorter, 0.0)


class GenerativeTfLncAxiom(GenerativeRetrievalAxiom):
    """GEN_TF_LNC (TF-LNC, Fang et al. 2004): prefer the response that adds occurrences of a query term.

    Intuition: a document made longer only by more occurrences of a query term is more relevant.
    For each distinct request term w, if the two responses have the same number of terms other
    than w (tying within the margin, default 0: equal), the response with more occurrences of w
    scores a point; the response with more points is preferred.
    """

    short_name = "GEN_TF_LNC"
    default_margin_fraction = 0.0

    def pair_preferences(self, table: ResponseTable) -> np.ndarray:
        queries, responses = self.profiles(table)
        frequencies, is_term = _query_term_frequencies(queries, responses)
        lengths = np.array([len(response) for response in responses], dtype=float)
        frequencies_a, frequencies_b = frequencies[table.a], frequencies[table.b]
        others_a = lengths[table.a, None] - frequencies_a
        others_b = lengths[table.b, None] - frequencies_b
        same_others = is_term[table.a] & (
            compare_with_margin(others_a, others_b, margin_fraction=self.margin_fraction) == 0
        )
        points_a = np.sum(same_others & (frequencies_a > frequencies_b), axis=1)
        points_b = np.sum(same_others & (frequencies_b > frequencies_a), axis=1)
        return np.sign(points_a - points_b).astype(float)


# ---------------------------------------------------------------------------------------------
# Query aspects: REG, ANTI-REG, AND, LEN-AND, M-AND, DIV, LEN-DIV
# ---------------------------------------------------------------------------------------------


class _SemanticAxiom(GenerativeRetrievalAxiom):
    """A GEN_* axiom that compares terms by a :class:`TermSimilarity`."""

    def __init__(
        self,
        *,
        margin_fraction: float | None = None,
        term_similarity: TermSimilarity | SentenceSimilarity | str | None = None,
        term_extractor: TermExtractor | None = None,
        text_analyzer: TextAnalyzer | str | None = None,
        stemmer: Stemmer = "lemma",
        name: str | None = None,
        verbose: bool = False,
    ):
        """
        Args:
            margin_fraction: relative difference within which two values tie (default: the
                axiom's documented margin).
            term_similarity: a :class:`TermSimilarity`, or a :class:`SentenceSimilarity` or
                sentence-transformers model whose embeddings' cosine is used (default: the shared
                all-MiniLM-L6-v2).
            term_extractor: a :class:`TermExtractor`; excludes ``text_analyzer`` and ``stemmer``.
            text_analyzer: a :class:`TextAnalyzer` or spaCy model name (default: shared analyzer).
            stemmer: ``"lemma"`` (default) or ``"porter"``.
            name: name of the preference column (default: the axiom's short name).
            verbose: show progress of long work.
        """
        super().__init__(
            margin_fraction=margin_fraction,
            term_extractor=term_extractor,
            text_analyzer=text_analyzer,
            stemmer=stemmer,
            name=name,
            verbose=verbose,
        )
        self.term_similarity = resolve_term_similarity(term_similarity)

    def _parameters(self) -> dict[str, object]:
        if self.term_similarity is resolve_term_similarity(None):
            return super()._parameters()
        return {**super()._parameters(), "term_similarity": self.term_similarity}


class _RegularizationAxiom(_SemanticAxiom):
    """REG and ANTI-REG: compare the frequencies of the request's least (or most) redundant terms."""

    length_precondition = True
    #: Whether the terms most similar to the other request terms are compared (ANTI-REG).
    most_similar: ClassVar[bool]

    def selected_terms(self, query: TermProfile) -> np.ndarray:
        """Which distinct request terms have the lowest (REG) or highest (ANTI-REG) similarity to the others."""
        terms = query.distinct
        similarities = self.term_similarity.similarities(terms, terms)
        sums = similarities.sum(axis=1) - np.diag(similarities)
        extreme = sums.max() if self.most_similar else sums.min()
        return np.isclose(sums, extreme, rtol=0.0, atol=1e-6)

    def pair_preferences(self, table: ResponseTable) -> np.ndarray:
        queries, responses = self.profiles(table)
        frequencies, _ = _query_term_frequencies(queries, responses)
        distinct_queries = {query.terms: query for query in queries if len(query)}
        self.term_similarity.prepare(
            [term for query in distinct_queries.values() for term in query.distinct], verbose=self.verbose
        )
        selections = {terms: self.selected_terms(query) for terms, query in distinct_queries.items()}
        selected = np.zeros(frequencies.shape, dtype=bool)
        for row, query in enumerate(queries):
            if len(query):
                selected[row, : len(query.distinct)] = selections[query.terms]
        per_term = compare_with_margin(frequencies[table.a], frequencies[table.b], margin_fraction=self.margin_fraction)
        chosen = selected[table.a]
        has_chosen = chosen.any(axis=1)
        all_a = has_chosen & np.all(np.where(chosen, per_term == 1, True), axis=1)
        all_b = has_chosen & np.all(np.where(chosen, per_term == -1, True), axis=1)
        return all_a.astype(float) - all_b.astype(float)


class GenerativeRegAxiom(_RegularizationAxiom):
    """GEN_REG (REG, Zheng and Fang 2010): prefer the response with more of the request's most distinct term.

    Intuition: a query term that is least similar to the other query terms stands for an aspect
    of its own and deserves more weight. The request terms with the lowest summed similarity to
    the other request terms are selected; a response is preferred when it contains each of them
    more often (per-term comparison with the margin, default 0). Length precondition: lengths
    within 10 %.
    """

    short_name = "GEN_REG"
    default_margin_fraction = 0.0
    most_similar = False


class GenerativeAntiRegAxiom(_RegularizationAxiom):
    """GEN_ANTI_REG (ANTI-REG): prefer the response with more of the request's most redundant term.

    Intuition: the counterpart of REG, for comparison: the request terms with the *highest*
    summed similarity to the other request terms are selected; a response is preferred when it
    contains each of them more often (margin default 0). Length precondition: lengths within 10 %.
    """

    short_name = "GEN_ANTI_REG"
    default_margin_fraction = 0.0
    most_similar = True


class GenerativeAndAxiom(GenerativeRetrievalFeatureAxiom):
    """GEN_AND (AND): prefer the response that contains all request terms.

    Intuition: a document that contains every query term is more relevant than one that misses
    some. The value is 1 if the response contains every distinct request term, else 0; higher is
    better.
    """

    short_name = "GEN_AND"
    default_margin_fraction = 0.0

    def profile_values(self, table: ResponseTable, queries: Profiles, responses: Profiles) -> np.ndarray:
        return np.array(
            [float(query.vocabulary <= response.vocabulary) for query, response in zip(queries, responses)],
            dtype=float,
        )


class GenerativeLenAndAxiom(GenerativeAndAxiom):
    """GEN_LEN_AND (LEN-AND): GEN_AND for responses of similar length (within 10 %).

    Intuition: as AND, but only between responses of about the same length, so that a longer
    response does not win merely by having more room for the query terms.
    """

    short_name = "GEN_LEN_AND"
    length_precondition = True


class GenerativeModifiedAndAxiom(GenerativeRetrievalFeatureAxiom):
    """GEN_M_AND (M-AND): prefer the response that contains more of the distinct request terms.

    Intuition: a document that contains a larger subset of the query terms is more relevant. The
    value is the number of distinct request terms in the response; higher is better.
    """

    short_name = "GEN_M_AND"
    default_margin_fraction = 0.0

    def profile_values(self, table: ResponseTable, queries: Profiles, responses: Profiles) -> np.ndarray:
        return np.array(
            [len(query.vocabulary & response.vocabulary) for query, response in zip(queries, responses)], dtype=float
        )


class GenerativeDivAxiom(GenerativeRetrievalFeatureAxiom):
    """GEN_DIV (DIV): prefer the response whose vocabulary overlaps less with the request's.

    Intuition: a document that adds terms beyond the query's is more diverse and tells more. The
    value is the Jaccard coefficient of the distinct terms of request and response; lower is
    better.
    """

    short_name = "GEN_DIV"
    default_margin_fraction = 0.0
    prefer_higher = False

    def profile_values(self, table: ResponseTable, queries: Profiles, responses: Profiles) -> np.ndarray:
        values = []
        for query, response in zip(queries, responses):
            union = len(query.vocabulary | response.vocabulary)
            values.append(len(query.vocabulary & response.vocabulary) / union if union else np.nan)
        return np.array(values, dtype=float)


class GenerativeLenDivAxiom(GenerativeDivAxiom):
    """GEN_LEN_DIV (LEN-DIV): GEN_DIV for responses of similar length (within 10 %).

    Intuition: as DIV, but only between responses of about the same length, so that a longer
    response does not win merely by having more room for other terms.
    """

    short_name = "GEN_LEN_DIV"
    length_precondition = True


# ---------------------------------------------------------------------------------------------
# Semantic term matching: STMC1, STMC2
# ---------------------------------------------------------------------------------------------


class GenerativeStmc1Axiom(_SemanticAxiom, GenerativeRetrievalFeatureAxiom):
    """GEN_STMC1 (STMC1, Fang and Zhai 2006): prefer the response whose terms are more similar to the request's.

    Intuition: a document whose terms are semantically closer to the query terms is more
    relevant. The value is the mean similarity over all pairs of a distinct response term and a
    distinct request term (cosine of embeddings by default); higher is better.
    """

    short_name = "GEN_STMC1"
    default_margin_fraction = 0.0

    def profile_values(self, table: ResponseTable, queries: Profiles, responses: Profiles) -> np.ndarray:
        self.term_similarity.prepare(
            [term for profile in [*queries, *responses] for term in profile.distinct], verbose=self.verbose
        )
        return np.array(
            [
                self.term_similarity.average_similarity(response.distinct, query.distinct)
                for query, response in zip(queries, responses)
            ],
            dtype=float,
        )


class GenerativeStmc2Axiom(_SemanticAxiom):
    """GEN_STMC2 (STMC2, Fang and Zhai 2006): prefer matching a query term itself over matching a similar term.

    Intuition: a document that contains the query term is at least as relevant as one that
    contains a similar, non-query term equally often relative to its length. Take the pairs of a
    request term ``q`` and a non-request term ``t`` of either response with the highest similarity.
    Response a is preferred when, for all these pairs, ``q``'s share of a's terms and ``t``'s share
    of b's terms are positive and tie within the margin (default 0.2); b is preferred in the
    mirrored case; both or neither give no preference.
    """

    short_name = "GEN_STMC2"
    default_margin_fraction = 0.2

    def _most_similar_pairs(self, query: TermProfile, response: TermProfile) -> tuple[float, list[tuple[str, str]]]:
        query_terms = query.distinct
        others = [term for term in response.distinct if term not in query.vocabulary]
        if not query_terms or not others:
            return -np.inf, []
        similarities = self.term_similarity.similarities(query_terms, others)
        best = float(similarities.max())
        rows, columns = np.nonzero(similarities >= best - 1e-6)
        return best, [(query_terms[row], others[column]) for row, column in zip(rows, columns)]

    def _prefers_exact(
        self, pairs: list[tuple[str, str]], exact: TermProfile, similar: TermProfile
    ) -> bool:
        """Whether each pair's query term is as frequent in ``exact`` as its similar term in ``similar``."""
        for query_term, other_term in pairs:
            share_exact = exact.counts.get(query_term, 0) / len(exact)
            share_similar = similar.counts.get(other_term, 0) / len(similar)
            if not (share_exact > 0 and share_similar > 0):
                return False
            if abs(share_exact - share_similar) > self.margin_fraction * max(share_exact, share_similar):
                return False
        return True

    def pair_preferences(self, table: ResponseTable) -> np.ndarray:
        queries, responses = self.profiles(table)
        self.term_similarity.prepare(
            [term for profile in [*queries, *responses] for term in profile.distinct], verbose=self.verbose
        )
        rows = sorted(set(table.a.tolist()) | set(table.b.tolist()))
        best = {
            row: self._most_similar_pairs(queries[row], responses[row]) if len(queries[row]) and len(responses[row])
            else (-np.inf, [])
            for row in rows
        }
        preferences = np.zeros(len(table.a), dtype=float)
        pairs = zip(table.a.tolist(), table.b.tolist())
        iterator = pt.tqdm(pairs, total=len(table.a), desc=self.name, unit="pair") if self.verbose else pairs
        for position, (a, b) in enumerate(iterator):
            (best_a, pairs_a), (best_b, pairs_b) = best[a], best[b]
            top = max(best_a, best_b)
            if not (np.isfinite(top) and len(responses[a]) and len(responses[b])):
                continue
            most_similar = sorted(
                {*(pairs_a if best_a >= top - 1e-6 else []), *(pairs_b if best_b >= top - 1e-6 else [])}
            )
            prefers_a = self._prefers_exact(most_similar, responses[a], responses[b])
            prefers_b = self._prefers_exact(most_similar, responses[b], responses[a])
            preferences[position] = float(prefers_a) - float(prefers_b)
        return preferences


# ---------------------------------------------------------------------------------------------
# Term proximity: PROX1 - PROX5
# ---------------------------------------------------------------------------------------------


def _nearest(positions: np.ndarray, target: int) -> int:
    """The position in ascending ``positions`` nearest to ``target`` (the earlier one on a tie)."""
    index = int(np.searchsorted(positions, target))
    if index == 0:
        return int(positions[0])
    if index == len(positions):
        return int(positions[-1])
    before, after = int(positions[index - 1]), int(positions[index])
    return after if after - target < target - before else before


def _closest_groupings(query_terms: tuple[str, ...], response: TermProfile) -> list[tuple[int, ...]]:
    """For each occurrence of each request term, it and the nearest occurrence of every other request term."""
    groupings = []
    for term in query_terms:
        for anchor in response.positions[term].tolist():
            groupings.append(
                tuple(
                    sorted(
                        anchor if other == term else _nearest(response.positions[other], anchor)
                        for other in query_terms
                    )
                )
            )
    return groupings


class _ProximityAxiom(GenerativeRetrievalFeatureAxiom):
    """PROX1-3: compare responses that contain the same set of at least two distinct request terms."""

    default_margin_fraction = 0.0
    prefer_higher = False

    @abstractmethod
    def proximity(self, query: TermProfile, response: TermProfile, common: tuple[str, ...]) -> float:
        """The value of a response containing the request terms ``common`` (at least two)."""

    def profile_values(self, table: ResponseTable, queries: Profiles, responses: Profiles) -> np.ndarray:
        values = []
        for query, response in zip(queries, responses):
            common = tuple(term for term in query.distinct if term in response.vocabulary)
            values.append(self.proximity(query, response, common) if len(common) >= 2 else np.nan)
        return np.array(values, dtype=float)

    def pair_preferences(self, table: ResponseTable) -> np.ndarray:
        queries, responses = self.profiles(table)
        subsets: dict[tuple[tuple[str, ...], frozenset[str]], int] = {}
        codes = np.array(
            [
                subsets.setdefault((query.terms, query.vocabulary & response.vocabulary), len(subsets))
                for query, response in zip(queries, responses)
            ],
            dtype=int,
        )
        same_subset = _same(codes, table)
        return np.where(same_subset, super().pair_preferences(table), 0.0)


class GenerativeProx1Axiom(_ProximityAxiom):
    """GEN_PROX1 (PROX1, after Tao and Zhai 2007): prefer the response where request terms stand closer together.

    Intuition: query terms near each other are more likely about the same thing. For responses
    containing the same set of at least two distinct request terms, the value is the mean, over
    pairs of these terms, of the fewest terms between an occurrence of one and an occurrence of
    the other; lower is better.
    """

    short_name = "GEN_PROX1"

    def proximity(self, query: TermProfile, response: TermProfile, common: tuple[str, ...]) -> float:
        distances = []
        for first, second in itertools.combinations(common, 2):
            gaps = np.abs(response.positions[first][:, None] - response.positions[second][None, :])
            distances.append(int(gaps.min()) - 1)
        return float(np.mean(distances))


class GenerativeProx2Axiom(_ProximityAxiom):
    """GEN_PROX2 (PROX2): prefer the response where request terms first appear earlier.

    Intuition: relevant documents mention the query terms early. For responses containing the
    same set of at least two distinct request terms, the value is the sum of the positions of
    their first occurrences; lower is better.
    """

    short_name = "GEN_PROX2"

    def proximity(self, query: TermProfile, response: TermProfile, common: tuple[str, ...]) -> float:
        return float(sum(int(response.positions[term][0]) for term in common))


class GenerativeProx3Axiom(_ProximityAxiom):
    """GEN_PROX3 (PROX3): prefer the response where the whole request appears earlier as a phrase.

    Intuition: the query terms in the query's order, uninterrupted, signal a strong match. For
    responses containing the same set of at least two distinct request terms, the value is the
    position where the request's term sequence first occurs in the response's term sequence
    (infinite if it does not); lower is better.
    """

    short_name = "GEN_PROX3"

    def proximity(self, query: TermProfile, response: TermProfile, common: tuple[str, ...]) -> float:
        phrase, terms = query.terms, response.terms
        for start in response.positions.get(phrase[0], np.array([], dtype=int)).tolist():
            if terms[start : start + len(phrase)] == phrase:
                return float(start)
        return np.inf


class _AllQueryTermsAxiom(GenerativeRetrievalAxiom):
    """PROX4-5: compare responses that both contain all (at least two) distinct request terms."""

    default_margin_fraction = 0.0

    def judgeable(self, table: ResponseTable, queries: Profiles, responses: Profiles) -> np.ndarray:
        contains_all = np.array(
            [len(query.vocabulary) >= 2 and query.vocabulary <= response.vocabulary
             for query, response in zip(queries, responses)],
            dtype=bool,
        )
        return super().judgeable(table, queries, responses) & contains_all


class GenerativeProx4Axiom(_AllQueryTermsAxiom):
    """GEN_PROX4 (PROX4): prefer the response whose closest grouping of all request terms has fewer other terms.

    Intuition: a tight window that holds every query term signals relevance. For responses that
    both contain all (at least two) distinct request terms, each occurrence of a request term is
    grouped with the nearest occurrence of every other request term; the response whose best
    grouping holds fewer non-request terms is preferred (ties within the margin, default 0), then
    the response with more distinct groupings of that size.
    """

    short_name = "GEN_PROX4"

    def groupings(self, table: ResponseTable) -> tuple[np.ndarray, np.ndarray]:
        """Per response: the fewest non-request terms in a closest grouping, and how many groupings have that few."""
        queries, responses = self.profiles(table)
        judgeable = self.judgeable(table, queries, responses)
        fewest = np.full(len(responses), np.nan)
        count = np.full(len(responses), np.nan)
        for row in np.flatnonzero(judgeable):
            query, response = queries[row], responses[row]
            is_query_term = np.array([term in query.vocabulary for term in response.terms], dtype=int)
            cumulative = np.concatenate([[0], np.cumsum(is_query_term)])
            others = {
                grouping: (grouping[-1] - grouping[0] + 1) - int(cumulative[grouping[-1] + 1] - cumulative[grouping[0]])
                for grouping in _closest_groupings(query.distinct, response)
            }
            fewest[row] = min(others.values())
            count[row] = sum(1 for value in others.values() if value == fewest[row])
        return fewest, count

    def pair_preferences(self, table: ResponseTable) -> np.ndarray:
        fewest, count = self.groupings(table)
        primary = compare(fewest[table.a], fewest[table.b], margin_fraction=self.margin_fraction, prefer_higher=False)
        secondary = compare(count[table.a], count[table.b], margin_fraction=self.margin_fraction)
        return np.where(primary != 0, primary, secondary)


class GenerativeProx5Axiom(_AllQueryTermsAxiom, GenerativeRetrievalFeatureAxiom):
    """GEN_PROX5 (PROX5): prefer the response with the smaller average span around request-term occurrences.

    Intuition: query terms that cluster tightly around each occurrence signal relevance. For
    responses that both contain all (at least two) distinct request terms, each occurrence of a
    request term is grouped with the nearest occurrence of every other request term; the value is
    the mean number of terms such a grouping spans; lower is better.
    """

    short_name = "GEN_PROX5"
    prefer_higher = False

    def profile_values(self, table: ResponseTable, queries: Profiles, responses: Profiles) -> np.ndarray:
        values = np.full(len(responses), np.nan)
        for row in np.flatnonzero(self.judgeable(table, queries, responses)):
            groupings = _closest_groupings(queries[row].distinct, responses[row])
            values[row] = float(np.mean([grouping[-1] - grouping[0] + 1 for grouping in groupings]))
        return values


# ---------------------------------------------------------------------------------------------
# Argumentative axioms: ArgUC, QTArg, QTPArg, aSL
# ---------------------------------------------------------------------------------------------


class _ArgumentAxiom(GenerativeRetrievalFeatureAxiom):
    """A GEN_* axiom over the argument units of responses, from an :class:`ArgumentTagger`."""

    length_precondition = True

    def __init__(
        self,
        *,
        margin_fraction: float | None = None,
        argument_tagger: ArgumentTagger | str | None = None,
        term_extractor: TermExtractor | None = None,
        text_analyzer: TextAnalyzer | str | None = None,
        stemmer: Stemmer = "lemma",
        name: str | None = None,
        verbose: bool = False,
    ):
        """
        Args:
            margin_fraction: relative difference within which two values tie (default 0).
            argument_tagger: an :class:`ArgumentTagger`, or the URL of a TARGER API for a
                :class:`TargerTagger` (default: the offline :class:`DiscourseMarkerTagger`).
            term_extractor: a :class:`TermExtractor`; excludes ``text_analyzer`` and ``stemmer``.
            text_analyzer: a :class:`TextAnalyzer` or spaCy model name (default: shared analyzer).
            stemmer: ``"lemma"`` (default) or ``"porter"``.
            name: name of the preference column (default: the axiom's short name).
            verbose: show progress of long work.
        """
        super().__init__(
            margin_fraction=margin_fraction,
            term_extractor=term_extractor,
            text_analyzer=text_analyzer,
            stemmer=stemmer,
            name=name,
            verbose=verbose,
        )
        self.argument_tagger = resolve_argument_tagger(argument_tagger)

    def _parameters(self) -> dict[str, object]:
        return {**super()._parameters(), "argument_tagger": self.argument_tagger}

    def argument_units(self, table: ResponseTable) -> list[tuple[ArgumentUnit, ...]]:
        """The argument units of each response."""
        analyses = self.term_extractor.text_analyzer.analyse(table.texts, verbose=self.verbose)
        return self.argument_tagger.units(analyses, verbose=self.verbose)


def _in_units(response: TermProfile, units: tuple[ArgumentUnit, ...]) -> list[bool]:
    """Whether each term of the response lies inside an argument unit."""
    return [any(unit.covers(offset) for unit in units) for offset in response.offsets]


class GenerativeArgumentativeUnitsCountAxiom(_ArgumentAxiom):
    """GEN_ArgUC (ArgUC, Bondarenko et al. 2018): prefer the response with more argument units.

    Intuition: a response that argues (claims backed by premises) is more useful for a request
    that asks for reasons. The value is the number of claims and premises the argument tagger
    finds; higher is better. Length precondition: lengths within 10 %.
    """

    short_name = "GEN_ArgUC"
    default_margin_fraction = 0.0
    uses_query = False

    def profile_values(self, table: ResponseTable, queries: Profiles, responses: Profiles) -> np.ndarray:
        return np.array([len(units) for units in self.argument_units(table)], dtype=float)


class GenerativeQueryTermOccurrenceInArgumentativeUnitsAxiom(_ArgumentAxiom):
    """GEN_QTArg (QTArg, Bondarenko et al. 2018): prefer the response with more request terms inside argument units.

    Intuition: query terms that occur in claims and premises show that the argumentation is on
    topic. The value is the number of occurrences of distinct request terms inside argument
    units; higher is better. Length precondition: lengths within 10 %.
    """

    short_name = "GEN_QTArg"
    default_margin_fraction = 0.0

    def profile_values(self, table: ResponseTable, queries: Profiles, responses: Profiles) -> np.ndarray:
        values = []
        for query, response, units in zip(queries, responses, self.argument_units(table)):
            inside = _in_units(response, units)
            values.append(sum(1 for term, flag in zip(response.terms, inside) if flag and term in query.vocabulary))
        return np.array(values, dtype=float)


class GenerativeQueryTermPositionInArgumentativeUnitsAxiom(_ArgumentAxiom):
    """GEN_QTPArg (QTPArg, Bondarenko et al. 2018): prefer request terms early in argument units.

    Intuition: query terms occur early in relevant documents. For each distinct request term, take
    the position (1-based, in terms) of its first occurrence inside an argument unit, or the
    response's length plus one where it has none; the value is the mean of these positions;
    lower is better. Length precondition: lengths within 10 %.
    """

    short_name = "GEN_QTPArg"
    default_margin_fraction = 0.0
    prefer_higher = False

    def profile_values(self, table: ResponseTable, queries: Profiles, responses: Profiles) -> np.ndarray:
        values = []
        for query, response, units in zip(queries, responses, self.argument_units(table)):
            first: dict[str, int] = {}
            for position, (term, inside) in enumerate(zip(response.terms, _in_units(response, units)), start=1):
                if inside and term in query.vocabulary:
                    first.setdefault(term, position)
            positions = [first.get(term, len(response) + 1) for term in query.distinct]
            values.append(float(np.mean(positions)) if positions else np.nan)
        return np.array(values, dtype=float)


class GenerativeAverageSentenceLengthAxiom(GenerativeRetrievalFeatureAxiom):
    """GEN_aSL (aSL, Bondarenko et al. 2018): prefer the response with an average sentence length of 12 to 20 words.

    Intuition: sentences of 12 to 20 words read well (style guides for technical writing). The
    value is 1 if the mean number of words per sentence (tokens that are neither punctuation nor
    citation markers; stop words count) lies in ``[min_sentence_length, max_sentence_length]``,
    else 0; higher is better. Length precondition: lengths within 10 %.
    """

    short_name = "GEN_aSL"
    default_margin_fraction = 0.0
    uses_query = False
    length_precondition = True

    def __init__(
        self,
        *,
        margin_fraction: float | None = None,
        min_sentence_length: float = 12,
        max_sentence_length: float = 20,
        term_extractor: TermExtractor | None = None,
        text_analyzer: TextAnalyzer | str | None = None,
        stemmer: Stemmer = "lemma",
        name: str | None = None,
        verbose: bool = False,
    ):
        """
        Args:
            margin_fraction: relative difference within which two values tie (default 0).
            min_sentence_length: the shortest good average sentence length, in words (default 12).
            max_sentence_length: the longest good average sentence length, in words (default 20).
            term_extractor: a :class:`TermExtractor`; excludes ``text_analyzer`` and ``stemmer``.
            text_analyzer: a :class:`TextAnalyzer` or spaCy model name (default: shared analyzer).
            stemmer: ``"lemma"`` (default) or ``"porter"``.
            name: name of the preference column (default ``"GEN_aSL"``).
            verbose: show progress of long work.
        """
        if not 0 <= min_sentence_length <= max_sentence_length:
            raise ValueError(
                f"{type(self).__name__}: need 0 <= min_sentence_length <= max_sentence_length, "
                f"not {min_sentence_length!r} and {max_sentence_length!r}"
            )
        super().__init__(
            margin_fraction=margin_fraction,
            term_extractor=term_extractor,
            text_analyzer=text_analyzer,
            stemmer=stemmer,
            name=name,
            verbose=verbose,
        )
        self.min_sentence_length = min_sentence_length
        self.max_sentence_length = max_sentence_length

    def _parameters(self) -> dict[str, object]:
        return {
            **super()._parameters(),
            "min_sentence_length": self.min_sentence_length,
            "max_sentence_length": self.max_sentence_length,
        }

    def profile_values(self, table: ResponseTable, queries: Profiles, responses: Profiles) -> np.ndarray:
        values = []
        for response in responses:
            if not response.sentence_lengths:
                values.append(np.nan)
                continue
            average = float(np.mean(response.sentence_lengths))
            values.append(float(self.min_sentence_length <= average <= self.max_sentence_length))
        return np.array(values, dtype=float)


GEN_TFC1 = GenerativeTfc1Axiom
GEN_LNC1 = GenerativeLnc1Axiom
GEN_TF_LNC = GenerativeTfLncAxiom
GEN_REG = GenerativeRegAxiom
GEN_ANTI_REG = GenerativeAntiRegAxiom
GEN_AND = GenerativeAndAxiom
GEN_LEN_AND = GenerativeLenAndAxiom
GEN_M_AND = GenerativeModifiedAndAxiom
GEN_DIV = GenerativeDivAxiom
GEN_LEN_DIV = GenerativeLenDivAxiom
GEN_STMC1 = GenerativeStmc1Axiom
GEN_STMC2 = GenerativeStmc2Axiom
GEN_PROX1 = GenerativeProx1Axiom
GEN_PROX2 = GenerativeProx2Axiom
GEN_PROX3 = GenerativeProx3Axiom
GEN_PROX4 = GenerativeProx4Axiom
GEN_PROX5 = GenerativeProx5Axiom
GEN_ArgUC = GenerativeArgumentativeUnitsCountAxiom
GEN_QTArg = GenerativeQueryTermOccurrenceInArgumentativeUnitsAxiom
GEN_QTPArg = GenerativeQueryTermPositionInArgumentativeUnitsAxiom
GEN_aSL = GenerativeAverageSentenceLengthAxiom

#: The 21 adapted retrieval axioms, by short name, in the order of the reference documentation.
GENERATIVE_RETRIEVAL_AXIOMS: dict[str, type[GenerativeRetrievalAxiom]] = {
    axiom.short_name: axiom
    for axiom in (
        GEN_TFC1, GEN_LNC1, GEN_TF_LNC, GEN_REG, GEN_ANTI_REG, GEN_AND, GEN_LEN_AND, GEN_M_AND, GEN_DIV,
        GEN_LEN_DIV, GEN_STMC1, GEN_STMC2, GEN_PROX1, GEN_PROX2, GEN_PROX3, GEN_PROX4, GEN_PROX5, GEN_ArgUC,
        GEN_QTArg, GEN_QTPArg, GEN_aSL,
    )
}
