"""Coverage from the viewpoint of the query (COV5): is every aspect of the request answered somewhere?"""

from __future__ import annotations

import numpy as np

from pyterrier_rag_axioms.axioms.coverage.aspects import AspectAxiom
from pyterrier_rag_axioms.frames import ResponseTable


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
            similarity = self.encoder.embed(aspects) @ self.encoder.embed(response_sentences).T
            values.append(float(similarity.max(axis=1).mean()))
        return np.array(values, dtype=float)


COV5 = QueryAspectCoverageAxiom
