"""Similarity of terms, for the semantic retrieval axioms (STMC1, STMC2, REG, ANTI-REG).

By default a term's similarity to another is the cosine of their embeddings from the shared
sentence encoder (:class:`~pyterrier_rag_axioms.tools.embeddings.SentenceSimilarity`, which
embeds each distinct string once per process). Any other measure plugs in as a
:class:`TermSimilarity`, e.g. WordNet's Wu-Palmer similarity through
:class:`FunctionTermSimilarity`.
"""

from __future__ import annotations

import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from pyterrier_rag_axioms.tools._shared import SharedTool
from pyterrier_rag_axioms.tools.embeddings import SentenceSimilarity, resolve_encoder


class TermSimilarity(ABC):
    """Similarity of terms: a matrix of similarities between two lists of terms."""

    @abstractmethod
    def similarities(self, terms_a: Sequence[str], terms_b: Sequence[str]) -> np.ndarray:
        """The similarity of every term in ``terms_a`` (rows) to every term in ``terms_b`` (columns)."""

    def prepare(self, terms: Sequence[str], *, verbose: bool = False) -> None:  # noqa: B027 (optional hook)
        """Compute what later calls need for ``terms`` at once (e.g. embed them in batches); nothing by default."""

    def average_similarity(self, terms_a: Sequence[str], terms_b: Sequence[str]) -> float:
        """Mean similarity over all pairs of a term of ``terms_a`` and one of ``terms_b`` (NaN if either is empty)."""
        if len(terms_a) == 0 or len(terms_b) == 0:
            return float("nan")
        return float(np.mean(self.similarities(terms_a, terms_b)))


class EmbeddingTermSimilarity(TermSimilarity, SharedTool):
    """Cosine similarity of term embeddings from a sentence-transformers model (each term embedded once)."""

    configuration = ("encoder",)

    def __init__(self, encoder: SentenceSimilarity | str | None = None, **renamed: Any):
        """
        Args:
            encoder: the sentence encoder, ``"MODEL"``, ``"MODEL:BACKEND"`` or a :class:`SentenceSimilarity`
                (default: the shared all-MiniLM-L6-v2; see :mod:`~pyterrier_rag_axioms.tools.embeddings.naming`).
                ``sentence_similarity=``, its name before, still works in this release, with a ``DeprecationWarning``.
        """
        if set(renamed) - {"sentence_similarity"}:
            unknown = sorted(set(renamed) - {"sentence_similarity"})[0]
            raise TypeError(f"EmbeddingTermSimilarity has no argument {unknown!r}; its argument: encoder")
        if renamed:
            warnings.warn(
                "EmbeddingTermSimilarity: sentence_similarity= is now called encoder=", DeprecationWarning, stacklevel=2
            )
            encoder = renamed["sentence_similarity"] if encoder is None else encoder
        self.encoder = resolve_encoder(encoder, owner="EmbeddingTermSimilarity")

    def prepare(self, terms: Sequence[str], *, verbose: bool = False) -> None:
        self.encoder.embed(list(dict.fromkeys(terms)), verbose=verbose)

    def similarities(self, terms_a: Sequence[str], terms_b: Sequence[str]) -> np.ndarray:
        if len(terms_a) == 0 or len(terms_b) == 0:
            return np.zeros((len(terms_a), len(terms_b)), dtype=float)
        return np.asarray(self.encoder.similarities(list(terms_a), list(terms_b)), dtype=float)

    def average_similarity(self, terms_a: Sequence[str], terms_b: Sequence[str]) -> float:
        if len(terms_a) == 0 or len(terms_b) == 0:
            return float("nan")
        # the mean of all cosines of unit vectors is the dot product of the two centroids
        centroid_a = self.encoder.embed(list(terms_a)).mean(axis=0)
        centroid_b = self.encoder.embed(list(terms_b)).mean(axis=0)
        return float(centroid_a @ centroid_b)

    def __repr__(self) -> str:
        return f"EmbeddingTermSimilarity(encoder={self.encoder!r})"


class FunctionTermSimilarity(TermSimilarity):
    """Similarity from a function of two terms, called once per distinct pair.

    For example, WordNet's Wu-Palmer similarity of the first synsets, where NLTK's WordNet data is
    installed::

        from nltk.corpus import wordnet

        def wup(term1, term2):
            synsets1, synsets2 = wordnet.synsets(term1), wordnet.synsets(term2)
            if not synsets1 or not synsets2:
                return 0.0
            return synsets1[0].wup_similarity(synsets2[0]) or 0.0

        GEN_STMC1(term_similarity=FunctionTermSimilarity(wup))
    """

    def __init__(self, function: Callable[[str, str], float], *, name: str | None = None):
        """
        Args:
            function: the similarity of two terms, a float.
            name: how ``repr`` shows the function (default: its ``__name__``).
        """
        if not callable(function):
            raise TypeError(f"FunctionTermSimilarity: function must be callable, not {type(function).__name__}")
        self.function = function
        self.name = name or getattr(function, "__name__", repr(function))
        self._cache: dict[tuple[str, str], float] = {}

    def similarity(self, term_a: str, term_b: str) -> float:
        """The similarity of two terms."""
        key = (term_a, term_b)
        if key not in self._cache:
            self._cache[key] = float(self.function(term_a, term_b))
        return self._cache[key]

    def similarities(self, terms_a: Sequence[str], terms_b: Sequence[str]) -> np.ndarray:
        return np.array(
            [[self.similarity(term_a, term_b) for term_b in terms_b] for term_a in terms_a], dtype=float
        ).reshape(len(terms_a), len(terms_b))

    def __repr__(self) -> str:
        return f"FunctionTermSimilarity({self.name})"


def resolve_term_similarity(similarity: TermSimilarity | SentenceSimilarity | str | None) -> TermSimilarity:
    """A term similarity from an instance, a :class:`SentenceSimilarity` or model name, or ``None`` (default)."""
    if isinstance(similarity, TermSimilarity):
        return similarity
    if similarity is None or isinstance(similarity, (SentenceSimilarity, str)):
        return EmbeddingTermSimilarity.shared(encoder=similarity)
    raise TypeError(
        "term_similarity must be a TermSimilarity, a SentenceSimilarity, a model name or None, "
        f"not {type(similarity).__name__}"
    )
