"""Oracle axioms: preferences derived from human or LLM judgments instead of from the texts.

They let researchers compare the RAG axioms with judgments, and rank responses by what judges
said. Each oracle reads its judgments from local files (see :mod:`pyterrier_rag_axioms.judgments.dataset`)
when it is built, and matches the responses it is given to judged responses:

1. by ids: ``qid`` and ``docno`` (the topic and the run or response id of the judgments file);
2. else by exact text: ``qid`` and ``response``;
3. else by exact text of both query and response (for topic ids that differ from the file's).

Responses that match nothing have no value, and a pair without judgments gets no preference
(``0.0``). Matching never uses Python's ``hash()``, whose values change from process to process.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import MISSING
from pathlib import Path

import numpy as np
import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.axioms._base import Axiom, FeatureAxiom, compare_with_margin, parameter, parameters
from pyterrier_rag_axioms.declaration import shown_source
from pyterrier_rag_axioms.frames import ResponseTable
from pyterrier_rag_axioms.judgments import (
    CROWDRAG_DIMENSIONS,
    NUGGET_SCORE_TYPES,
    NuggetScoreType,
    load_crowdrag_judgments,
    load_crowdrag_responses,
    load_llm_ratings,
    load_nugget_assignments,
    nugget_scores,
)

#: The keys tried, in order, to match a response with a judged response.
MATCH_KEYS: tuple[tuple[str, str], ...] = (("qid", "docno"), ("qid", "response"), ("query", "response"))

#: Utility types of :class:`TrecRagCrowdAxiom` and the CrowdRAG-25 dimensions each averages. The
#: seven dimensions go by their names in the ratings file; "coherence" and "coverage" average
#: their two dimensions; the other keys are readable aliases.
CROWD_UTILITY_TYPES: dict[str, tuple[str, ...]] = {
    **{dimension: (dimension,) for dimension in CROWDRAG_DIMENSIONS},
    "coherence": ("coherence_logical", "coherence_stylistic"),
    "coverage": ("coverage_broad", "coverage_deep"),
    "overall": ("quality_overall",),
    "logical coherence": ("coherence_logical",),
    "stylistic coherence": ("coherence_stylistic",),
    "broad coverage": ("coverage_broad",),
    "deep coverage": ("coverage_deep",),
    "internal consistency": ("consistency_internal",),
    "consistency": ("consistency_internal",),
    "topical correctness": ("correctness_topical",),
    "correctness": ("correctness_topical",),
}


def _load(source: str | Path | pd.DataFrame, loader: Callable[[str | Path], pd.DataFrame]) -> pd.DataFrame:
    """A judgments frame: ``source`` itself, or what ``loader`` reads from the file ``source``."""
    return source if isinstance(source, pd.DataFrame) else loader(source)


def _key_index(frame: pd.DataFrame, keys: Sequence[str]) -> pd.MultiIndex:
    return pd.MultiIndex.from_arrays([frame[key].astype(str).to_numpy() for key in keys], names=list(keys))


def match_values(judged: pd.DataFrame, values: np.ndarray, responses: pd.DataFrame) -> np.ndarray:
    """The judged value of each response, matched by :data:`MATCH_KEYS` (NaN where nothing matches).

    Where several judged responses share a text key (e.g. two runs with the same answer), the
    value is their mean.

    Args:
        judged: the judged responses (``qid``, ``query``, ``docno``, ``response``).
        values: one value per row of ``judged``.
        responses: the responses to look up (same columns).
    """
    result = np.full(len(responses), np.nan)
    matched = np.zeros(len(responses), dtype=bool)
    series = pd.Series(np.asarray(values, dtype=float))
    for keys in MATCH_KEYS:
        if matched.all():
            break
        table = series.groupby(_key_index(judged, keys), sort=False).mean()
        positions = table.index.get_indexer(_key_index(responses, keys))
        found = (positions >= 0) & ~matched
        result[found] = table.to_numpy()[positions[found]]
        matched |= found
    return result


def match_positions(judged: pd.DataFrame, responses: pd.DataFrame) -> np.ndarray:
    """The row of ``judged`` each response matches by :data:`MATCH_KEYS` (the first one), or -1."""
    result = np.full(len(responses), -1, dtype=int)
    for keys in MATCH_KEYS:
        unmatched = result < 0
        if not unmatched.any():
            break
        index = _key_index(judged, keys)
        first = ~index.duplicated()
        table = pd.Series(np.flatnonzero(first), index=index[first])
        positions = table.index.get_indexer(_key_index(responses, keys))
        found = (positions >= 0) & unmatched
        result[found] = table.to_numpy()[positions[found]]
    return result


@parameters
class TrecRagNuggetAxiom(FeatureAxiom):
    """TREC_RAG_NUGGET: prefer the response that covers more information nuggets.

    Intuition: a response is better the more of its topic's key facts (nuggets) it states. The
    value is the nugget score of the TREC 2024 RAG track's assignments
    (:func:`~pyterrier_rag_axioms.judgments.nugget_score`): the share of the topic's nuggets that
    the response supports (1) or partially supports (0.5, or 0 when ``strict``), over all
    nuggets, vital nuggets only, or weighted (vital 1, okay 0.5). Higher is better; unjudged
    responses have no value and get no preference. The default column name is
    ``TREC_RAG_NUGGET``, with ``_VITAL``/``_WEIGHTED`` and ``_STRICT`` appended for the other settings.
    """

    short_name = "TREC_RAG_NUGGET"
    registry_group = "oracle"
    default_margin_fraction = 0.0

    #: The nugget assignments file (JSON lines, gzip or not), or the frame of
    #: :func:`~pyterrier_rag_axioms.judgments.load_nugget_assignments`.
    assignments_path: str | Path | pd.DataFrame = parameter(MISSING, shown=shown_source)
    #: ``"all"``, ``"vital"`` or ``"weighted"`` nuggets.
    score_type: NuggetScoreType = parameter("all", choices=NUGGET_SCORE_TYPES)
    #: Count partial support as 0 instead of 0.5.
    strict: bool = parameter(False)

    def __post_init__(self) -> None:
        super().__post_init__()
        assignments = _load(self.assignments_path, load_nugget_assignments)
        self.judged = assignments[["qid", "query", "docno", "response"]].reset_index(drop=True)
        scores = nugget_scores(assignments, score_type=self.score_type, strict=self.strict)
        self.scores = scores["score"].to_numpy(dtype=float)

    def default_name(self) -> str:
        name = self.short_name + ("" if self.score_type == "all" else f"_{self.score_type.upper()}")
        return name + ("_STRICT" if self.strict else "")

    def response_values(self, table: ResponseTable) -> np.ndarray:
        return match_values(self.judged, self.scores, table.responses)


@parameters
class TrecRagLlmOrigAxiom(FeatureAxiom):
    """TREC_RAG_LLM_ORIG: prefer the response that an LLM rated more likely.

    Intuition: like ORIG for retrieval, a baseline that ranks by a model's own score. The value is
    the likelihood that an LLM assigns to the response under a RAG prompt (the ``probability`` of
    a CrowdRAG-25 LLM ratings file); higher is better. Unrated responses get no preference.
    """

    short_name = "TREC_RAG_LLM_ORIG"
    registry_group = "oracle"
    default_margin_fraction = 0.0

    #: The LLM ratings file, or the frame of :func:`~pyterrier_rag_axioms.judgments.load_llm_ratings`.
    ratings_path: str | Path | pd.DataFrame = parameter(MISSING, shown=shown_source)

    def __post_init__(self) -> None:
        super().__post_init__()
        ratings = _load(self.ratings_path, load_llm_ratings)
        self.judged = ratings[["qid", "query", "docno", "response"]].reset_index(drop=True)
        self.probabilities = ratings["probability"].to_numpy(dtype=float)

    def response_values(self, table: ResponseTable) -> np.ndarray:
        return match_values(self.judged, self.probabilities, table.responses)


@parameters
class TrecRagCrowdAxiom(Axiom):
    """TREC_RAG_CROWD: prefer the response that crowd workers judged more useful.

    Intuition: the people who compared the two responses know best. For each judged pair of
    CrowdRAG-25, the ratings file holds the probabilities ``p_a`` and ``p_b`` that response a or b
    is better for a utility dimension (aggregated over five workers). The utility of a response
    in a pair is that probability, averaged over the dimensions of the ``utility_type`` (e.g.
    logical and stylistic coherence for ``"coherence"``) and over repeated judgments of the pair.
    Rule: prefer a when ``p_a - p_b > margin_fraction * max(p_a, p_b)``, b in the mirrored case,
    and no preference otherwise; a pair nobody judged gets no preference. The default column name
    is ``TREC_RAG_CROWD_<UTILITY_TYPE>`` (upper case, spaces as underscores).
    """

    short_name = "TREC_RAG_CROWD"
    registry_group = "oracle"
    default_margin_fraction = 0.1

    #: The ratings file, or the frame of :func:`~pyterrier_rag_axioms.judgments.load_crowdrag_judgments`.
    ratings_path: str | Path | pd.DataFrame = parameter(MISSING, shown=shown_source)
    #: The responses file, or the frame of
    #: :func:`~pyterrier_rag_axioms.judgments.load_crowdrag_responses`; needed to match responses
    #: by text. Without it, responses are matched by ``qid`` and ``docno`` only.
    responses_path: str | Path | pd.DataFrame | None = parameter(None, shown=shown_source)
    #: A key of :data:`CROWD_UTILITY_TYPES`, e.g. ``"quality_overall"``, ``"coherence"``,
    #: ``"coverage_deep"`` or ``"broad coverage"``.
    utility_type: str = parameter("quality_overall", choices=CROWD_UTILITY_TYPES)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.dimensions = CROWD_UTILITY_TYPES[self.utility_type]
        self.judged = None
        if self.responses_path is not None:
            responses = _load(self.responses_path, load_crowdrag_responses)
            self.judged = responses[["qid", "query", "docno", "response"]].reset_index(drop=True)
        self.utilities = self._pair_utilities(_load(self.ratings_path, load_crowdrag_judgments))

    def default_name(self) -> str:
        return f"{self.short_name}_{self.utility_type.upper().replace(' ', '_')}"

    def _pair_utilities(self, judgments: pd.DataFrame) -> pd.DataFrame:
        """Utility of each side of each judged pair, in both orientations, indexed by (qid, docno_x, docno_y)."""
        needed = [f"{dimension}_p_{side}" for dimension in self.dimensions for side in ("a", "b")]
        pt.validate.columns(judgments, includes=["qid", "docno_a", "docno_b", *needed], context=self)
        p_a = judgments[[f"{dimension}_p_a" for dimension in self.dimensions]].mean(axis=1).to_numpy(dtype=float)
        p_b = judgments[[f"{dimension}_p_b" for dimension in self.dimensions]].mean(axis=1).to_numpy(dtype=float)
        qids = judgments["qid"].astype(str).to_numpy()
        docnos_a = judgments["docno_a"].astype(str).to_numpy()
        docnos_b = judgments["docno_b"].astype(str).to_numpy()
        both = pd.DataFrame(
            {
                "qid": np.concatenate([qids, qids]),
                "x": np.concatenate([docnos_a, docnos_b]),
                "y": np.concatenate([docnos_b, docnos_a]),
                "p_x": np.concatenate([p_a, p_b]),
                "p_y": np.concatenate([p_b, p_a]),
            }
        )
        # A pair listed more than once (in either orientation) counts with the mean of its judgments.
        return both.groupby(["qid", "x", "y"], sort=False)[["p_x", "p_y"]].mean()

    def judged_keys(self, responses: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
        """The topic and response id of the judged response each response matches (``None`` where none)."""
        qids = responses["qid"].astype(str).to_numpy(dtype=object)
        docnos = responses["docno"].astype(str).to_numpy(dtype=object)
        if self.judged is None:
            return qids, docnos
        positions = match_positions(self.judged, responses)
        found = positions >= 0
        judged_qids = self.judged["qid"].astype(str).to_numpy(dtype=object)[np.maximum(positions, 0)]
        judged_docnos = self.judged["docno"].astype(str).to_numpy(dtype=object)[np.maximum(positions, 0)]
        return np.where(found, judged_qids, qids), np.where(found, judged_docnos, None)

    def preferences(self, table: ResponseTable) -> np.ndarray:
        qids, docnos = self.judged_keys(table.responses)
        index = pd.MultiIndex.from_arrays([qids[table.a], docnos[table.a], docnos[table.b]])
        found = self.utilities.reindex(index)
        return compare_with_margin(
            found["p_x"].to_numpy(dtype=float), found["p_y"].to_numpy(dtype=float), margin_fraction=self.margin_fraction
        )


TREC_RAG_NUGGET = TrecRagNuggetAxiom
TREC_RAG_CROWD = TrecRagCrowdAxiom
TREC_RAG_LLM_ORIG = TrecRagLlmOrigAxiom
