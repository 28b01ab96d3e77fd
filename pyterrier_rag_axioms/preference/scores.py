"""The pointwise path of a :class:`~pyterrier_rag_axioms.preference.PreferenceModel`: one score per
response, ``sum_i w_i t(x_i) / s_i`` (plus ``reference_weight`` times its reference score where
the frame carries reference answers, :mod:`~pyterrier_rag_axioms.preference.reference`; less
``grounding_weight`` times its unsupported information where it carries passages,
:mod:`~pyterrier_rag_axioms.preference.grounding`), linear in
the number of responses.

The pairwise model's log-odds that a beats b is the difference of these scores (where neither
value is NaN), so the scores rank a query's responses as the pairs do; averaged per run over
topics (:func:`~pyterrier_rag_axioms.evaluation.mean_run_scores`), they rank systems without
building pairs.
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.frames import (
    NAMES_ATTR,
    ResponseTable,
    is_preference_frame,
    preference_frame,
    response_frame,
    restore_names,
)
from pyterrier_rag_axioms.preference._view import ModelView
from pyterrier_rag_axioms.preference.features import transformed_values
from pyterrier_rag_axioms.preference.grounding import grounding_values
from pyterrier_rag_axioms.preference.reference import reference_values
from pyterrier_rag_axioms.runtime.cache import flush_caches


def _table_scores(model: ModelView, table: ResponseTable, verbose: bool) -> np.ndarray:
    """The score of each response of ``table`` (see :func:`response_scores`)."""
    weights = np.asarray(model.fitted_coefficients())
    scores = np.zeros(len(table))
    qids = table.responses["qid"].to_numpy()
    features = [(axiom, weight, scale) for axiom, weight, scale in zip(model.computed_axioms(), weights, model.scales)
                if weight != 0.0 and len(table)]
    for axiom, weight, scale in pt.tqdm(features, desc=model.name, unit="axiom", disable=not verbose):
        values = transformed_values(np.asarray(axiom.cached_values(table), dtype=float), model.value_transform)
        scores += weight / scale * imputed(values[:, None], qids)[:, 0]
    reference = reference_values(model, table) if len(table) else None
    if reference is not None:  # a topic without a reference answer gains nothing
        scores += model.reference_weight * np.nan_to_num(reference, nan=0.0)
    grounding = grounding_values(model, table) if len(table) else None
    if grounding is not None:  # a response without passages counts as its query's others do
        scores -= model.grounding_weight * np.nan_to_num(imputed(grounding[:, None], qids)[:, 0], nan=0.0)
    return scores


def _topic_scores(
    model: ModelView, responses: pd.DataFrame, topics: list[str], verbose: bool
) -> tuple[np.ndarray, np.ndarray]:
    """The positions of the responses of ``topics`` in the response frame, and their scores."""
    positions = np.flatnonzero(responses["qid"].isin(topics).to_numpy())
    return positions, _table_scores(model, ResponseTable.from_responses(responses.iloc[positions]), verbose)


def prepare_models(model: ModelView) -> None:
    """Load the spaCy models of the features and build their encoders' model files, for worker processes to inherit."""
    for axiom in model.computed_axioms():
        analyzer = getattr(axiom, "text_analyzer", None)
        if analyzer is not None:
            analyzer.nlp  # noqa: B018 (loads it)
        similarity = getattr(axiom, "encoder", None)
        if hasattr(similarity, "prepare"):  # an ONNX model file is built and checked here, never in a worker
            similarity.prepare()


def imputed(values: np.ndarray, qids: np.ndarray) -> np.ndarray:
    """Transformed values with each NaN or infinite one replaced by the mean of its query's other
    values (0 where the query has none), column by column."""
    values = np.where(np.isfinite(values), values, np.nan)
    means = pd.DataFrame(values).groupby(qids).transform("mean").to_numpy()
    return np.where(np.isnan(values), np.nan_to_num(means), values)


def response_scores(model: ModelView, inp: pd.DataFrame) -> pd.DataFrame:
    """Each response's score under ``model`` as column ``<name>_score`` of a response frame.

    Given a preference frame, its distinct responses are scored. Only features of non-zero weight
    are computed. A value that cannot be computed (NaN) counts as the mean of the query's other
    values of that feature, so it neither helps nor hurts (a pair's NaN difference counts 0).
    A response frame's topics are scored in worker processes, whole topics each, where there are
    cores for them (``model.processes``, :meth:`~pyterrier_rag_axioms.runtime.by_topic.ByTopic.by_topic`): a
    score depends only on its topic's responses, so the scores are the serial ones.
    """
    model.fitted_coefficients()  # a model without weights says so before any work
    if is_preference_frame(inp):
        table = ResponseTable.from_pairs(preference_frame(inp, model))
        responses = table.responses.copy()
        scores = _table_scores(model, table, model.verbose)
    else:
        responses = response_frame(inp, model)
        scores = np.zeros(len(responses))
        work = functools.partial(_topic_scores, model, responses)
        for positions, part in model.by_topic(work, responses, desc=model.name):
            scores[positions] = part
    flush_caches()
    frame = responses.assign(**{f"{model.name}_score": scores})
    return restore_names(frame, responses.attrs.get(NAMES_ATTR, {}))
