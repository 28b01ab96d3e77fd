"""The grounding term of a :class:`~pyterrier_rag_axioms.preference.PreferenceModel`.

Where the frame carries each response's passages (``context``) and the model's ``grounding_weight``
is not 0, the log-odds that a beats b gains ``grounding_weight * (t(u(b)) - t(u(a)))``: ``u`` is a
response's expected unsupported information against its own passages (the value of
:class:`~pyterrier_rag_axioms.axioms.consistency.GroundedClaimsConsistencyAxiom`, CONS4) and ``t``
the model's value transform. So the model never prefers an answer for saying more where what it
adds is not in its passages. A pair where either response has no passages gains nothing, and so
does every pair of a frame without ``context``: the model then decides as without the term, bit
for bit. A pair where either response copies its passages (is extractive:
:mod:`~pyterrier_rag_axioms.grounding.extractive`) gains nothing either: such an answer is grounded
by construction, and preferring it for that only rewards the copying.
"""

from __future__ import annotations

import numpy as np

from pyterrier_rag_axioms.frames import ResponseTable
from pyterrier_rag_axioms.grounding.extractive import is_extractive
from pyterrier_rag_axioms.preference._view import ModelView


def grounding_values(model: ModelView, table: ResponseTable) -> np.ndarray | None:
    """Each response's transformed unsupported information (NaN where it has no passages or copies
    them); ``None`` where the model's ``grounding_weight`` is 0 or no response of the table has passages."""
    if model.grounding_weight == 0.0 or not any(table.contexts):
        return None
    from pyterrier_rag_axioms.preference.features import transformed_values

    unsupported = np.asarray(model.grounding_axiom().cached_values(table), dtype=float)
    values = transformed_values(unsupported, model.value_transform)
    extractive = [is_extractive(text, passages) for text, passages in zip(table.texts, table.contexts, strict=True)]
    return np.where(extractive, np.nan, values)


def grounding_logits(model: ModelView, table: ResponseTable) -> np.ndarray | None:
    """Each pair's grounding term of the log-odds, ``grounding_weight * (t(u(b)) - t(u(a)))`` (0 where a
    response has no passages or copies them); ``None`` where there is no term (see :func:`grounding_values`)."""
    values = grounding_values(model, table)
    if values is None:
        return None
    differences = values[table.b] - values[table.a]
    return model.grounding_weight * np.where(np.isfinite(differences), differences, 0.0)
