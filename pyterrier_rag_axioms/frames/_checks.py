"""The errors of bad frames, the checks of ids, texts, contexts and queries that raise them, and
the record of the frames that passed them.

A :class:`FrameError` (a ``ValueError``; :class:`FrameTypeError` is also a ``TypeError``) says
what is wrong and in which row; :mod:`pyterrier_rag_axioms.frames.contract` runs these checks.
"""

from __future__ import annotations

import hashlib
import weakref
from collections.abc import Hashable, Sequence

import numpy as np
import pandas as pd

#: A normalised context: the passages in order, or ``None`` where there is none (the rule that makes one:
#: :func:`pyterrier_rag_axioms.frames.context.normalize_context`).
Context = tuple[str, ...] | None

def _label(label: Hashable | None) -> Hashable | None:
    """An index label as Python shows it plainly (``1``, not ``np.int64(1)``)."""
    return label.item() if isinstance(label, np.generic) else label


class FrameError(ValueError):
    """Bad input in a frame: what is wrong (``problem``) and where (``row``: an index label, or ``None``).

    Where the problem is a conflict with an earlier row, ``earlier`` is that row's label. The
    message reads ``"<transformer>: row <row>: <problem> (first in row <earlier>)"``.
    """

    def __init__(
        self,
        problem: str,
        *,
        row: Hashable | None = None,
        earlier: Hashable | None = None,
        transformer: object = None,
    ):
        self.problem = problem
        self.row = _label(row)
        self.earlier = _label(earlier)
        self.transformer = transformer
        where = [] if transformer is None else [str(transformer)]
        if self.row is not None:
            where.append(f"row {self.row!r}")
        first = "" if self.earlier is None else f" (first in row {self.earlier!r})"
        super().__init__(": ".join([*where, problem]) + first)


class FrameTypeError(FrameError, TypeError):
    """A :class:`FrameError` about a value of the wrong type; also a ``TypeError``."""


def shown(value: object, width: int = 60) -> str:
    """A value as an error message shows it: its ``repr``, shortened to about ``width`` characters."""
    text = repr(value)
    return text if len(text) <= width else f"{text[: width - 4]}...{text[-1]}"


def _check_ids(frame: pd.DataFrame, columns: Sequence[str], transformer: object) -> None:
    """Raise naming the row where an id column is missing (None, NaN, pd.NA) or empty."""
    for column in columns:
        values = frame[column]
        empty = values.map(lambda value: isinstance(value, str) and not value).to_numpy(dtype=bool)
        bad = values.isna().to_numpy(dtype=bool) | empty
        if bad.any():
            position = int(np.flatnonzero(bad)[0])
            value = values.iloc[position]
            what = "is empty" if isinstance(value, str) else f"is missing ({shown(value)})"
            raise FrameError(f"{column} {what}", row=frame.index[position], transformer=transformer)


def _check_text_column(frame: pd.DataFrame, column: str, transformer: object, *, shown_as: str | None = None) -> None:
    """Raise a ``TypeError`` naming transformer, column (as the caller named it: ``shown_as``) and
    row when a cell is not a string."""
    values = frame[column]
    if isinstance(values.dtype, pd.StringDtype):  # text by its type: only missing values are no text
        is_text = values.notna().to_numpy(dtype=bool)
    else:
        is_text = values.map(lambda value: isinstance(value, str)).to_numpy(dtype=bool)
    if not is_text.all():
        position = int(np.flatnonzero(~is_text)[0])
        row = frame.iloc[position]
        value = row[column]
        missing = value is None or (isinstance(value, float) and np.isnan(value))
        found = "a missing value (None or NaN)" if missing else f"{type(value).__name__} {shown(value)}"
        raise FrameTypeError(
            f"column {shown_as or column!r} must hold text, not {found} (qid {row['qid']!r})",
            row=frame.index[position],
            transformer=transformer,
        )


def _codes(values: pd.Series | Sequence[Hashable]) -> np.ndarray:
    """Integer codes, equal exactly where the values are equal (missing values have a code too).

    A Series is factorised as it is (text columns by Arrow's hashing, without Python strings); for
    a sequence of objects (e.g. contexts, where rows of one query often share one object), each
    distinct object is hashed once.
    """
    if isinstance(values, pd.Series):
        return pd.factorize(values, use_na_sentinel=False)[0]
    objects = list(values)
    identity_codes, identities = pd.factorize(np.fromiter(map(id, objects), dtype=np.int64, count=len(objects)))
    first_of_identity = np.full(len(identities), len(objects), dtype=np.int64)
    np.minimum.at(first_of_identity, identity_codes, np.arange(len(objects)))
    distinct = pd.Series([objects[position] for position in first_of_identity], dtype=object)
    return pd.factorize(distinct, use_na_sentinel=False)[0][identity_codes]


def _key_codes(keys: pd.DataFrame) -> np.ndarray:
    """One integer code per distinct row of ``keys``."""
    codes = np.zeros(len(keys), dtype=np.int64)
    for column in keys.columns:
        column_codes, uniques = pd.factorize(keys[column], use_na_sentinel=False)
        codes = pd.factorize(codes * len(uniques) + column_codes)[0]
    return codes


def _first_conflict(keys: pd.DataFrame, values: pd.Series | Sequence[Hashable]) -> tuple[int, int] | None:
    """The first two positions with equal ``keys`` rows but different ``values`` (by the later one), or None."""
    if len(keys) == 0:
        return None
    key_codes = _key_codes(keys)
    value_codes = _codes(values)
    first_value = pd.Series(value_codes).groupby(key_codes).transform("first").to_numpy()
    differs = np.flatnonzero(first_value != value_codes)
    if len(differs) == 0:
        return None
    later = int(differs[0])
    earlier = int(np.flatnonzero(key_codes == key_codes[later])[0])
    return earlier, later


def _check_one_query_per_qid(frame: pd.DataFrame, transformer: object) -> None:
    """All rows of a qid must give the same query text: the rules compare responses to one request."""
    conflict = _first_conflict(frame[["qid"]], frame["query"])
    if conflict is not None:
        earlier, later = conflict
        raise FrameError(
            f"qid {frame['qid'].iloc[later]!r} has two query texts: {shown(frame['query'].iloc[earlier])} and "
            f"{shown(frame['query'].iloc[later])}; all rows of a qid need the same query text",
            row=frame.index[later],
            earlier=frame.index[earlier],
            transformer=transformer,
        )


def _check_pair_contexts(frame: pd.DataFrame, transformer: object) -> None:
    """A preference frame gives each response its own context: ``context_a`` and ``context_b``, or neither."""
    given = [column for column in ("context_a", "context_b") if column in frame.columns]
    if len(given) == 1:
        missing = "context_b" if given == ["context_a"] else "context_a"
        raise FrameError(
            f"the preference frame has column {given[0]!r} but not {missing!r}; give both (None where a "
            "response has no context)",
            transformer=transformer,
        )
    if "context" in frame.columns and not given:
        raise FrameError(
            "a preference frame gives each response its own context as columns 'context_a' and 'context_b', "
            "not one column 'context' (whose response's context would it be?); rename it, or build the pairs "
            "from a response frame",
            transformer=transformer,
        )


def _check_responses_of_pairs(
    frame: pd.DataFrame, contexts: tuple[list[Context], list[Context]], transformer: object
) -> None:
    """Each response (qid, docno) of the pairs has one text and one context; no pair compares a response with itself."""
    same = (frame["docno_a"] == frame["docno_b"]).to_numpy(dtype=bool)
    if same.any():
        position = int(np.flatnonzero(same)[0])
        raise FrameError(
            f"docno_a and docno_b are the same response {frame['docno_a'].iloc[position]!r} "
            f"(qid {frame['qid'].iloc[position]!r}); a pair compares two distinct responses",
            row=frame.index[position],
            transformer=transformer,
        )
    n = len(frame)
    both = lambda a, b: pd.concat([frame[a], frame[b]], ignore_index=True)  # noqa: E731
    keys = pd.DataFrame({"qid": both("qid", "qid"), "docno": both("docno_a", "docno_b")})
    texts = both("response_a", "response_b")
    for what, values in (("response texts", texts), ("contexts", [*contexts[0], *contexts[1]])):
        conflict = _first_conflict(keys, values)
        if conflict is None:
            continue
        earlier, later = conflict
        side = lambda position: ("a", position) if position < n else ("b", position - n)  # noqa: E731
        (side_e, row_e), (side_l, row_l) = side(earlier), side(later)
        raise FrameError(
            f"docno {keys['docno'].iloc[later]!r} of qid {keys['qid'].iloc[later]!r} has two {what}: "
            f"{shown(values[earlier])} as docno_{side_e} and {shown(values[later])} as docno_{side_l}; "
            "one docno names one response",
            row=frame.index[row_l],
            earlier=frame.index[row_e],
            transformer=transformer,
        )


#: The frames this package validated and returned, by id: a weak reference and a fingerprint of
#: the validated columns.
_VALIDATED: dict[int, tuple[weakref.ref, bytes]] = {}


def _fingerprint(frame: pd.DataFrame, columns: Sequence[str]) -> bytes:
    """What the cells of ``columns`` are: for a column of Python objects, which object each cell
    holds (so a cell set in place, even to an equal value, shows); for another, its values."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(len(frame).to_bytes(8, "little"))
    for column in columns:
        values = frame[column]
        if values.dtype == object:
            cells = values.to_numpy()
            digest.update(np.fromiter(map(id, cells), dtype=np.uint64, count=len(cells)).tobytes())
        else:
            digest.update(pd.util.hash_pandas_object(values, index=False).to_numpy().tobytes())
    return digest.digest()


def mark_validated(frame: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """Record that ``columns`` of ``frame`` passed validation (ids, texts, one query per qid, contexts as
    tuples of passages or ``None``); returns the frame. The record lasts as long as the frame does."""
    key = id(frame)
    reference = weakref.ref(frame, lambda _, key=key: _VALIDATED.pop(key, None))
    _VALIDATED[key] = (reference, _fingerprint(frame, columns))
    return frame


def is_validated(frame: pd.DataFrame, columns: Sequence[str]) -> bool:
    """Whether ``frame`` itself (not a copy or a slice of it) passed validation and still holds, in
    ``columns``, the cells it held then: a frame changed in place since is validated again."""
    entry = _VALIDATED.get(id(frame))
    return (
        entry is not None
        and entry[0]() is frame
        and all(column in frame.columns for column in columns)
        and entry[1] == _fingerprint(frame, columns)
    )
