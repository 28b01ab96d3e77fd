"""Term proximity adapted to generated responses: GEN_PROX1 to GEN_PROX5."""

from __future__ import annotations

import itertools
from abc import abstractmethod

import numpy as np

from pyterrier_rag_axioms.axioms.gen._base import (
    GenerativeRetrievalAxiom,
    GenerativeRetrievalFeatureAxiom,
    Profiles,
    _same,
    compare,
)
from pyterrier_rag_axioms.frames import ResponseTable
from pyterrier_rag_axioms.tools.terms import TermProfile


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
