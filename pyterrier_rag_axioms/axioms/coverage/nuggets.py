"""Nuggets (COV8): how many of the topic's nuggets (the facts TREC RAG asks of an answer) the response
supports, assigned without an LLM."""

from __future__ import annotations

from dataclasses import MISSING
from pathlib import Path

import numpy as np
import pandas as pd

from pyterrier_rag_axioms.axioms._base import FeatureAxiom, parameter, parameters
from pyterrier_rag_axioms.declaration import shown_source
from pyterrier_rag_axioms.frames import ResponseTable
from pyterrier_rag_axioms.judgments import NUGGET_SCORE_TYPES, NuggetScoreType, nugget_scores
from pyterrier_rag_axioms.nuggets import NuggetAssigner, NuggetModel
from pyterrier_rag_axioms.tools.embeddings.naming import RENAMED


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
    #: The assigner's sentence encoder, ``"MODEL"`` or ``"MODEL:BACKEND"`` (default: the assigner's,
    #: all-MiniLM-L6-v2 with ONNX; see :mod:`~pyterrier_rag_axioms.tools.embeddings.naming`).
    encoder: str | None = parameter(None, formerly=RENAMED)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.assigner = NuggetAssigner(
            nuggets=self.nuggets, model=self.model, encoder=self.encoder, verbose=self.verbose
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
