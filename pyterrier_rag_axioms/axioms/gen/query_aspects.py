"""Query aspects adapted to generated responses: GEN_REG, GEN_ANTI_REG, GEN_AND, GEN_LEN_AND, GEN_M_AND, GEN_DIV,
GEN_LEN_DIV."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from pyterrier_rag_axioms.axioms._base import compare_with_margin
from pyterrier_rag_axioms.axioms.gen._base import (
    GenerativeRetrievalFeatureAxiom,
    Profiles,
    _query_term_frequencies,
    _SemanticAxiom,
)
from pyterrier_rag_axioms.frames import ResponseTable
from pyterrier_rag_axioms.tools.terms import TermProfile


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
