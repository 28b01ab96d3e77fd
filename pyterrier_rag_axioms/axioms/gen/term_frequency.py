"""Term frequency and length normalisation adapted to generated responses: GEN_TFC1, GEN_LNC1, GEN_TF_LNC."""

from __future__ import annotations

import numpy as np

from pyterrier_rag_axioms.axioms._base import compare_with_margin
from pyterrier_rag_axioms.axioms.gen._base import (
    GenerativeRetrievalAxiom,
    GenerativeRetrievalFeatureAxiom,
    Profiles,
    _query_term_frequencies,
)
from pyterrier_rag_axioms.frames import ResponseTable


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


def _frequencies_and_lengths(
    axiom: GenerativeRetrievalAxiom, table: ResponseTable
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per response, its frequencies of its request's distinct terms (padded), the padding mask, and its length."""
    queries, responses = axiom.profiles(table)
    frequencies, is_term = _query_term_frequencies(queries, responses)
    return frequencies, is_term, np.array([len(response) for response in responses], dtype=float)


class GenerativeLnc1Axiom(GenerativeRetrievalAxiom):
    """GEN_LNC1 (LNC1, Fang et al. 2004): among responses with the same query-term frequencies, prefer the shorter.

    Intuition: adding terms that are not query terms to a document makes it less relevant. Where
    the frequency of every distinct request term ties within the margin (0.1) in both responses,
    the response with fewer terms is preferred (strictly); otherwise no preference.
    """

    short_name = "GEN_LNC1"
    default_margin_fraction = 0.1

    def pair_preferences(self, table: ResponseTable) -> np.ndarray:
        frequencies, _, lengths = _frequencies_and_lengths(self, table)
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
        frequencies, is_term, lengths = _frequencies_and_lengths(self, table)
        frequencies_a, frequencies_b = frequencies[table.a], frequencies[table.b]
        others_a = lengths[table.a, None] - frequencies_a
        others_b = lengths[table.b, None] - frequencies_b
        same_others = is_term[table.a] & (
            compare_with_margin(others_a, others_b, margin_fraction=self.margin_fraction) == 0
        )
        points_a = np.sum(same_others & (frequencies_a > frequencies_b), axis=1)
        points_b = np.sum(same_others & (frequencies_b > frequencies_a), axis=1)
        return np.sign(points_a - points_b).astype(float)
