"""Similarity of terms, for the semantic retrieval axioms (STMC1, STMC2, REG, ANTI-REG).

By default a term's similarity to another is the cosine of their embeddings from the shared
sentence encoder (:class:`~pyterrier_rag_axioms.tools.embeddings.SentenceSimilarity`, which
embeds each distinct string once per process). Any other measure plugs in as a
:class:`TermSimilarity`, e.g. WordNet's Wu-Palmer similarity through
:class:`FunctionTermSimilarity`.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence

import numpy as np

from pyterrier_rag_axioms.declaration import PRESENTATION, REQUIRED, declared_repr, parameter, parameters
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


def _resolve_encoder(owner: EmbeddingTermSimilarity, encoder: SentenceSimilarity | str | None) -> SentenceSimilarity:
    return resolve_encoder(encoder, owner="EmbeddingTermSimilarity")


@parameters
class EmbeddingTermSimilarity(TermSimilarity, SharedTool):
    """Cosine similarity of term embeddings from a sentence-transformers model (each term embedded once)."""

    #: The sentence encoder, ``"MODEL"``, ``"MODEL:BACKEND"`` or a :class:`SentenceSimilarity` (default: the
    #: shared all-MiniLM-L6-v2; see :mod:`~pyterrier_rag_axioms.tools.embeddings.naming`), stored as the
    #: shared :class:`SentenceSimilarity`. ``sentence_similarity=``, its name before, still works in this
    #: release, with a ``DeprecationWarning``.
    encoder: SentenceSimilarity | str | None = parameter(
        None, positional=True, always_shown=True, resolve=_resolve_encoder, deprecated=("sentence_similarity",)
    )

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


@dataclasses.dataclass(frozen=True, eq=False)
class _FunctionName:
    """A function as ``repr`` shows it: by the name given for it, without quotes."""

    name: str

    def __repr__(self) -> str:
        return self.name


def _check_function(similarity: FunctionTermSimilarity, function: Callable[[str, str], float]) -> None:
    if not callable(function):
        raise TypeError(f"FunctionTermSimilarity: function must be callable, not {type(function).__name__}")


def _function_name(similarity: FunctionTermSimilarity, name: str | None) -> str:
    return name or getattr(similarity.function, "__name__", repr(similarity.function))


def _shown_function(similarity: FunctionTermSimilarity, function: Callable[[str, str], float]) -> _FunctionName:
    return _FunctionName(similarity.name)


@parameters
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

    #: The similarity of two terms, a float.
    function: Callable[[str, str], float] = parameter(
        REQUIRED, positional=True, check=_check_function, shown_for=_shown_function
    )
    #: How ``repr`` shows the function (default: its ``__name__``).
    name: str | None = parameter(None, role=PRESENTATION, in_repr=False, resolve=_function_name)

    def __post_init__(self) -> None:
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

    __repr__ = declared_repr


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
