"""The features of (answer, nugget) pairs, computed per topic with one matrix product of embeddings.

A feature reads the answer, the nugget, the query and the topic's other nuggets, never other
answers, so an answer's assignments do not depend on which answers are assigned with it.
Evidence counts only from the answer's passages (sentences and clauses) of the nugget's polarity:
a negated clause does not support a positive nugget, nor a positive clause a negated one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from pyterrier_rag_axioms.nuggets._evidence import Passage, TextEvidence, same_number
from pyterrier_rag_axioms.runtime.threads import one_blas_thread

#: How much a nugget lemma that the query has counts, against one it has not.
QUERY_LEMMA_WEIGHT = 0.3


@dataclass(frozen=True)
class PairEvidence:
    """The features of one pair, the passages behind its evidence and whether its numbers and entities match."""

    features: np.ndarray
    spans: tuple[str, ...]
    numbers_match: bool
    entities_match: bool


@dataclass(frozen=True)
class PartsEvidence:
    """The evidence of a long nugget: one :class:`PairEvidence` per part (its atomic facts, see
    :func:`~pyterrier_rag_axioms.nuggets._evidence.nugget_parts`), each part's numbers and entities
    matched on their own, and the support model's probability for the whole nugget."""

    parts: tuple[PairEvidence, ...]
    #: The support model's probability that the answer supports the whole nugget
    #: (:class:`~pyterrier_rag_axioms.support.SupportModel`): what decides a long nugget.
    support: float = float("nan")

    @property
    def features(self) -> np.ndarray:
        """The parts' mean features (to fit a model on pairs of long nuggets too)."""
        return np.round(np.mean([part.features for part in self.parts], axis=0), 6)

    @property
    def spans(self) -> tuple[str, ...]:
        """The passage most similar to each part, each passage once."""
        return tuple(dict.fromkeys(part.spans[0] for part in self.parts if part.spans))


def lemma_weights(nuggets: Sequence[TextEvidence], query: TextEvidence) -> dict[str, float]:
    """The weight of each nugget lemma: ``log((N + 1) / (df + 0.5))`` over the topic's ``N`` nuggets,
    times :data:`QUERY_LEMMA_WEIGHT` where the query has it."""
    frequency: dict[str, int] = {}
    for nugget in nuggets:
        for lemma in nugget.lemmas:
            frequency[lemma] = frequency.get(lemma, 0) + 1
    count = len(nuggets)
    return {
        lemma: math.log((count + 1) / (df + 0.5)) * (QUERY_LEMMA_WEIGHT if lemma in query.lemmas else 1.0)
        for lemma, df in frequency.items()
    }


def _passages(answer: TextEvidence) -> list[Passage]:
    return [*answer.sentences, *answer.clauses]


def topic_features(
    query: TextEvidence,
    nuggets: Sequence[TextEvidence],
    answers: Sequence[TextEvidence],
    embed,
) -> list[list[PairEvidence]]:
    """The evidence of every (answer, nugget) pair of one topic: ``result[answer][nugget]``.

    Args:
        query, nuggets, answers: the evidence of the topic's texts.
        embed: a function from a list of texts to their unit-length embeddings (one row each).
    """
    nugget_texts = [nugget.text for nugget in nuggets]
    weights = lemma_weights(nuggets, query)
    nugget_lemmas = sorted(weights)
    nugget_lemma_index = {lemma: position for position, lemma in enumerate(nugget_lemmas)}
    # every distinct text in one call (the encoder batches them; each embedding is the text's own)
    embed([*nugget_texts, *nugget_lemmas,
           *sorted({passage.text for answer in answers for passage in _passages(answer)}),
           *sorted(frozenset().union(*(passage.lemmas for a in answers for passage in _passages(a))))])
    nugget_vectors = embed(nugget_texts)
    nugget_lemma_vectors = embed(nugget_lemmas)
    result = []
    with one_blas_thread():  # the products are small: BLAS threads would wait more than work
        for answer in answers:
            # products over this answer's texts alone: a value never depends on which answers share the call
            passages = _passages(answer)
            cosines = nugget_vectors @ embed([passage.text for passage in passages]).T if passages \
                else np.zeros((len(nuggets), 0))
            answer_lemmas = sorted(frozenset().union(*(passage.lemmas for passage in passages)))
            answer_lemma_index = {lemma: position for position, lemma in enumerate(answer_lemmas)}
            lemma_similarity = (
                nugget_lemma_vectors @ embed(answer_lemmas).T if nugget_lemmas and answer_lemmas
                else np.zeros((len(nugget_lemmas), len(answer_lemmas)))
            )
            contrasts = cosines - cosines.mean(axis=0, keepdims=True) if len(nuggets) else cosines
            result.append([
                _pair(nugget, answer, passages, cosines[j], contrasts[j], weights, lemma_similarity,
                      nugget_lemma_index, answer_lemma_index)
                for j, nugget in enumerate(nuggets)
            ])
    return result


@dataclass
class Pair:
    """What the features of one (answer, nugget) pair read: the two texts' evidence, the answer's
    passages, the nugget's cosines with them and the topic's lemma weights and similarities."""

    nugget: TextEvidence
    answer: TextEvidence
    #: The answer's sentences, then its clauses.
    passages: list[Passage]
    #: The nugget's cosine with each passage.
    cosines: np.ndarray
    #: Each cosine minus the mean cosine of the topic's nuggets with the same passage.
    contrasts: np.ndarray
    #: The weight of each nugget lemma (see :func:`lemma_weights`).
    weights: dict[str, float]
    #: The cosines of the topic's nugget lemmas (rows) with the answer's lemmas (columns).
    lemma_similarity: np.ndarray
    nugget_lemma_index: dict[str, int]
    answer_lemma_index: dict[str, int]

    @cached_property
    def compatible(self) -> np.ndarray:
        """Whether each passage has the nugget's polarity (only those give evidence)."""
        return np.array([passage.negated == self.nugget.negated for passage in self.passages], dtype=bool)

    @cached_property
    def any_usable(self) -> bool:
        """Whether some passage has the nugget's polarity."""
        return bool(self.compatible.any())

    @cached_property
    def usable_cosines(self) -> np.ndarray:
        """The cosines, -1 for passages of the other polarity."""
        return np.where(self.compatible, self.cosines, -1.0)


def _lexical(pair: Pair) -> float:
    """The share of the nugget's content lemmas found anywhere in the answer (the overlap baseline)."""
    nugget = pair.nugget
    return len(nugget.lemmas & pair.answer.lemmas) / len(nugget.lemmas) if nugget.lemmas else 0.0


def _soft_lexical(pair: Pair) -> float:
    """The soft recall of the nugget's lemmas, weighted by how distinctive each is among the topic's
    nuggets (and less where the query has it): each lemma counts with its best embedding cosine to a
    lemma of the answer's passages of its polarity."""
    found = sorted(frozenset().union(*(p.lemmas for p, ok in zip(pair.passages, pair.compatible) if ok)))
    wanted = sorted(pair.nugget.lemmas)
    if not (wanted and found):
        return 0.0
    best = pair.lemma_similarity[np.ix_([pair.nugget_lemma_index[lemma] for lemma in wanted],
                                        [pair.answer_lemma_index[lemma] for lemma in found])].max(axis=1)
    weight = np.array([pair.weights[lemma] for lemma in wanted])
    return float((weight * np.clip(best, 0.0, 1.0)).sum() / weight.sum())


def _similarity(pair: Pair) -> float:
    """The largest cosine of the nugget with a sentence or clause of the answer (0 at least)."""
    return max(float(pair.usable_cosines.max()), 0.0) if pair.any_usable else 0.0


def _contrast(pair: Pair) -> float:
    """That cosine minus the mean cosine of the topic's nuggets with the same passage, at its largest."""
    return float(np.where(pair.compatible, pair.contrasts, -1.0).max()) if pair.any_usable else -1.0


def _sentences(pair: Pair) -> float:
    """``log(1 + number of sentences of the answer)``."""
    return math.log1p(len(pair.answer.sentences))


#: The one table of the features: each name with the function that computes it from a :class:`Pair`,
#: in the order of a feature vector (and of a :class:`~pyterrier_rag_axioms.nuggets.NuggetModel`'s
#: weights in ``nugget-model.json``).
FEATURE_FUNCTIONS: tuple[tuple[str, Callable[[Pair], float]], ...] = (
    ("lexical", _lexical),
    ("soft_lexical", _soft_lexical),
    ("similarity", _similarity),
    ("contrast", _contrast),
    ("sentences", _sentences),
)
#: The features' names, in the order of a feature vector (read from :data:`FEATURE_FUNCTIONS`).
FEATURES: tuple[str, ...] = tuple(name for name, _ in FEATURE_FUNCTIONS)
#: The features that grow without bound with an answer's length (the others lie in [-1, 1] by
#: construction): a model clips them to the range of the pairs it was fitted on, so that a length
#: never seen in fitting (an answer repeating one sentence for megabytes) is read as the longest seen.
LENGTH_FEATURES: tuple[str, ...] = ("sentences",)


def _pair(
    nugget: TextEvidence,
    answer: TextEvidence,
    passages: list[Passage],
    cosines: np.ndarray,
    contrasts: np.ndarray,
    weights: dict[str, float],
    lemma_similarity: np.ndarray,
    nugget_lemma_index: dict[str, int],
    answer_lemma_index: dict[str, int],
) -> PairEvidence:
    pair = Pair(nugget, answer, passages, cosines, contrasts, weights, lemma_similarity, nugget_lemma_index,
                answer_lemma_index)
    features = np.array([compute(pair) for _, compute in FEATURE_FUNCTIONS], dtype=float)
    numbers_match = all(same_number(value, answer.numbers) for value in nugget.numbers)
    entities = [entity <= answer.words for entity in nugget.entities]
    compatible, usable_cosines = pair.compatible, pair.usable_cosines
    spans: list[str] = []
    if pair.any_usable:
        sentence_count = len(answer.sentences)
        coverage = [
            sum(weights.get(lemma, 0.0) for lemma in nugget.lemmas & passage.lemmas) if ok else -1.0
            for passage, ok in zip(passages[:sentence_count], compatible[:sentence_count])
        ]
        candidates = [int(np.argmax(usable_cosines))]
        if coverage and max(coverage) > 0:
            candidates.append(int(np.argmax(coverage)))
        for index in candidates:
            if passages[index].text not in spans:
                spans.append(passages[index].text)
    return PairEvidence(
        features=np.round(features, 6),  # the same decisions whatever float noise the encoding batch adds
        spans=tuple(spans),
        numbers_match=numbers_match,
        entities_match=all(entities),
    )
