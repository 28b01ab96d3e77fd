"""Response and preference frames: validation, normalisation and pair building.

A *response frame* has one row per generated response (``qid``, ``query``, ``docno``,
``response``, optional ``context``). A *preference frame* has one row per unordered pair of
distinct responses of one query (``qid``, ``query``, ``docno_a``, ``docno_b``, ``response_a``,
``response_b``, ``context_a``, ``context_b``: each response's own context) plus one float column
per axiom. The documentation's page on frames (``docs/frames.md``) holds the design.

Bad input raises a :class:`FrameError` (a ``ValueError``; :class:`FrameTypeError` is also a
``TypeError``) that says what is wrong and in which row, so that a reader of files can name the
file and line instead (see :func:`pyterrier_rag_axioms.io.read_responses`).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.frames._checks import (
    FrameError,
    _check_ids,
    _check_one_query_per_qid,
    _check_pair_contexts,
    _check_responses_of_pairs,
    _check_text_column,
    _key_codes,
    is_validated,
    mark_validated,
)
from pyterrier_rag_axioms.frames.context import Context, normalized_contexts
from pyterrier_rag_axioms.frames.limits import check_pair_count

#: Column names of pyterrier-rag that stand in for ours where ours are absent.
RESPONSE_ALIASES: dict[str, str] = {"response": "qanswer", "context": "qcontext", "query": "query_0"}

RESPONSE_COLUMNS: list[str] = ["qid", "query", "docno", "response", "context"]
PAIR_COLUMNS: list[str] = [
    "qid", "query", "docno_a", "docno_b", "response_a", "response_b", "context_a", "context_b",
]

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
            "generators or several samples of one (pyterrier_rag_axioms.pipelines)",
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
            "'context' or 'qcontext' column (pyterrier_rag_axioms.pipelines.MultiGenerator does)",
            stacklevel=3,
        )


def warn_joined_context(table: ResponseTable, transformer: object, names: Sequence[str]) -> None:
    """Warn once, naming the qids, where axioms that read citations as passage numbers find a
    context given as one string of several lines (one passage, though it likely joins several)."""
    if not names or len(table) == 0:
        return
    joined = np.array(
        [context is not None and len(context) == 1 and "\n" in context[0].strip() for context in table.contexts]
    )
    if joined.any():
        qids = list(dict.fromkeys(table.responses["qid"].to_numpy()[joined].tolist()))
        warnings.warn(
            f"{transformer}: {', '.join(names)} read a citation [k] as the k-th passage of the context, but "
            f"{int(joined.sum())} response{' has' if joined.sum() == 1 else 's have'} a context of one passage of "
            "several lines, likely several "
            f"passages joined (qids {_qid_list(qids)}); a string is one passage: give the passages as a list",
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



def _aliased_columns(columns: Sequence[str]) -> dict[str, str]:
    """Renames that map pyterrier-rag's column names to ours, where ours are absent."""
    return {
        alias: ours
        for ours, alias in RESPONSE_ALIASES.items()
        if ours not in columns and alias in columns
    }


def _validated_mode(
    inp: pd.DataFrame, renames: dict[str, str], transformer: object, modes: dict[str, list[str]]
) -> str:
    """The first of ``modes`` (name: required columns, in this package's names) that the frame's
    columns, pyterrier-rag's names mapped to ours, satisfy. Where none does, pt.validate's error
    (its modes: what each one misses) names the caller's own columns and the names that stand in."""
    columns = [renames.get(column, column) for column in inp.columns]
    try:
        with pt.validate.any(columns, context=transformer) as validation:
            for mode, includes in modes.items():
                validation.columns(includes=includes, mode=mode)
    except pt.validate.InputValidationError as error:
        stand_in = ", ".join(f"{alias!r} for {ours!r}" for ours, alias in RESPONSE_ALIASES.items())
        raise pt.validate.InputValidationError(
            f"DataFrame(columns={list(inp.columns)}) in transformer {transformer} does not match required "
            f"columns for this transformer (pyterrier-rag's names stand in: {stand_in}). {error.modes}",
            error.modes,
        ) from None
    return validation.mode


def response_frame(inp: pd.DataFrame, transformer: object = None) -> pd.DataFrame:
    """Validate a response frame and return a normalised copy.

    The copy has pyterrier-rag's names mapped to ours, ``qid`` and ``docno`` as strings, a
    ``docno`` numbered per query in input order where absent, and a ``context`` column of tuples of
    passages (``None`` where there is none; see :mod:`~pyterrier_rag_axioms.frames.context`). The
    caller's frame is never changed. A frame that this function returned is only copied, not
    validated again.

    Raises:
        pt.validate.InputValidationError: a required column is missing.
        FrameTypeError: a response or query is not text, or a context is malformed.
        FrameError: a ``qid`` or ``docno`` is missing or empty, a ``docno`` repeats within a
            ``qid``, or the rows of a ``qid`` give different query texts.
    """
    if is_validated(inp, RESPONSE_COLUMNS):
        return mark_validated(inp.copy(), RESPONSE_COLUMNS)
    renames = _aliased_columns(list(inp.columns))
    _validated_mode(inp, renames, transformer, {"responses": ["qid", "query", "response"]})
    frame = inp.rename(columns=renames)  # rename returns a new frame
    frame.attrs[NAMES_ATTR] = renames
    theirs = {ours: alias for alias, ours in renames.items()}  # errors name the caller's columns
    _check_ids(frame, ["qid", "docno"] if "docno" in frame.columns else ["qid"], transformer)
    frame["qid"] = frame["qid"].astype(str)
    if "docno" not in frame.columns:
        frame["docno"] = frame.groupby("qid", sort=False).cumcount().astype(str)
    frame["docno"] = frame["docno"].astype(str)
    if "context" not in frame.columns:
        frame["context"] = None
    _check_text_column(frame, "query", transformer, shown_as=theirs.get("query"))
    _check_text_column(frame, "response", transformer, shown_as=theirs.get("response"))
    frame["context"] = normalized_contexts(frame, "context", transformer, shown_as=theirs.get("context"))
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
    return mark_validated(frame, RESPONSE_COLUMNS)


def pairs_from_responses(responses: pd.DataFrame) -> pd.DataFrame:
    """All unordered pairs of distinct responses of each qid, in input order (a before b).

    ``context_a`` and ``context_b`` hold each response's own context as a tuple of passages (or
    ``None``), whichever form the response frame gave it in (a frame that :func:`response_frame`
    did not return is validated first).
    """
    if not is_validated(responses, RESPONSE_COLUMNS):
        responses = response_frame(responses)
    first: list[np.ndarray] = []
    second: list[np.ndarray] = []
    for positions in responses.groupby("qid", sort=False).indices.values():
        upper_a, upper_b = np.triu_indices(len(positions), k=1)
        first.append(positions[upper_a])
        second.append(positions[upper_b])
    index_a = np.concatenate(first) if first else np.array([], dtype=int)
    index_b = np.concatenate(second) if second else np.array([], dtype=int)
    id_columns = ["qid", "docno", *extra_columns(responses)]
    rows_a = responses[id_columns].iloc[index_a].reset_index(drop=True)
    rows_b = responses[id_columns].iloc[index_b].reset_index(drop=True)
    contexts = responses["context"].to_numpy(dtype=object)  # tuples of passages or None
    # Texts as references to one string per response, not a copy per pair: n responses of a query
    # make n(n-1)/2 pairs, so copies would take memory quadratic in n.
    texts = {column: responses[column].to_numpy(dtype=object) for column in ("query", "response")}
    pairs = pd.DataFrame(
        {
            "qid": rows_a["qid"],
            "query": pd.Series(texts["query"][index_a], dtype=object),
            "docno_a": rows_a["docno"],
            "docno_b": rows_b["docno"],
            "response_a": pd.Series(texts["response"][index_a], dtype=object),
            "response_b": pd.Series(texts["response"][index_b], dtype=object),
            "context_a": pd.Series(contexts[index_a], dtype=object),
            "context_b": pd.Series(contexts[index_b], dtype=object),
        },
        columns=PAIR_COLUMNS,
    )
    for column in extra_columns(responses):  # e.g. a generator's prompt: per response, as <column>_a/_b
        pairs[f"{column}_a"] = rows_a[column]
        pairs[f"{column}_b"] = rows_b[column]
    pairs.attrs[NAMES_ATTR] = dict(responses.attrs.get(NAMES_ATTR, {}))
    return mark_validated(pairs, PAIR_COLUMNS)


def is_preference_frame(inp: pd.DataFrame) -> bool:
    """Whether a frame lists pairs of responses (rather than single responses)."""
    return "docno_a" in inp.columns and "docno_b" in inp.columns


def preference_frame(inp: pd.DataFrame, transformer: object = None) -> pd.DataFrame:
    """A validated copy of a preference frame, built from a response frame where needed.

    Given a preference frame (which may list only some pairs), returns a copy with the same rows
    (``context_a`` and ``context_b`` added as ``None`` where both are absent); given a response
    frame, builds all pairs of each query. Contexts come back as tuples of passages or ``None``. A
    frame that this package returned (and that was not changed in place since) is only copied: the
    caller checks its own columns.

    Raises:
        pt.validate.InputValidationError: a required column is missing.
        FrameTypeError: a query or response is not text, or a context is malformed.
        FrameError: an id is missing, the rows of a qid give different query texts, a docno of a
            qid is listed with two different texts or contexts, or a pair compares a response with
            itself; a preference frame with one ``context`` column instead of ``context_a`` and
            ``context_b``.
    """
    if is_validated(inp, PAIR_COLUMNS):
        return mark_validated(inp.copy(), PAIR_COLUMNS)
    renames = _aliased_columns(list(inp.columns))
    mode = _validated_mode(inp, renames, transformer, {
        "responses": ["qid", "query", "response"],
        "preferences": ["qid", "query", "docno_a", "docno_b", "response_a", "response_b"],
    })
    if mode == "responses":
        responses = response_frame(inp, transformer)
        check_pair_count(responses["qid"], transformer)  # every pair is judged, or none
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
    frame["context_a"] = normalized_contexts(frame, "context_a", transformer)
    frame["context_b"] = normalized_contexts(frame, "context_b", transformer)
    _check_one_query_per_qid(frame, transformer)
    _check_responses_of_pairs(frame, (frame["context_a"].tolist(), frame["context_b"].tolist()), transformer)
    return mark_validated(frame, PAIR_COLUMNS)


@dataclass(frozen=True)
class ResponseTable:
    """The distinct responses behind a preference frame, with the pair rows pointing at them.

    Attributes:
        responses: one row per distinct (qid, docno): ``qid``, ``query``, ``docno``,
            ``response`` and ``context`` (a tuple of passages or ``None``).
        a: for each pair row, the position of response a in ``responses``.
        b: for each pair row, the position of response b in ``responses``.
        values: per-response values already computed over ``responses``, keyed by the id of the
            axiom that computed them and kept with that axiom (so its id is not reused); tables
            made with ``dataclasses.replace(table, a=..., b=...)`` share it, so asking for other
            pairs of the same responses computes nothing again.
        source: the frame the table was made from (not copied) and, for a preference frame, the
            positions of its rows' responses a and b (for the responses' other columns).
    """

    responses: pd.DataFrame
    a: np.ndarray
    b: np.ndarray
    values: dict[int, tuple[object, np.ndarray]] = field(default_factory=dict, compare=False, repr=False)
    source: tuple[pd.DataFrame, np.ndarray | None, np.ndarray | None] | None = field(
        default=None, compare=False, repr=False
    )

    @classmethod
    def from_pairs(cls, pairs: pd.DataFrame) -> ResponseTable:
        """Collect the distinct responses of a validated preference frame, each with its own context."""
        n = len(pairs)
        keys = pd.DataFrame(
            {
                "qid": pd.concat([pairs["qid"], pairs["qid"]], ignore_index=True),
                "docno": pd.concat([pairs["docno_a"], pairs["docno_b"]], ignore_index=True),
            }
        )
        codes = _key_codes(keys)  # numbered in order of first appearance, so first rows come in code order
        first_rows = np.unique(codes, return_index=True)[1]
        sides = [  # only the first row of each response is copied, not every pair's long texts
            pairs[[column.replace("*", side) for column in ("qid", "query", "docno_*", "response_*", "context_*")]]
            .iloc[rows]
            .set_axis(RESPONSE_COLUMNS, axis=1)
            for side, rows in (("a", first_rows[first_rows < n]), ("b", first_rows[first_rows >= n] - n))
        ]
        responses = pd.concat(sides, ignore_index=True)
        return cls(responses=responses, a=codes[:n], b=codes[n:], source=(pairs, codes[:n], codes[n:]))

    @classmethod
    def from_responses(cls, responses: pd.DataFrame) -> ResponseTable:
        """A table over a (validated) response frame, without pairs."""
        table = responses[RESPONSE_COLUMNS].reset_index(drop=True)
        empty = np.array([], dtype=int)
        return cls(responses=table, a=empty, b=empty, source=(responses, None, None))

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
