"""The one rule for a ``context`` value: a tuple of passage strings, or ``None``.

A user may give a response's context as a list (or tuple, array, Series) of passage strings or of
records with a ``text`` string (pyterrier-rag's ``{"docno": ..., "text": ...}``), as one string, or
as a missing value. Whichever transformer first receives the frame turns each cell into the one
shape with :func:`normalize_context`; every frame this package returns holds that shape.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from pyterrier_rag_axioms.frames._checks import Context, FrameTypeError, shown


def passage_text(passage: object) -> object:
    """A passage as given: a string, or the ``text`` of a record (pyterrier-rag's ``{"docno": ...,
    "text": ...}``); anything else (a record without a ``text`` string, a number) as it is."""
    if isinstance(passage, Mapping) and isinstance(passage.get("text"), str):
        return passage["text"]
    return passage


def normalize_context(value: object, *, strict: bool = True) -> Context:
    """A context cell as a tuple of passage strings, or ``None`` when there is no context.

    Accepts a list/tuple/array of passage strings (or of records with a ``text`` string, such as
    pyterrier-rag's ``{"docno": ..., "text": ...}``), a single string, or a missing value (``None``,
    NaN, ``pd.NA``). Blank passages are left out; a context without any other passage is no
    context.

    With ``strict=False`` (for contexts a pipeline passes along, which an axiom validates later),
    passages that are no text are left out and a cell of another type is no context.

    Raises:
        TypeError: (``strict`` only) the cell is of another type, or a passage is not a string (e.g.
            ``None`` or a number inside the list).
    """
    if value is None:
        return None
    if isinstance(value, str):
        return (value,) if value.strip() else None
    if isinstance(value, (list, tuple, np.ndarray, pd.Series)):
        passages = []
        for position, given in enumerate(value):
            passage = passage_text(given)
            if not isinstance(passage, str) and not strict:
                continue
            if not isinstance(passage, str):
                raise TypeError(
                    f"context passage {position} must be a string, not {type(passage).__name__} {shown(passage)}"
                )
            if passage.strip():
                passages.append(str(passage))
        return tuple(passages) or None
    if (pd.api.types.is_scalar(value) and pd.isna(value)) or not strict:
        return None
    raise TypeError(f"context must be a list of strings, a string or None, not {type(value).__name__} {shown(value)}")


def normalized_contexts(
    frame: pd.DataFrame, column: str, transformer: object, *, shown_as: str | None = None
) -> pd.Series:
    """The normalised context of each row (see :func:`normalize_context`), on the frame's index;
    errors name the column (as the caller named it: ``shown_as``) and row."""
    normalized: dict[int, Context] = {}  # rows of one query often share one context object
    result = []
    for position, value in enumerate(frame[column]):
        key = id(value)
        if key not in normalized:
            try:
                normalized[key] = normalize_context(value)
            except TypeError as error:
                raise FrameTypeError(
                    f"column {shown_as or column!r} (qid {frame['qid'].iloc[position]!r}): {error}",
                    row=frame.index[position],
                    transformer=transformer,
                ) from None
        result.append(normalized[key])
    return pd.Series(result, index=frame.index, dtype=object)
