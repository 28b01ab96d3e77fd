"""Correctness axioms, CORR1-CORR5.

Factuality: does the response state things that are verifiable? Topical correctness: does the
response stay within the scope of the information need? (CORR1)

Citation axioms beyond CORR1: do the citations point at passages that exist and that say what the sentence says?

A citation marker such as ``[0,2]`` refers to passages of the response's retrieved context by
their (0-based) position. CORR1 counts the sentences with a marker; these axioms check the
markers: CORR2 whether the cited passages support the sentence, CORR3 whether the cited passages
exist, CORR4 counts references in other formats (URLs, author-year, footnotes) as well.

Answer first (CORR5): does the response address the request in its opening sentence?
"""

from __future__ import annotations

import re

import numpy as np

from pyterrier_rag_axioms.axioms._analyzed import AnalyzedFeatureAxiom, EmbeddingFeatureAxiom, TextFeatureAxiom
from pyterrier_rag_axioms.axioms._base import parameter, parameters
from pyterrier_rag_axioms.frames import ResponseTable
from pyterrier_rag_axioms.tools.lexical import cited_numbers, content_words
from pyterrier_rag_axioms.tools.text import CITATION_PATTERN, TextAnalysis
from pyterrier_rag_axioms.tools.text.segmentation import MARKER_PATTERN


class CitationSentenceCorrectnessAxiom(TextFeatureAxiom):
    """CORR1: prefer responses with a higher share of sentences that cite a source.

    Intuition: a sentence that references a source can be verified. The value is the share of
    sentences with a citation marker such as ``[1]``, ``[0,1,2]``, ``[1-3]`` or ``[1][2]``; higher
    is better (the reference implementation prefers the lower share, against its own intuition).
    NaN for a response without sentences.
    """

    short_name = "CORR1"
    registry_group = "rag"
    default_margin_fraction = 0.1

    def text_value(self, analysis: TextAnalysis) -> float:
        return analysis.sentence_share(CITATION_PATTERN)


CORR1 = CitationSentenceCorrectnessAxiom


#: References in formats other than ``[1]``: URLs, ``(Source: ...)``, ``[Source 1]``/``[Doc 2]``,
#: markdown footnotes ``[^1]``, superscript numbers, and author-year citations ``(Smith, 2020)``.
REFERENCE_PATTERN = re.compile(
    "|".join(
        [
            MARKER_PATTERN.pattern,  # [1], and footnotes, superscripts, [Source 1], 【1†source】
            r"https?://\S+",
            r"\bwww\.[\w-]+\.\S+",
            r"\((?:source|sources|ref|reference|see)s?\s*:[^)]*\)",
            r"\([A-Z][A-Za-z'\-]+(?: et al\.?| and [A-Z][A-Za-z'\-]+)?,? (?:19|20)\d\d[a-z]?\)",
        ]
    ),
    re.IGNORECASE,
)


def _first_index(axiom: AnalyzedFeatureAxiom, first_index: int) -> int:
    if isinstance(first_index, bool) or not isinstance(first_index, int) or first_index < 0:
        raise ValueError(f"{type(axiom).__name__}: first_index must be an integer >= 0, not {first_index!r}")
    return first_index


@parameters
class _CitedContextAxiom(AnalyzedFeatureAxiom):
    """Base of the axioms that read a response's citation markers against its own context."""

    needs_context = True
    cites_passages = True

    #: The number that cites the first context passage (0, as in CrowdRAG-25 and the TREC 2024 RAG
    #: runs; 1 for responses that count from one).
    first_index: int = parameter(0, resolve=_first_index)


class CitationSupportCorrectnessAxiom(_CitedContextAxiom):
    """CORR2: prefer responses whose citing sentences are supported by the passages they cite.

    Intuition: a citation helps only if the cited source says what the sentence says. For each
    sentence with a citation marker that points at an existing context passage, the support is the
    share of the sentence's content words (lower-cased words without stop words and markers) that
    occur in the cited passages together; the value is the mean support over those sentences.
    Higher is better. NaN without context or without a sentence citing an existing passage.
    """

    short_name = "CORR2"
    default_margin_fraction = 0.1

    def response_values(self, table: ResponseTable) -> np.ndarray:
        analyses = self.text_analyzer.analyse(table.texts, verbose=self.verbose)
        passage_words: dict[str, frozenset[str]] = {}
        values = []
        for analysis, context in zip(analyses, table.contexts):
            supports = []
            for sentence in analysis.sentence_texts if context else ():
                cited = [n - self.first_index for n in cited_numbers(sentence)]
                cited = sorted({n for n in cited if 0 <= n < len(context)})
                sentence_words = set(content_words(sentence))
                if not cited or not sentence_words:
                    continue
                source: set[str] = set()
                for n in cited:
                    passage = context[n]
                    if passage not in passage_words:
                        passage_words[passage] = frozenset(content_words(passage))
                    source |= passage_words[passage]
                supports.append(len(sentence_words & source) / len(sentence_words))
            values.append(float(np.mean(supports)) if supports else np.nan)
        return np.array(values, dtype=float)


class CitationValidityCorrectnessAxiom(_CitedContextAxiom):
    """CORR3: prefer responses whose citations point at passages that exist.

    Intuition: a citation of a passage that was never retrieved (``[7]`` with five passages) cannot
    be checked and suggests an invented source. The value is the share of cited numbers (over all
    markers; ``[1-3]`` cites 1, 2 and 3) that index a passage of the response's context. Higher is
    better. NaN without context or without citations.
    """

    short_name = "CORR3"
    default_margin_fraction = 0.0

    def response_values(self, table: ResponseTable) -> np.ndarray:
        values = []
        for text, context in zip(table.texts, table.contexts):
            cited = [n - self.first_index for n in cited_numbers(text)]
            if not context or not cited:
                values.append(np.nan)
                continue
            values.append(sum(0 <= n < len(context) for n in cited) / len(cited))
        return np.array(values, dtype=float)


class ReferenceSentenceCorrectnessAxiom(TextFeatureAxiom):
    """CORR4: prefer responses with a higher share of sentences that reference a source, in any format.

    Intuition: like CORR1, a sentence that names its source can be verified, but sources are
    named in more ways than ``[1]``: URLs, ``(Source: ...)``, ``[Source 1]``, markdown footnotes
    ``[^1]``, superscript numbers and author-year citations ``(Smith, 2020)``
    (:data:`REFERENCE_PATTERN`). Higher is better. NaN for a response without sentences.
    """

    short_name = "CORR4"
    default_margin_fraction = 0.1

    def text_value(self, analysis: TextAnalysis) -> float:
        return analysis.sentence_share(REFERENCE_PATTERN)


CORR2 = CitationSupportCorrectnessAxiom
CORR3 = CitationValidityCorrectnessAxiom
CORR4 = ReferenceSentenceCorrectnessAxiom


class AnswerFirstCorrectnessAxiom(EmbeddingFeatureAxiom):
    """CORR5: prefer the response whose first sentence is semantically closer to the query.

    Intuition (topical correctness; the inverted pyramid of news writing): a good answer addresses
    the request at once, and readers judge whether a response is on topic from how it opens. A
    response that opens with background, with talk about its sources, or with another topic makes
    the reader search for the answer. The value is the cosine similarity of the sentence
    embeddings of the query and the response's first sentence; higher is better. NaN for a
    response without sentences.
    """

    short_name = "CORR5"
    default_margin_fraction = 0.1

    def response_values(self, table: ResponseTable) -> np.ndarray:
        analyses = self.text_analyzer.analyse(table.texts, verbose=self.verbose)
        openings = [analysis.sentence_texts[0] if analysis.sentence_texts else None for analysis in analyses]
        present = [index for index, opening in enumerate(openings) if opening is not None]
        values = np.full(len(openings), np.nan)
        if present:
            queries = self.encoder.embed([table.queries[index] for index in present], verbose=self.verbose)
            sentences = self.encoder.embed([openings[index] for index in present], verbose=self.verbose)
            values[present] = np.einsum("ij,ij->i", queries, sentences)
        return values


CORR5 = AnswerFirstCorrectnessAxiom
