"""Semantic term matching adapted to generated responses: GEN_STMC1, GEN_STMC2."""

from __future__ import annotations

import numpy as np
import pyterrier as pt

from pyterrier_rag_axioms.axioms._base import compare_with_margin
from pyterrier_rag_axioms.axioms.gen._base import GenerativeRetrievalFeatureAxiom, Profiles, _SemanticAxiom
from pyterrier_rag_axioms.frames import ResponseTable
from pyterrier_rag_axioms.tools.terms import TermProfile


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
            if compare_with_margin(share_exact, share_similar, margin_fraction=self.margin_fraction) != 0:
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
