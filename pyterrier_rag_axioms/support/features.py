"""The features of (evidence, statement) pairs: what the support model reads.

A statement is supported where the evidence holds its content words (weighted by how rare they
are), its numbers and named entities, in one place (a window of consecutive sentences), with the
same polarity. Every feature reads one statement and its own evidence, never other pairs, so a
pair's probability never depends on the batch.

Terms are the lemmas of :class:`~pyterrier_rag_axioms.tools.terms.TermExtractor` (content words,
spaCy's stop words left out), read from the parses that the shared
:class:`~pyterrier_rag_axioms.tools.text.TextAnalyzer` keeps; only the statement goes through
named-entity recognition.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from pyterrier_rag_axioms.tools.lexical import content_words
from pyterrier_rag_axioms.tools.terms import TermExtractor
from pyterrier_rag_axioms.tools.text import TextAnalysis
from pyterrier_rag_axioms.tools.text.words import is_negated

#: The names of the features, in the order of :func:`pair_features`.
FEATURES: tuple[str, ...] = (
    "idf_recall",  # IDF-weighted share of the statement's distinct terms found in the evidence
    "window_idf_recall",  # the same in the best window of consecutive evidence sentences
    "recall",  # unweighted share of the statement's distinct terms found in the evidence
    "missing_idf",  # log(1 + IDF mass of the statement's terms that the evidence lacks)
    "max_missing_idf",  # the IDF of the rarest missing term, over the largest IDF
    "window_pairs",  # share of the statement's adjacent term pairs that the best window holds both of
    "numbers_missing",  # share of the statement's numbers that the evidence lacks (0 without numbers)
    "entities_missing",  # share of the statement's named entities that the evidence lacks (0 without any)
    "negation_mismatch",  # 1 where the statement and its best window differ in negation
    "log_terms",  # log(1 + number of the statement's distinct terms)
    "aligned_idf_recall",  # IDF-weighted share of the statement's terms found or aligned to an evidence term
)

#: The cosine of static token-vector embeddings at which a statement term aligns to an evidence term
#: (a synonym, another form: "northern lights" and "aurora"; see :func:`aligned_recall`).
ALIGN_COSINE = 0.7

#: The longest window of consecutive evidence sentences (within one passage) a statement is matched in.
WINDOW_SENTENCES = 3

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class EvidenceText:
    """What the features read from one evidence passage: the terms of each sentence, whether each
    sentence holds a negation, and the passage's numbers and lower-cased text."""

    sentence_terms: tuple[frozenset[str], ...]
    sentence_pairs: tuple[frozenset[tuple[str, str]], ...]
    sentence_negated: tuple[bool, ...]
    terms: frozenset[str]
    numbers: frozenset[str]
    text: str


@dataclass(frozen=True)
class Statement:
    """What the features read from one statement: its terms in order, numbers, entities and negation."""

    terms: tuple[str, ...]
    numbers: frozenset[str]
    entities: tuple[str, ...]
    negated: bool


def _numbers(text: str) -> frozenset[str]:
    """The numbers written in digits in a text, without thousands separators (``"1,200"`` is ``"1200"``)."""
    return frozenset(match.replace(",", "").rstrip(".") for match in _NUMBER.findall(text))


def _flat(text: str) -> str:
    return _SPACE.sub(" ", text.lower())


def evidence_text(analysis: TextAnalysis, extractor: TermExtractor) -> EvidenceText:
    """The evidence view of one analysed passage (its terms are the extractor's)."""
    profile = extractor.profile_of(analysis)
    sentences = analysis.sentences
    starts = [sentence.start_char for sentence in sentences]
    terms: list[list[str]] = [[] for _ in sentences]
    for term, offset in zip(profile.terms, profile.offsets):
        position = bisect.bisect_right(starts, offset) - 1
        if position >= 0 and offset < sentences[position].end_char:
            terms[position].append(term)
    return EvidenceText(
        sentence_terms=tuple(frozenset(each) for each in terms),
        sentence_pairs=tuple(frozenset(zip(each, each[1:])) | frozenset(zip(each[1:], each)) for each in terms),
        sentence_negated=tuple(is_negated(sentence) for sentence in sentences),
        terms=frozenset(profile.terms),
        numbers=_numbers(analysis.text),
        text=_flat(analysis.text),
    )


def statement_of(analysis: TextAnalysis, extractor: TermExtractor) -> Statement:
    """The statement view of one analysed statement (named entities from spaCy's recogniser)."""
    entities = tuple(
        dict.fromkeys(_flat(entity.text).strip() for entity in analysis.doc.ents if entity.label_ not in _NUMERIC)
    )
    return Statement(
        terms=tuple(dict.fromkeys(extractor.profile_of(analysis).terms)),
        numbers=_numbers(analysis.text),
        entities=tuple(entity for entity in entities if entity),
        negated=is_negated(analysis.syntax),
    )


#: Entity types that are numbers (read by the number feature instead).
_NUMERIC = frozenset({"CARDINAL", "ORDINAL", "PERCENT", "QUANTITY", "MONEY"})


def _entity_found(entity: str, evidence: Sequence[EvidenceText]) -> bool:
    if any(entity in passage.text for passage in evidence):
        return True
    words = content_words(entity)
    return bool(words) and all(any(word in passage.text for passage in evidence) for word in words)


def pair_features(
    statement: Statement, evidence: Sequence[EvidenceText], idf: Mapping[str, float], default_idf: float
) -> np.ndarray:
    """The features (:data:`FEATURES`) of one statement against its evidence passages."""
    terms = statement.terms
    weights = np.array([idf.get(term, default_idf) for term in terms], dtype=float)
    total = weights.sum()
    everywhere = frozenset().union(*(passage.terms for passage in evidence)) if evidence else frozenset()
    found = np.array([term in everywhere for term in terms], dtype=bool)
    pairs = list(zip(terms, terms[1:]))
    best, best_pairs, best_negated = 0.0, 0.0, False
    for passage in evidence:
        count = len(passage.sentence_terms)
        for start in range(count):
            for end in range(start + 1, min(start + WINDOW_SENTENCES, count) + 1):
                window = frozenset().union(*passage.sentence_terms[start:end])
                held = sum(weight for term, weight in zip(terms, weights) if term in window)
                share = held / total if total > 0 else 0.0
                if share > best or (share == best and end - start == 1 and best == 0.0):
                    window_pairs = frozenset().union(*passage.sentence_pairs[start:end])
                    best = share
                    best_pairs = sum(pair in window_pairs for pair in pairs) / len(pairs) if pairs else share
                    best_negated = any(passage.sentence_negated[start:end])
    numbers = statement.numbers
    evidence_numbers = frozenset().union(*(passage.numbers for passage in evidence)) if evidence else frozenset()
    missing_numbers = sum(number not in evidence_numbers for number in numbers) / len(numbers) if numbers else 0.0
    entities = statement.entities
    missing_entities = (
        sum(not _entity_found(entity, evidence) for entity in entities) / len(entities) if entities else 0.0
    )
    missing_weights = weights[~found]
    return np.array(
        [
            weights[found].sum() / total if total > 0 else 0.0,
            best,
            found.mean() if len(terms) else 0.0,
            math.log1p(missing_weights.sum()),
            missing_weights.max() / default_idf if len(missing_weights) else 0.0,
            best_pairs,
            missing_numbers,
            missing_entities,
            float(statement.negated != best_negated),
            math.log1p(len(terms)),
            float("nan"),  # aligned_idf_recall: set by aligned_recall, which needs the term vectors
        ],
        dtype=float,
    )


def aligned_recall(
    statement: Statement,
    evidence: Sequence[EvidenceText],
    idf: Mapping[str, float],
    default_idf: float,
    vectors: Mapping[str, np.ndarray],
) -> float:
    """The IDF-weighted share of the statement's terms that the evidence holds, or that align to one
    of its terms: the cosine of their unit-length vectors (``vectors``, by term) is at least
    :data:`ALIGN_COSINE` (a token alignment in the manner of BERTScore's recall, with IDF weights)."""
    terms = statement.terms
    if not terms:
        return 0.0
    weights = np.array([idf.get(term, default_idf) for term in terms], dtype=float)
    held = frozenset().union(*(passage.terms for passage in evidence)) if evidence else frozenset()
    everywhere = sorted(held)
    found = np.array([term in held for term in terms], dtype=bool)
    missing = [term for term, held in zip(terms, found) if not held]
    if missing and everywhere:
        cosines = np.stack([vectors[term] for term in missing]) @ np.stack([vectors[term] for term in everywhere]).T
        aligned = iter(np.round(cosines.max(axis=1), 6) >= ALIGN_COSINE)
        found = np.array([held or next(aligned) for held in found], dtype=bool)
    return float(weights[found].sum() / weights.sum())
