"""Length: the transparent baseline that human judges reward.

Readers of RAG answers, crowd workers and nugget assessors alike, tend to prefer the longer of two
answers: a longer answer has room for more facts. LEN1 makes this bias visible as an axiom of its
own, so that other axioms (and fitted combinations of them) can be compared with it.
"""

from __future__ import annotations

import numpy as np

from pyterrier_rag_axioms.axioms._base import FeatureAxiom
from pyterrier_rag_axioms.frames import ResponseTable
from pyterrier_rag_axioms.tools.lexical import words


class ResponseLengthAxiom(FeatureAxiom):
    """LEN1: prefer the longer response.

    Intuition: a longer response can convey more information, and people reward length. The value
    is the number of words (runs of letters and digits; citation markers such as ``[0,1]`` do not
    count); higher is better. Needs no model.
    """

    short_name = "LEN1"
    default_margin_fraction = 0.1

    def response_values(self, table: ResponseTable) -> np.ndarray:
        return np.array([len(words(text)) for text in table.texts], dtype=float)


LEN1 = ResponseLengthAxiom
