"""Base classes of the retrieval axioms adapted to generated responses (GEN_*), and the rules they keep.

The request text plays the query and each response plays a document; the retrieved context is
not read. Terms are lower-cased spaCy lemmas (or Porter stems) without stop words, punctuation
and citation markers (see :mod:`pyterrier_rag_axioms.tools.terms`); the length of a response is
its number of terms; positions are indices into its term sequence.

Rules all GEN_* axioms keep:

- A response without terms (empty text, or only stop words and punctuation) gives no preference,
  and neither does a request without terms for the axioms that read the request.
- Axioms marked with the length precondition compare only responses whose lengths lie within
  10 % of each other (``|len_a - len_b| <= 0.1 * max(len_a, len_b)``); other pairs get 0.
- ``margin_fraction`` works as in :func:`~pyterrier_rag_axioms.axioms._base.compare_with_margin`:
  ``x_a`` and ``x_b`` tie when ``|x_a - x_b| <= margin_fraction * max(|x_a|, |x_b|)``. Each axiom
  says which values it compares with it.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import ClassVar

import numpy as np
import pandas as pd

from pyterrier_rag_axioms.axioms._base import (
    Axiom,
    FeatureAxiom,
    compare_with_margin,
    parameter,
    parameters,
    resolve_tool,
)
from pyterrier_rag_axioms.declaration import TOOL
from pyterrier_rag_axioms.frames import ResponseTable
from pyterrier_rag_axioms.tools.embeddings import SentenceSimilarity
from pyterrier_rag_axioms.tools.term_similarity import TermSimilarity, resolve_term_similarity
from pyterrier_rag_axioms.tools.terms import (
    STEMMERS,
    Stemmer,
    TermExtractor,
    TermProfile,
    resolve_term_extractor,
    term_extractor,
)
from pyterrier_rag_axioms.tools.text import TextAnalyzer, resolve_text_analyzer

#: Lengths (in terms) within this fraction of each other satisfy the length precondition.
LENGTH_MARGIN_FRACTION = 0.1

Profiles = list[TermProfile]


def similar_lengths(lengths_a: np.ndarray, lengths_b: np.ndarray) -> np.ndarray:
    """The length precondition: ``|len_a - len_b| <= 0.1 * max(len_a, len_b)``, per pair."""
    lengths_a = np.asarray(lengths_a, dtype=float)
    lengths_b = np.asarray(lengths_b, dtype=float)
    return np.abs(lengths_a - lengths_b) <= LENGTH_MARGIN_FRACTION * np.maximum(lengths_a, lengths_b)


#: The margin rule of all axioms (:func:`compare_with_margin`), under the name GEN_* code uses.
compare = compare_with_margin


def _unless_shared_extractor(extractor: TermExtractor | None) -> TermExtractor | None:
    """How a term extractor shows in ``repr``: not at all where it is the shared one of its analyzer and stemmer."""
    shared = extractor is None or extractor is term_extractor(extractor.text_analyzer, extractor.stemmer)
    return None if shared else extractor


def _unless_shared_analyzer(analyzer: TextAnalyzer | str | None) -> TextAnalyzer | str | None:
    """How a text analyzer shows in ``repr``: not at all where it is the shared default."""
    return None if analyzer is None or analyzer is resolve_text_analyzer(None) else analyzer


def _same(codes: np.ndarray, table: ResponseTable) -> np.ndarray:
    return codes[table.a] == codes[table.b]


@parameters
class GenerativeRetrievalAxiom(Axiom):
    """Base of the GEN_* axioms: a retrieval axiom with the request as query and responses as documents."""

    registry_group = "gen"

    #: Whether the axiom reads the request's terms.
    uses_query: ClassVar[bool] = True
    #: Whether only responses of similar length (within 10 %) are compared.
    length_precondition: ClassVar[bool] = False

    #: A :class:`TermExtractor` (e.g. with other stop words); excludes ``text_analyzer`` and ``stemmer``.
    term_extractor: TermExtractor | None = parameter(None, role=TOOL, shown=_unless_shared_extractor)
    #: A :class:`TextAnalyzer` or spaCy model name (default: the shared analyzer).
    text_analyzer: TextAnalyzer | str | None = parameter(None, role=TOOL, keyed=False, shown=_unless_shared_analyzer)
    #: ``"lemma"`` (default) or ``"porter"``.
    stemmer: Stemmer = parameter("lemma", choices=STEMMERS)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.term_extractor = resolve_term_extractor(
            self.term_extractor, text_analyzer=self.text_analyzer, stemmer=self.stemmer, owner=type(self).__name__
        )
        self.text_analyzer = self.term_extractor.text_analyzer
        self.stemmer = self.term_extractor.stemmer

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
        values = self.cached_values(table)
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


@parameters
class _SemanticAxiom(GenerativeRetrievalAxiom):
    """A GEN_* axiom that compares terms by a :class:`TermSimilarity`."""

    #: A :class:`TermSimilarity`, or a :class:`SentenceSimilarity` or sentence-transformers model
    #: whose embeddings' cosine is used (default: the shared all-MiniLM-L6-v2).
    term_similarity: TermSimilarity | SentenceSimilarity | str | None = parameter(
        None, role=TOOL, resolve=resolve_tool(resolve_term_similarity)
    )
