"""The features of (answer, nugget) pairs, computed per topic with one matrix product of embeddings.

A feature reads the answer, the nugget, the query and the topic's other nuggets, never other
answers, so an answer's assignments do not depend on which answers are assigned with it.
Evidence counts only from the answer's passages (sentences and clauses) of the nugget's polarity:
a negated clause does not support a positive nugget, nor a positive clause a negated one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pyterrier_rag_axioms.nuggets._evidence import Passage, TextEvidence, same_number

#: The features, in the order of a feature vector.
FEATURES: tuple[str, ...] = (
    # share of the nugget's content lemmas found anywhere in the answer (the overlap baseline)
    "lexical",
    # soft recall of the nugget's lemmas, weighted by how distinctive each is among the topic's nuggets (and
    # less where the query has it): each lemma counts with its best embedding cosine to a lemma of the answer
    "soft_lexical",
    # the largest cosine of the nugget with a sentence or clause of the answer
    "similarity",
    # that cosine minus the mean cosine of the topic's nuggets with the same passage, at its largest
    "contrast",
    # log(1 + number of sentences of the answer)
    "sentences",
)
#: How much a nugget lemma that the query has counts, against one it has not.
QUERY_LEMMA_WEIGHT = 0.3


@dataclass(frozen=True)
class PairEvidence:
    """The features of one pair, the passages behind its evidence and whether its numbers and entities match."""

    features: np.ndarray
    spans: tuple[str, ...]
    numbers_match: bool
    entities_match: bool


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
    compatible = np.array([passage.negated == nugget.negated for passage in passages], dtype=bool)
    found = sorted(frozenset().union(*(p.lemmas for p, ok in zip(passages, compatible) if ok)))
    wanted = sorted(nugget.lemmas)
    soft = 0.0
    if wanted and found:
        best = lemma_similarity[np.ix_([nugget_lemma_index[lemma] for lemma in wanted],
                                       [answer_lemma_index[lemma] for lemma in found])].max(axis=1)
        weight = np.array([weights[lemma] for lemma in wanted])
        soft = float((weight * np.clip(best, 0.0, 1.0)).sum() / weight.sum())
    usable_cosines = np.where(compatible, cosines, -1.0)
    usable_contrasts = np.where(compatible, contrasts, -1.0)
    any_usable = bool(compatible.any())
    numbers_match = all(same_number(value, answer.numbers) for value in nugget.numbers)
    entities = [entity <= answer.words for entity in nugget.entities]
    lexical = len(nugget.lemmas & answer.lemmas) / len(nugget.lemmas) if nugget.lemmas else 0.0
    features = np.array(
        [
            lexical,
            soft,
            max(float(usable_cosines.max()), 0.0) if any_usable else 0.0,
            float(usable_contrasts.max()) if any_usable else -1.0,
            math.log1p(len(answer.sentences)),
        ],
        dtype=float,
    )
    spans: list[str] = []
    if any_usable:
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
