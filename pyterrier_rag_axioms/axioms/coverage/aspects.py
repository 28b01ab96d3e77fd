"""Broad and deep coverage by the aspects of a response (COV1-COV3), and the base of every aspect axiom.

Broad coverage: does the response cover diverse information? Deep coverage: does the response
provide in-depth and highly informative content?
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence

import numpy as np

from pyterrier_rag_axioms.axioms._analyzed import EmbeddingFeatureAxiom
from pyterrier_rag_axioms.axioms._base import parameter, parameters, resolve_tool
from pyterrier_rag_axioms.frames import ResponseTable
from pyterrier_rag_axioms.tools.text import AspectsArgument, resolve_aspects


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
            centroid = self.encoder.embed(aspects).mean(axis=0)
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
                centroids[aspects] = self.encoder.embed(aspects).mean(axis=0)
            # sum_s mean_a <s, a> = sum_s <s, mean_a a>
            values.append(float((self.encoder.embed(response_sentences) @ centroids[aspects]).sum()))
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
