"""Other columns of the frame a :class:`~pyterrier_rag_axioms.frames.ResponseTable` was made from, one value per
response: a response frame's own column, or a preference frame's ``<name>_a``/``<name>_b``; and how a cell of
pyterrier-rag's reference answers (``gold_answer``) reads."""

from __future__ import annotations

import numpy as np
import pandas as pd

from pyterrier_rag_axioms.frames.contract import ResponseTable, response_extras


def source_column(table: ResponseTable, name: str, *, per_pair: bool = False) -> pd.Series | None:
    """One value per response of ``table`` from the column ``name`` of the frame it was made from (of a
    preference frame: ``<name>_a``/``<name>_b``, or with ``per_pair`` also one ``name`` that both responses of a
    pair share); ``None`` where that frame has none."""
    if table.source is None:
        return None
    frame, a, b = table.source
    if a is None:
        return frame[name].reset_index(drop=True) if name in frame.columns else None
    sides = [f"{name}_a", f"{name}_b"]
    if set(sides) <= set(frame.columns):
        return response_extras(frame[sides], a, b, len(table))[name]
    if per_pair and name in frame.columns:
        return response_extras(frame[[name, name]].set_axis(sides, axis=1), a, b, len(table))[name]
    return None


#: pyterrier-rag's name of the reference answers' column.
GOLD_ANSWER = "gold_answer"


def gold_answer_texts(value: object, where: str) -> tuple[str, ...]:
    """The non-blank reference answers of one ``gold_answer`` cell: a string or a list (tuple, array)
    of strings; none for a missing value or blank text (no reference, wherever the package reads
    one). ``where`` starts the error's message.

    Raises:
        ValueError: a value that is neither a string nor a list of strings.
    """
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ()
    values = value.tolist() if isinstance(value, np.ndarray) else value
    values = [values] if isinstance(values, str) else values
    if not isinstance(values, (list, tuple)) or not all(isinstance(text, str) for text in values):
        raise ValueError(f"{where}: {GOLD_ANSWER} must be a string or a list of strings, not {value!r}")
    return tuple(text for text in values if text.strip())
