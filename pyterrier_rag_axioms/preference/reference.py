"""The reference term of a :class:`~pyterrier_rag_axioms.preference.PreferenceModel`.

Where the judged frame carries pyterrier-rag's reference answers (``gold_answer``: a string or a
list of alternative answers, one per response row, or ``gold_answer_a``/``gold_answer_b`` of a
preference frame) and the model's ``reference_weight`` is not 0, the log-odds that a beats b
gains ``reference_weight * (r(a) - r(b))``, where ``r`` is a response's
:func:`~pyterrier_rag_axioms.nuggets.reference.reference_score` against its topic's reference
answers. A topic without a reference answer (a missing or blank value) gains nothing, and so does
every pair where the frame has no such column: the model then decides as without the term.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from pyterrier_rag_axioms.frames import GOLD_ANSWER, ResponseTable, gold_answer_texts, source_column
from pyterrier_rag_axioms.preference._view import ModelView


def reference_answers(table: ResponseTable, name: str) -> pd.DataFrame | None:
    """The gold-answer frame (``qid``, ``query``, ``gold_answer``) of the table's topics that have a
    reference answer; ``None`` where the frame carries no ``gold_answer``.

    Raises:
        ValueError: a ``gold_answer`` that is no text, or two responses of one qid that carry
            different reference answers; the message names the model and the qid.
    """
    values = source_column(table, GOLD_ANSWER, per_pair=True)  # per response, or one per pair
    if values is None:
        return None
    answers_of: dict[str, tuple[str, ...]] = {}
    query_of: dict[str, str] = {}
    for qid, query, docno, value in zip(table.responses["qid"], table.responses["query"],
                                        table.responses["docno"], values):
        answers = gold_answer_texts(value, f"{name}: qid {qid!r}, docno {docno!r}")
        if answers and answers_of.setdefault(qid, answers) != answers:
            raise ValueError(f"{name}: the responses of qid {qid!r} carry different {GOLD_ANSWER} values; "
                             "give each topic's reference answers once (a list for several)")
        query_of[qid] = query
    return pd.DataFrame({"qid": list(answers_of), "query": [query_of[qid] for qid in answers_of],
                         GOLD_ANSWER: [list(answers) for answers in answers_of.values()]})


def reference_values(model: ModelView, table: ResponseTable) -> np.ndarray | None:
    """Each response's reference score (NaN where its topic has no reference answer); ``None`` where
    the model's ``reference_weight`` is 0 or the frame carries no reference answer."""
    if model.reference_weight == 0.0:
        return None
    answers = reference_answers(table, model.name)
    if answers is None or answers.empty:
        return None
    from pyterrier_rag_axioms.nuggets.reference import SCORE_COLUMN, reference_score

    responses = table.responses[table.responses["qid"].isin(answers["qid"])][["qid", "query", "docno", "response"]]
    scored = reference_score(responses, answers)
    score_of = dict(zip(zip(scored["qid"].astype(str), scored["docno"].astype(str)), scored[SCORE_COLUMN]))
    keys = zip(table.responses["qid"].astype(str), table.responses["docno"].astype(str))
    return np.array([score_of.get(key, np.nan) for key in keys], dtype=float)


def reference_logits(model: ModelView, table: ResponseTable) -> np.ndarray | None:
    """Each pair's reference term of the log-odds, ``reference_weight * (r(a) - r(b))`` (0 where a
    topic has no reference answer); ``None`` where there is no term (see :func:`reference_values`)."""
    values = reference_values(model, table)
    if values is None:
        return None
    differences = values[table.a] - values[table.b]
    return model.reference_weight * np.where(np.isfinite(differences), differences, 0.0)
