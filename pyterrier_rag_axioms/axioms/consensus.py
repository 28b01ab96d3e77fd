"""Consensus with the other responses to the same request: what several systems say is likely a key fact."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from pyterrier_rag_axioms.base import FeatureAxiom
from pyterrier_rag_axioms.frames import ResponseTable
from pyterrier_rag_axioms.tools.lexical import content_words


class ConsensusCoverageAxiom(FeatureAxiom):
    """COV6: prefer responses that contain more of what the other responses to the request say.

    Intuition (after pooling in TREC and reference-free pyramid evaluation): facts that several
    independent responses to the same request state are likely the key facts, the nuggets, of a
    good answer; a response that covers more of them covers the request better. Each response is
    the set of its content words (lower-cased, without stop words and citation markers); the
    value is the mean, over the *other* responses to the same request (``qid``) in the frame, of
    the share of their content words that the response contains. Higher is better. NaN where no
    other response to the request has content words.

    Unlike every other axiom, the value of a response depends on the other responses of its
    request in the frame (its *pool*): judge all responses of a request together (a response
    frame, or a preference frame with all pairs), and under ``.parallel`` pass a response frame,
    which PyTerrier splits by ``qid``. Swapping a and b still negates the preference, and row order
    does not change it.
    """

    short_name = "COV6"
    default_margin_fraction = 0.1
    #: The value depends on the other responses to the same request in the frame.
    reads_pool: ClassVar[bool] = True

    def response_values(self, table: ResponseTable) -> np.ndarray:
        word_sets = [frozenset(content_words(text)) for text in table.texts]
        qids = table.responses["qid"].astype(str).to_numpy()
        values = np.full(len(word_sets), np.nan)
        for qid in dict.fromkeys(qids):
            members = np.flatnonzero(qids == qid)
            for member in members:
                own = word_sets[member]
                shares = [len(own & word_sets[other]) / len(word_sets[other])
                          for other in members if other != member and word_sets[other]]
                if shares:
                    values[member] = float(np.mean(shares))
        return values


COV6 = ConsensusCoverageAxiom
