"""Answer first: does the response address the request in its opening sentence?"""

from __future__ import annotations

import numpy as np

from pyterrier_rag_axioms.axioms._analyzed import EmbeddingFeatureAxiom
from pyterrier_rag_axioms.frames import ResponseTable


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
            queries = self.sentence_similarity.embed([table.queries[index] for index in present], verbose=self.verbose)
            sentences = self.sentence_similarity.embed([openings[index] for index in present], verbose=self.verbose)
            values[present] = np.einsum("ij,ij->i", queries, sentences)
        return values


CORR5 = AnswerFirstCorrectnessAxiom
