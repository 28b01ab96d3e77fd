"""Coverage axioms, COV1-COV8.

Broad coverage: does the response cover diverse information? Deep coverage: does the response
provide in-depth and highly informative content? (COV1-COV3)

Redundancy between sentences (COV4): broad coverage is lost to sentences that repeat each other.

Coverage from the viewpoint of the query: is every aspect of the request answered somewhere (COV5),
and how many aspects does the response state about the request (COV7)?

Nuggets (COV8): how many of the topic's nuggets (the facts TREC RAG asks of an answer) the response
supports, assigned without an LLM.

Non-answers (COV6): sentences that decline to answer, or talk about the sources instead of the topic.

Generated answers often spend sentences on the generation itself: "The provided context does not
mention any actions taken by teenagers", "According to Doc 3, ...", "I'll do my best to answer
based on the provided references". Such a sentence tells the reader nothing about the topic, and
an answer made of them has declined to answer. COV6 counts them.
"""

from __future__ import annotations

import re
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import MISSING
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

from pyterrier_rag_axioms.axioms._analyzed import EmbeddingFeatureAxiom, TextFeatureAxiom
from pyterrier_rag_axioms.axioms._base import FeatureAxiom, parameter, parameters, resolve_tool
from pyterrier_rag_axioms.declaration import shown_source
from pyterrier_rag_axioms.frames import ResponseTable
from pyterrier_rag_axioms.judgments import NUGGET_SCORE_TYPES, NuggetScoreType, nugget_scores
from pyterrier_rag_axioms.nuggets import NuggetAssigner, NuggetModel
from pyterrier_rag_axioms.tools.lexical import content_words
from pyterrier_rag_axioms.tools.text import AspectsArgument, TextAnalysis, resolve_aspects
from pyterrier_rag_axioms.tools.text.aspects import normalize_aspect


@parameters
class AspectAxiom(EmbeddingFeatureAxiom):
    """A feature axiom over the aspects of texts (noun chunks by default) and sentence embeddings (unused by COV1)."""

    #: How aspects are extracted: ``"noun_chunks"`` (default; without pronouns),
    #: ``"noun_chunks_with_pronouns"``, ``"entities"`` (as in the ICTIR 2025 experiments), or an
    #: :class:`AspectExtraction`.
    aspects: AspectsArgument = parameter(
        "noun_chunks", resolve=resolve_tool(resolve_aspects), shown=lambda aspects: aspects.name
    )

    def aspects_of(self, texts: Sequence[str]) -> list[tuple[str, ...]]:
        """The distinct aspects of each text."""
        return [self.aspects(analysis) for analysis in self.text_analyzer.analyse(texts, verbose=self.verbose)]


class AspectCountCoverageAxiom(AspectAxiom):
    """COV1: prefer responses with more distinct aspects.

    Intuition: a response that mentions more distinct aspects covers more information. The value
    is the number of distinct aspects; higher is better.
    """

    short_name = "COV1"
    registry_group = "rag"
    default_margin_fraction = 0.0

    def response_values(self, table: ResponseTable) -> np.ndarray:
        return np.array([len(aspects) for aspects in self.aspects_of(table.texts)], dtype=float)


class AspectRedundancyCoverageAxiom(AspectAxiom):
    """COV2: prefer responses whose aspects are less redundant.

    Intuition: aspects that resemble each other repeat information. The value is the mean cosine
    similarity over all ordered pairs of the response's distinct aspects (self-pairs included,
    as in the paper's formula); lower is better. NaN for a response without aspects.
    """

    short_name = "COV2"
    registry_group = "rag"
    default_margin_fraction = 0.2
    prefer_higher = False

    def response_values(self, table: ResponseTable) -> np.ndarray:
        aspects_per_text = self.aspects_of(table.texts)
        self.embed_distinct(aspects_per_text)
        values = []
        for aspects in aspects_per_text:
            if not aspects:
                values.append(np.nan)
                continue
            # mean over all pairs of <a, a'> equals the squared norm of the mean embedding
            centroid = self.sentence_similarity.embed(aspects).mean(axis=0)
            values.append(float(centroid @ centroid))
        return np.array(values, dtype=float)


class AspectSentenceCoverageAxiom(AspectAxiom):
    """Base of COV3 and CONS1: the similarity-weighted count of sentences covering given aspects.

    The value of a response is ``sum over its sentences s of mean over aspects a of sim(a, s)``:
    each sentence counts with its mean similarity to the aspects. Higher is better. NaN when
    there are no aspects to cover; a response without sentences (an empty one) covers nothing:
    0, a sum over no sentences, as in COV1 and CONS2.
    """

    @abstractmethod
    def target_aspects(self, table: ResponseTable) -> list[tuple[str, ...]]:
        """The aspects each response should cover."""

    def response_values(self, table: ResponseTable) -> np.ndarray:
        targets = self.target_aspects(table)
        analyses = self.text_analyzer.analyse(table.texts, verbose=self.verbose)
        sentences = [analysis.sentence_texts for analysis in analyses]
        self.embed_distinct([*targets, *sentences])
        centroids: dict[tuple[str, ...], np.ndarray] = {}
        values = []
        for aspects, response_sentences in zip(targets, sentences):
            if not aspects:
                values.append(np.nan)
                continue
            if not response_sentences:
                values.append(0.0)
                continue
            if aspects not in centroids:
                centroids[aspects] = self.sentence_similarity.embed(aspects).mean(axis=0)
            # sum_s mean_a <s, a> = sum_s <s, mean_a a>
            values.append(float((self.sentence_similarity.embed(response_sentences) @ centroids[aspects]).sum()))
        return np.array(values, dtype=float)


class AspectSimilaritySentenceCountCoverageAxiom(AspectSentenceCoverageAxiom):
    """COV3: prefer responses with more sentences covering the query's aspects.

    Intuition: a response whose sentences address the aspects of the request covers the
    information need more deeply. Each sentence counts with its mean similarity to the query's
    aspects; higher is better. NaN when the query has no aspects (no preference).
    """

    short_name = "COV3"
    registry_group = "rag"
    default_margin_fraction = 0.5

    def target_aspects(self, table: ResponseTable) -> list[tuple[str, ...]]:
        return self.aspects_of(table.queries)


COV1 = AspectCountCoverageAxiom
COV2 = AspectRedundancyCoverageAxiom
COV3 = AspectSimilaritySentenceCountCoverageAxiom


class SentenceRedundancyCoverageAxiom(TextFeatureAxiom):
    """COV4: prefer responses whose sentences repeat each other less.

    Intuition: a sentence that says again what another sentence said adds length but no
    information. Each sentence is the set of its content words (lower-cased, without stop words
    and citation markers); a sentence's redundancy is its largest Jaccard overlap with any other
    sentence of the response, and the value is the mean redundancy over the sentences. Lower is
    better. NaN for a response with fewer than two sentences with content words.
    """

    short_name = "COV4"
    default_margin_fraction = 0.1
    prefer_higher = False

    def text_value(self, analysis: TextAnalysis) -> float:
        sentences = [set(content_words(sentence)) for sentence in analysis.sentence_texts]
        sentences = [sentence for sentence in sentences if sentence]
        if len(sentences) < 2:
            return float("nan")
        largest = np.zeros(len(sentences))
        for i, j in combinations(range(len(sentences)), 2):
            overlap = len(sentences[i] & sentences[j]) / len(sentences[i] | sentences[j])
            largest[i] = max(largest[i], overlap)
            largest[j] = max(largest[j], overlap)
        return float(largest.mean())


COV4 = SentenceRedundancyCoverageAxiom


class QueryAspectCoverageAxiom(AspectAxiom):
    """COV5: prefer responses whose best sentences come closer to each aspect of the query.

    Intuition (after EXAM-style evaluation, which asks whether a response answers the questions a
    request raises): a good response addresses every aspect of the request in at least one
    sentence, however long it is otherwise. For each aspect of the query (noun chunks by default;
    the whole query where it has none), take the cosine similarity of the response sentence that
    matches it best; the value is the mean over the aspects. Higher is better. Unlike COV3, which
    sums over all sentences, adding sentences that match no aspect better does not raise it. NaN
    for a response without sentences.
    """

    short_name = "COV5"
    default_margin_fraction = 0.1

    def response_values(self, table: ResponseTable) -> np.ndarray:
        query_aspects = [aspects or (query,) for aspects, query in zip(self.aspects_of(table.queries), table.queries)]
        sentences = [analysis.sentence_texts for analysis in self.text_analyzer.analyse(table.texts)]
        self.embed_distinct([*query_aspects, *sentences])
        values = []
        for aspects, response_sentences in zip(query_aspects, sentences):
            if not response_sentences:
                values.append(np.nan)
                continue
            similarity = self.sentence_similarity.embed(aspects) @ self.sentence_similarity.embed(response_sentences).T
            values.append(float(similarity.max(axis=1).mean()))
        return np.array(values, dtype=float)


COV5 = QueryAspectCoverageAxiom


#: What a response calls the retrieved passages when it talks about them.
_SOURCES = r"(?:context|docs?|documents?|passages?|references?|sources?|texts?|excerpts?|search results?|snippets?)"

#: Phrases of a sentence that declines to answer or talks about the sources, the question or the
#: answerer (regular expressions, matched case-insensitively anywhere in a sentence).
NON_ANSWER_PATTERNS: tuple[str, ...] = (
    # the sources themselves: "based on the provided references", "the documents provided do not ..."
    rf"\b(?:provided|given|above|retrieved|available|supplied)\s+{_SOURCES}\b",
    rf"\baccording to (?:the )?{_SOURCES}(?:\s*\d+)?(?=[\s,.:;]|$)",
    rf"\b(?:the|this|these|that) {_SOURCES}(?:\s+(?:provided|given|above))?\s+(?:does|do|did)\s*(?:not|n't)\b",
    # missing information: "there is no specific mention of ...", "X is not mentioned"
    r"\bthere (?:is|are|was|were) no (?:\w+ ){0,2}(?:mention|information|details)\b",
    r"\bno (?:specific |direct |explicit |further )?(?:mention|information) (?:of|about|on|regarding)\b",
    r"\b(?:is|are|was|were)(?: not|n't) (?:explicitly |specifically |directly )?"
    r"(?:mentioned|specified|stated|discussed|addressed)\b",
    r"\b(?:not enough|insufficient|not sufficient) information\b",
    r"\benough information to (?:answer|determine|say|conclude)\b",
    r"\bunable to (?:find|determine|answer|provide|locate)\b",
    # the question and the answerer: "to answer your question", "I cannot ..."
    r"\b(?:the|your|this) (?:query|question|inquiry)\b(?! of\b)",  # not "the question of whether ..."
    r"\bI(?:'ll| will| cannot| can't| can not| am unable| was unable| could not| couldn't| do not have| don't have"
    r"| apologi[sz]e| am sorry|'m sorry| am an AI)\b",
    r"\bas an AI\b",
)
_NON_ANSWER = re.compile("|".join(f"(?:{pattern})" for pattern in NON_ANSWER_PATTERNS), re.IGNORECASE)


def is_non_answer(sentence: str) -> bool:
    """Whether a sentence declines to answer or talks about the sources, the question or the answerer."""
    return _NON_ANSWER.search(sentence) is not None


class NonAnswerCoverageAxiom(TextFeatureAxiom):
    """COV6: prefer responses with a lower share of sentences that decline to answer or talk about the sources.

    Intuition: every sentence of a good answer is about the topic. A sentence that says the
    sources do not mention something ("The provided text does not discuss ..."), that refers to
    the sources instead of stating what they say ("According to Doc 3, ..."), or that speaks about
    the question or the answerer ("I'll answer based on the provided references") covers nothing
    of the information need, and an answer of such sentences is a refusal. A sentence counts when
    it contains one of :data:`NON_ANSWER_PATTERNS`; the value is the share of such sentences,
    lower is better. NaN for a response without sentences. Needs no model beyond the sentences.
    """

    short_name = "COV6"
    default_margin_fraction = 0.1
    prefer_higher = False

    def text_value(self, analysis: TextAnalysis) -> float:
        return analysis.sentence_share(_NON_ANSWER)


COV6 = NonAnswerCoverageAxiom


class OnTopicAspectCoverageAxiom(AspectAxiom):
    """COV7: prefer responses that state more distinct aspects in sentences about the query.

    Intuition: COV1 counts every distinct aspect of a response, also those of sentences that stray
    from the request; a reader (and a nugget assessor) only gains from the facts about the
    request. Each distinct aspect of the response (noun chunks by default) counts with the cosine
    similarity to the query of the most similar sentence it occurs in, negative similarities as 0;
    the value is the sum. So an aspect stated in an on-topic sentence counts almost fully, one in
    an off-topic sentence next to nothing, and, unlike COV5, a response that answers more aspects
    of the request gains. Higher is better; 0 for a response without aspects.
    """

    short_name = "COV7"
    default_margin_fraction = 0.1

    def response_values(self, table: ResponseTable) -> np.ndarray:
        analyses = self.text_analyzer.analyse(table.texts, verbose=self.verbose)
        sentences = [analysis.sentence_texts for analysis in analyses]
        self.embed_distinct([table.queries, *sentences])
        values = []
        for query, analysis, response_sentences in zip(table.queries, analyses, sentences):
            aspects = self.aspects(analysis)
            if not aspects or not response_sentences:
                values.append(0.0)
                continue
            relevance = self.sentence_similarity.embed(response_sentences) @ self.sentence_similarity.embed([query])[0]
            # the sentences about the query, most similar first: an aspect's first one is its best
            ranked = [
                (float(relevance[index]), normalize_aspect(response_sentences[index]))
                for index in np.argsort(-relevance, kind="stable")
                if relevance[index] > 0
            ]
            values.append(
                sum(next((score for score, sentence in ranked if states(sentence, aspect)), 0.0) for aspect in aspects)
            )
        return np.array(values, dtype=float)


def states(sentence: str, aspect: str) -> bool:
    """Whether ``aspect`` occurs in ``sentence`` as whole words (both normalised by :func:`normalize_aspect`).

    The same test as the regular expression ``(?<!\\w)aspect(?!\\w)``, by ``str.find``: compiling one
    expression per aspect made COV7 14 times slower on the development answers.
    """
    start = sentence.find(aspect)
    while start != -1:
        end = start + len(aspect)
        if not (start and _is_word_character(sentence[start - 1])) and not (
            end < len(sentence) and _is_word_character(sentence[end])
        ):
            return True
        start = sentence.find(aspect, start + 1)
    return False


def _is_word_character(character: str) -> bool:
    return character.isalnum() or character == "_"


COV7 = OnTopicAspectCoverageAxiom


@parameters
class NuggetCoverageAxiom(FeatureAxiom):
    """COV8: prefer the response that supports more of the topic's nuggets.

    Intuition: a response is better the more of its topic's key facts (nuggets) it states. The
    value is the TREC RAG nugget score of the response (by default the All score: the share of
    the topic's nuggets it supports, partial support counting 0.5), from nuggets assigned without
    an LLM by :class:`~pyterrier_rag_axioms.nuggets.NuggetAssigner`, through the same function as
    human assignments (:func:`~pyterrier_rag_axioms.judgments.nugget_scores`). Higher is better.
    The nuggets come from the user (a frame or a TREC RAG nugget file); a response whose topic has
    no nuggets is an error naming the topic. The column is ``COV8``, with ``_VITAL``/``_WEIGHTED``
    and ``_STRICT`` appended for the other settings, as for the human-nugget oracle TREC_RAG_NUGGET.
    """

    short_name = "COV8"
    registry_group = "nugget"
    default_margin_fraction = 0.0

    #: The nuggets: a frame or file (see :func:`~pyterrier_rag_axioms.nuggets.load_nuggets`).
    nuggets: pd.DataFrame | str | Path = parameter(MISSING, shown=shown_source)
    #: ``"all"``, ``"vital"`` or ``"weighted"`` nuggets.
    score_type: NuggetScoreType = parameter("all", choices=NUGGET_SCORE_TYPES)
    #: Count partial support as 0 instead of 0.5.
    strict: bool = parameter(False)
    #: The assigner's fitted decision (default: the shipped model).
    model: NuggetModel | str | Path | None = parameter(None, shown=shown_source)
    #: A sentence-transformers model name or path (default: all-MiniLM-L6-v2).
    sentence_model: str | None = parameter(None)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.assigner = NuggetAssigner(
            nuggets=self.nuggets, model=self.model, sentence_model=self.sentence_model, verbose=self.verbose
        )

    def default_name(self) -> str:
        name = self.short_name + ("" if self.score_type == "all" else f"_{self.score_type.upper()}")
        return name + ("_STRICT" if self.strict else "")

    def response_values(self, table: ResponseTable) -> np.ndarray:
        responses = table.responses[["qid", "query", "docno", "response"]]
        scores = nugget_scores(self.assigner(responses), score_type=self.score_type, strict=self.strict)
        index = pd.MultiIndex.from_frame(responses[["qid", "docno"]].astype(str))
        return scores.set_index(["qid", "docno"])["score"].reindex(index).to_numpy(dtype=float)


COV8 = NuggetCoverageAxiom
