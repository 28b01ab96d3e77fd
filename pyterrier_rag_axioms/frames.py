"""Response and preference frames: validation, normalisation and pair building.

A *response frame* has one row per generated response (``qid``, ``query``, ``docno``,
``response``, optional ``context``). A *preference frame* has one row per unordered pair of
distinct responses of one query (``qid``, ``query``, ``docno_a``, ``docno_b``, ``response_a``,
``response_b``, ``context_a``, ``context_b``: each response's own context) plus one float column
per axiom. See ``DESIGN.md`` of the project.

Bad input raises a :class:`FrameError` (a ``ValueError``; :class:`FrameTypeError` is also a
``TypeError``) that says what is wrong and in which row, so that a reader of files can name the
file and line instead (see :func:`pyterrier_rag_axioms.io.read_responses`).
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyterrier as pt

#: Column names of pyterrier-rag that stand in for ours where ours are absent.
RESPONSE_ALIASES: dict[str, str] = {"response": "qanswer", "context": "qcontext", "query": "query_0"}

RESPONSE_COLUMNS: list[str] = ["qid", "query", "docno", "response", "context"]
PAIR_COLUMNS: list[str] = [
    "qid", "query", "docno_a", "docno_b", "response_a", "response_b", "context_a", "context_b",
]

Context = tuple[str, ...] | None

#: Key of ``DataFrame.attrs`` under which a frame remembers which of pyterrier-rag's names its
#: input used (alias -> our name), so that outputs with one response per row can use them again.
NAMES_ATTR = "pyterrier_rag_names"

#: Columns that a preference frame has once per response (``docno_a``, ``docno_b``, ...).
PAIR_BASES: tuple[str, ...] = ("docno", "response", "context")

#: Columns of a response frame that describe an order of the responses, not a response; a
#: preference frame does not carry them (a ranking replaces them).
ORDER_COLUMNS: tuple[str, ...] = ("score", "rank")


def restore_names(frame: pd.DataFrame, names: dict[str, str]) -> pd.DataFrame:
    """``frame`` with our column names turned back into the pyterrier-rag names in ``names``."""
    renames = {ours: alias for alias, ours in names.items() if ours in frame.columns and alias not in frame.columns}
    return frame.rename(columns=renames) if renames else frame


def _qid_list(qids: Sequence[str], limit: int = 10) -> str:
    shown = ", ".join(repr(qid) for qid in qids[:limit])
    return shown if len(qids) <= limit else f"{shown} and {len(qids) - limit} more"


def warn_single_responses(responses: pd.DataFrame, transformer: object) -> None:
    """Warn once, naming the qids, where a query of a response frame has fewer than two responses."""
    counts = responses.groupby("qid", sort=False).size()
    single = counts.index[counts < 2].tolist()
    if single:
        warnings.warn(
            f"{transformer}: {len(single)} of {len(counts)} queries have fewer than two responses, so nothing "
            f"compares them (qids {_qid_list(single)}); give several responses per query, e.g. from several "
            "generators or several samples of one (pyterrier_rag_axioms.rag)",
            stacklevel=3,
        )


def warn_missing_context(table: ResponseTable, transformer: object, names: Sequence[str]) -> None:
    """Warn once, naming the qids, where axioms that read the context find responses without one."""
    if not names or len(table) == 0:
        return
    missing = table.responses["context"].isna().to_numpy()
    if missing.any():
        qids = list(dict.fromkeys(table.responses["qid"].to_numpy()[missing].tolist()))
        warnings.warn(
            f"{transformer}: {', '.join(names)} read the retrieved context, but {int(missing.sum())} responses "
            f"have none, so they give no preference for them (qids {_qid_list(qids)}); keep the passages in a "
            "'context' or 'qcontext' column (pyterrier_rag_axioms.rag.MultiGenerator does)",
            stacklevel=3,
        )


def extra_columns(responses: pd.DataFrame) -> list[str]:
    """The columns of a (normalised) response frame that a preference frame carries as ``<column>_a/_b``."""
    return [
        column
        for column in responses.columns
        if column not in RESPONSE_COLUMNS and column not in ORDER_COLUMNS and not str(column).startswith("_")
    ]


def response_extras(pairs: pd.DataFrame, a: np.ndarray, b: np.ndarray, size: int) -> pd.DataFrame:
    """The per-response columns a preference frame carries (``<column>_a``/``<column>_b``), one row per response.

    ``a`` and ``b`` give, per pair row, the positions of its responses among ``size`` responses;
    a response's value comes from the first row that lists it.
    """
    bases = [
        column[:-2]
        for column in map(str, pairs.columns)
        if column.endswith("_a") and f"{column[:-2]}_b" in pairs.columns and column[:-2] not in PAIR_BASES
    ]
    if not bases:
        return pd.DataFrame(index=range(size))
    both = pd.concat(
        [
            pairs[[f"{base}_a" for base in bases]].set_axis(bases, axis=1).assign(_position=a),
            pairs[[f"{base}_b" for base in bases]].set_axis(bases, axis=1).assign(_position=b),
        ],
        ignore_index=True,
    )
    return both.drop_duplicates("_position").set_index("_position").reindex(range(size)).reset_index(drop=True)


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


def _aliased_columns(columns: Sequence[str]) -> dict[str, str]:
    """Renames that map pyterrier-rag's column names to ours, where ours are absent."""
    return {
        alias: ours
        for ours, alias in RESPONSE_ALIASES.items()
        if ours not in columns and alias in columns
    }


def normalize_context(value: object) -> Context:
    """A context cell as a tuple of passage strings, or ``None`` when there is no context.

    Accepts a list/tuple/array of passage strings, a single string, or a missing value (``None``,
    NaN, ``pd.NA``). Blank passages are left out; a context without any other passage is no
    context.

    Raises:
        TypeError: the cell is of another type, or a passage is not a string (e.g. ``None`` or a
            number inside the list).
    """
    if value is None:
        return None
    if isinstance(value, str):
        return (value,) if value.strip() else None
    if isinstance(value, (list, tuple, np.ndarray, pd.Series)):
        passages = []
        for position, passage in enumerate(value):
            if not isinstance(passage, str):
                raise TypeError(
                    f"context passage {position} must be a string, not {type(passage).__name__} {shown(passage)}"
                )
            if passage.strip():
                passages.append(str(passage))
        return tuple(passages) or None
    if pd.api.types.is_scalar(value) and pd.isna(value):
        return None
    raise TypeError(f"context must be a list of strings, a string or None, not {type(value).__name__} {shown(value)}")


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


def _check_text_column(frame: pd.DataFrame, column: str, transformer: object) -> None:
    """Raise a ``TypeError`` naming transformer, column and row when a cell is not a string."""
    is_text = frame[column].map(lambda value: isinstance(value, str)).to_numpy(dtype=bool)
    if not is_text.all():
        position = int(np.flatnonzero(~is_text)[0])
        row = frame.iloc[position]
        raise FrameTypeError(
            f"column {column!r} must hold text, not {type(row[column]).__name__} {shown(row[column])} "
            f"(qid {row['qid']!r})",
            row=frame.index[position],
            transformer=transformer,
        )


def _normalized_contexts(frame: pd.DataFrame, column: str, transformer: object) -> list[Context]:
    """The normalised context of each row (see :func:`normalize_context`); errors name column and row."""
    normalized: dict[int, Context] = {}  # rows of one query often share one context object
    result = []
    for position, value in enumerate(frame[column]):
        key = id(value)
        if key not in normalized:
            try:
                normalized[key] = normalize_context(value)
            except TypeError as error:
                raise FrameTypeError(
                    f"column {column!r} (qid {frame['qid'].iloc[position]!r}): {error}",
                    row=frame.index[position],
                    transformer=transformer,
                ) from None
        result.append(normalized[key])
    return result


def _context_cells(contexts: Sequence[Context]) -> pd.Series:
    """Normalised contexts as the cells of a frame column: a list of passages, or ``None``."""
    cells: dict[int, list[str] | None] = {}
    return pd.Series(
        [cells.setdefault(id(context), None if context is None else list(context)) for context in contexts],
        dtype=object,
    )


def _first_conflict(keys: pd.DataFrame, values: Sequence[Hashable]) -> tuple[int, int] | None:
    """The first two positions with equal ``keys`` rows but different ``values`` (by the later one), or None."""
    if len(keys) == 0:
        return None
    key_codes = pd.MultiIndex.from_frame(keys).factorize()[0]
    value_codes = pd.factorize(pd.Series(list(values), dtype=object))[0]
    first_value = pd.Series(value_codes).groupby(key_codes).transform("first").to_numpy()
    differs = np.flatnonzero(first_value != value_codes)
    if len(differs) == 0:
        return None
    later = int(differs[0])
    earlier = int(np.flatnonzero(key_codes == key_codes[later])[0])
    return earlier, later


def _check_one_query_per_qid(frame: pd.DataFrame, transformer: object) -> None:
    """All rows of a qid must give the same query text: the rules compare responses to one request."""
    conflict = _first_conflict(frame[["qid"]], frame["query"].tolist())
    if conflict is not None:
        earlier, later = conflict
        raise FrameError(
            f"qid {frame['qid'].iloc[later]!r} has two query texts: {shown(frame['query'].iloc[earlier])} and "
            f"{shown(frame['query'].iloc[later])}; all rows of a qid need the same query text",
            row=frame.index[later],
            earlier=frame.index[earlier],
            transformer=transformer,
        )


def response_frame(inp: pd.DataFrame, transformer: object = None) -> pd.DataFrame:
    """Validate a response frame and return a normalised copy.

    The copy has pyterrier-rag's names mapped to ours, ``qid`` and ``docno`` as strings, a
    ``docno`` numbered per query in input order where absent, and a ``context`` column (``None``
    where absent). The caller's frame is never changed.

    Raises:
        pt.validate.InputValidationError: a required column is missing.
        FrameTypeError: a response or query is not text, or a context is malformed.
        FrameError: a ``qid`` or ``docno`` is missing or empty, a ``docno`` repeats within a
            ``qid``, or the rows of a ``qid`` give different query texts.
    """
    renames = _aliased_columns(list(inp.columns))
    columns = [renames.get(column, column) for column in inp.columns]
    pt.validate.columns(columns, includes=["qid", "query", "response"], context=transformer)
    frame = inp.rename(columns=renames)  # rename returns a new frame
    frame.attrs[NAMES_ATTR] = renames
    _check_ids(frame, ["qid", "docno"] if "docno" in frame.columns else ["qid"], transformer)
    frame["qid"] = frame["qid"].astype(str)
    if "docno" not in frame.columns:
        frame["docno"] = frame.groupby("qid", sort=False).cumcount().astype(str)
    frame["docno"] = frame["docno"].astype(str)
    if "context" not in frame.columns:
        frame["context"] = None
    _check_text_column(frame, "query", transformer)
    _check_text_column(frame, "response", transformer)
    _normalized_contexts(frame, "context", transformer)
    _check_one_query_per_qid(frame, transformer)
    duplicated = frame.duplicated(["qid", "docno"])
    if duplicated.any():
        position = int(np.flatnonzero(duplicated.to_numpy())[0])
        row = frame.iloc[position]
        first = np.flatnonzero(((frame["qid"] == row["qid"]) & (frame["docno"] == row["docno"])).to_numpy())[0]
        raise FrameError(
            f"docno {row['docno']!r} occurs more than once for qid {row['qid']!r}; "
            "each response of a query needs its own docno",
            row=frame.index[position],
            earlier=frame.index[first],
            transformer=transformer,
        )
    return frame


def pairs_from_responses(responses: pd.DataFrame) -> pd.DataFrame:
    """All unordered pairs of distinct responses of each qid, in input order (a before b).

    ``context_a`` and ``context_b`` hold each response's own context as a list of passages (or
    ``None``), whichever form the response frame gave it in.
    """
    first: list[np.ndarray] = []
    second: list[np.ndarray] = []
    for positions in responses.groupby("qid", sort=False).indices.values():
        upper_a, upper_b = np.triu_indices(len(positions), k=1)
        first.append(positions[upper_a])
        second.append(positions[upper_b])
    index_a = np.concatenate(first) if first else np.array([], dtype=int)
    index_b = np.concatenate(second) if second else np.array([], dtype=int)
    rows_a = responses.iloc[index_a].reset_index(drop=True)
    rows_b = responses.iloc[index_b].reset_index(drop=True)
    contexts = _context_cells(_normalized_contexts(responses, "context", None))
    pairs = pd.DataFrame(
        {
            "qid": rows_a["qid"],
            "query": rows_a["query"],
            "docno_a": rows_a["docno"],
            "docno_b": rows_b["docno"],
            "response_a": rows_a["response"],
            "response_b": rows_b["response"],
            "context_a": contexts.iloc[index_a].reset_index(drop=True),
            "context_b": contexts.iloc[index_b].reset_index(drop=True),
        },
        columns=PAIR_COLUMNS,
    )
    for column in extra_columns(responses):  # e.g. a generator's prompt: per response, as <column>_a/_b
        pairs[f"{column}_a"] = rows_a[column]
        pairs[f"{column}_b"] = rows_b[column]
    pairs.attrs[NAMES_ATTR] = dict(responses.attrs.get(NAMES_ATTR, {}))
    return pairs


def is_preference_frame(inp: pd.DataFrame) -> bool:
    """Whether a frame lists pairs of responses (rather than single responses)."""
    return "docno_a" in inp.columns and "docno_b" in inp.columns


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
    keys = pd.DataFrame(
        {
            "qid": np.concatenate([frame["qid"].to_numpy(dtype=object), frame["qid"].to_numpy(dtype=object)]),
            "docno": np.concatenate([frame["docno_a"].to_numpy(dtype=object), frame["docno_b"].to_numpy(dtype=object)]),
        }
    )
    texts = [*frame["response_a"], *frame["response_b"]]
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


def preference_frame(inp: pd.DataFrame, transformer: object = None) -> pd.DataFrame:
    """A validated copy of a preference frame, built from a response frame where needed.

    Given a preference frame (which may list only some pairs), returns a copy with the same rows
    (``context_a`` and ``context_b`` added as ``None`` where both are absent); given a response
    frame, builds all pairs of each query.

    Raises:
        pt.validate.InputValidationError: a required column is missing.
        FrameTypeError: a query or response is not text, or a context is malformed.
        FrameError: an id is missing, the rows of a qid give different query texts, a docno of a
            qid is listed with two different texts or contexts, or a pair compares a response with
            itself; a preference frame with one ``context`` column instead of ``context_a`` and
            ``context_b``.
    """
    renames = _aliased_columns(list(inp.columns))
    columns = [renames.get(column, column) for column in inp.columns]
    with pt.validate.any(columns, context=transformer) as validation:
        validation.columns(includes=["qid", "query", "response"], mode="responses")
        validation.columns(
            includes=["qid", "query", "docno_a", "docno_b", "response_a", "response_b"], mode="preferences"
        )
    if validation.mode == "responses":
        responses = response_frame(inp, transformer)
        warn_single_responses(responses, transformer)
        return pairs_from_responses(responses)
    frame = inp.rename(columns=renames)
    _check_pair_contexts(frame, transformer)
    _check_ids(frame, ["qid", "docno_a", "docno_b"], transformer)
    frame["qid"] = frame["qid"].astype(str)
    frame["docno_a"] = frame["docno_a"].astype(str)
    frame["docno_b"] = frame["docno_b"].astype(str)
    if "context_a" not in frame.columns:
        frame["context_a"] = None
        frame["context_b"] = None
    for column in ("query", "response_a", "response_b"):
        _check_text_column(frame, column, transformer)
    contexts = (
        _normalized_contexts(frame, "context_a", transformer),
        _normalized_contexts(frame, "context_b", transformer),
    )
    _check_one_query_per_qid(frame, transformer)
    _check_responses_of_pairs(frame, contexts, transformer)
    return frame


@dataclass(frozen=True)
class ResponseTable:
    """The distinct responses behind a preference frame, with the pair rows pointing at them.

    Attributes:
        responses: one row per distinct (qid, docno): ``qid``, ``query``, ``docno``,
            ``response`` and ``context`` (a tuple of passages or ``None``).
        a: for each pair row, the position of response a in ``responses``.
        b: for each pair row, the position of response b in ``responses``.
        values: per-response values already computed over ``responses``, by the axiom that
            computed them; tables made with ``dataclasses.replace(table, a=..., b=...)`` share it,
            so asking for other pairs of the same responses computes nothing again.
    """

    responses: pd.DataFrame
    a: np.ndarray
    b: np.ndarray
    values: dict[int, np.ndarray] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_pairs(cls, pairs: pd.DataFrame) -> ResponseTable:
        """Collect the distinct responses of a (validated) preference frame, each with its own context."""
        both = pd.concat(
            [
                pairs[["qid", "query", "docno_a", "response_a", "context_a"]].set_axis(RESPONSE_COLUMNS, axis=1),
                pairs[["qid", "query", "docno_b", "response_b", "context_b"]].set_axis(RESPONSE_COLUMNS, axis=1),
            ],
            ignore_index=True,
        )
        keys = pd.MultiIndex.from_frame(both[["qid", "docno"]])
        codes, uniques = pd.factorize(keys)
        first_rows = pd.Series(np.arange(len(both))).groupby(codes).first().to_numpy()
        responses = both.iloc[first_rows].reset_index(drop=True)
        responses["context"] = responses["context"].map(normalize_context)
        return cls(responses=responses, a=codes[: len(pairs)], b=codes[len(pairs) :])

    @classmethod
    def from_responses(cls, responses: pd.DataFrame) -> ResponseTable:
        """A table over a (validated) response frame, without pairs."""
        table = responses[RESPONSE_COLUMNS].reset_index(drop=True)
        table["context"] = table["context"].map(normalize_context)
        empty = np.array([], dtype=int)
        return cls(responses=table, a=empty, b=empty)

    @property
    def texts(self) -> list[str]:
        """The response texts."""
        return self.responses["response"].tolist()

    @property
    def queries(self) -> list[str]:
        """The query text of each response."""
        return self.responses["query"].tolist()

    @property
    def contexts(self) -> list[Context]:
        """The context of each response (a tuple of passages or ``None``)."""
        return self.responses["context"].tolist()

    def __len__(self) -> int:
        return len(self.responses)
