"""Nuggets in: a frame or a file of each topic's nuggets, read into one frame ``qid, nugget_id, nugget, importance``.

Accepted sources:

- a frame with ``qid``, ``nugget`` (the text; ``text`` is read where ``nugget`` is absent),
  ``importance`` (``"vital"`` or ``"okay"``) and, optionally, ``nugget_id``; or a frame with ``qid``
  and ``nuggets`` lists, as :func:`~pyterrier_rag_axioms.judgments.load_nugget_assignments` gives;
- a JSON-lines file (gzip-compressed or not) with one nugget per line, with the same fields;
- a JSON-lines file with one topic per line: ``qid`` and ``nuggets``, a list of objects with
  ``text`` (or ``nugget``), ``importance`` and optionally ``nugget_id``, as the TREC 2024 RAG
  nugget files and the nuggetizer write them. The track's assignment files, one line per run's
  answer to a topic, repeat the topic's nuggets on every line; they are read too (the nuggets of a
  topic must then be the same on every line; ``assignment`` is ignored).

Without ``nugget_id``, a topic's nuggets are numbered in file order: ``"0"``, ``"1"``, ...

A topic may come with an empty ``nuggets`` list (the extractor found no fact that two of its answers
state): it has no row, and the frame's ``attrs["topics_without_nuggets"]`` lists it, so that the
assigner leaves its answers out instead of refusing them. A file may list only such topics.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from pyterrier_rag_axioms.io import iter_jsonl

#: The columns of a nugget frame, in order.
NUGGET_COLUMNS: list[str] = ["qid", "nugget_id", "nugget", "importance"]
#: The importance labels of TREC RAG nuggets.
IMPORTANCES: tuple[str, ...] = ("vital", "okay")
#: The key of a nugget frame's ``attrs`` that lists the topics a source gives with an empty list of nuggets.
EMPTY_TOPICS = "topics_without_nuggets"
#: Optional fields of a nugget kept as columns after :data:`NUGGET_COLUMNS` where a source has them:
#: the provenance that :class:`~pyterrier_rag_axioms.nuggets.NuggetExtractor` writes.
PROVENANCE_COLUMNS: tuple[str, ...] = ("support", "sources", "drawn_from", "passages")


def _provenance(item: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The provenance fields of one nugget record (``drawn_from`` and ``sources``: lists of docnos)."""
    found = {name: item[name] for name in PROVENANCE_COLUMNS if name in item and _given(item[name])}
    for name in ("sources", "drawn_from", "passages"):
        value = found.get(name)
        value = value.tolist() if hasattr(value, "tolist") else value  # an array, as parquet gives lists back
        if value is not None and (not isinstance(value, (list, tuple)) or not all(isinstance(d, str) for d in value)):
            raise ValueError(f"{where}: {name} must be a list of strings, not {value!r}")
        if value is not None:
            found[name] = list(value)
    return found


def _given(value: Any) -> bool:
    return value is not None and value is not pd.NA and not (isinstance(value, float) and value != value)


def _nugget_fields(item: Mapping[str, Any], where: str) -> tuple[str, str, str | None]:
    """The text, importance and id (``None`` where absent) of one nugget record."""
    key = "nugget" if "nugget" in item else "text"
    text = item.get(key)
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"{where}: a nugget needs a non-empty text in 'nugget' or 'text', not {text!r}")
    importance = item.get("importance")
    if importance not in IMPORTANCES:
        raise ValueError(f"{where}: importance must be 'vital' or 'okay', not {importance!r}")
    nugget_id = item.get("nugget_id")
    if nugget_id is not None and (isinstance(nugget_id, bool) or not isinstance(nugget_id, (str, int))):
        raise ValueError(f"{where}: nugget_id must be a string or whole number, not {nugget_id!r}")
    return text, importance, None if nugget_id is None else str(nugget_id)


def _numbered(rows: list[tuple]) -> pd.DataFrame:
    """The nugget frame of (qid, nugget_id or None, text, importance, where, provenance) rows: ids numbered
    per qid where absent (``where``, file and line or frame row, names a repeated id); provenance columns
    where any row has them."""
    counts: dict[str, int] = {}
    seen: dict[tuple[str, str], str] = {}
    records = []
    extras: list[dict[str, Any]] = []
    for qid, nugget_id, text, importance, where, provenance in rows:
        extras.append(provenance)
        position = counts.get(qid, 0)
        counts[qid] = position + 1
        nugget_id = str(position) if nugget_id is None else nugget_id
        if (qid, nugget_id) in seen:
            raise ValueError(
                f"{where}: nugget_id {nugget_id!r} occurs twice for qid {qid!r} (first at {seen[(qid, nugget_id)]})"
            )
        seen[(qid, nugget_id)] = where
        records.append((qid, nugget_id, text, importance))
    frame = pd.DataFrame(records, columns=NUGGET_COLUMNS)
    for name in PROVENANCE_COLUMNS:
        if any(name in provenance for provenance in extras):
            frame[name] = pd.Series([provenance.get(name) for provenance in extras], dtype=object)
    return frame


def _qid(value: object, where: str) -> str:
    """A qid as text: a string, or a whole number as its digits; a float (``1.0``) is refused, not guessed."""
    if isinstance(value, float) and value != value:
        value = None
    if value is None or isinstance(value, bool) or not isinstance(value, (str, int)) or not str(value).strip():
        kind = "missing" if value is None else f"{type(value).__name__} {value!r}"
        hint = (
            "; a float column often comes from a missing value: read the ids as text (dtype={'qid': str})"
            if isinstance(value, float)
            else ""
        )
        raise ValueError(f"{where}: qid must be a non-empty string or whole number, not {kind}{hint}")
    return str(value)


def _topic_nuggets(records) -> pd.DataFrame:
    """The nuggets of (where, record) pairs, each record a nugget or a topic with a ``nuggets`` list."""
    rows: list[tuple] = []
    topics: dict[str, tuple[str, list[tuple]]] = {}
    listed: dict[str, None] = {}
    for where, record in records:
        qid = _qid(record.get("qid", record.get("topic_id")), where)
        if "nuggets" not in record:
            text, importance, nugget_id = _nugget_fields(record, where)
            rows.append((qid, nugget_id, text, importance, where, _provenance(record, where)))
            continue
        if not isinstance(record["nuggets"], list):
            raise ValueError(f"{where}: field 'nuggets' must be a list")
        listed[qid] = None
        nuggets = []
        for position, item in enumerate(record["nuggets"]):
            if not isinstance(item, dict):
                raise ValueError(f"{where}: nugget {position} must be a JSON object")
            text, importance, nugget_id = _nugget_fields(item, f"{where}: nugget {position}")
            nuggets.append((nugget_id, text, importance, _provenance(item, f"{where}: nugget {position}")))
        if qid in topics:
            first, known = topics[qid]
            if known != nuggets:
                raise ValueError(f"{where}: the nuggets of qid {qid!r} differ from those at {first}")
            continue
        topics[qid] = (where, nuggets)
        rows.extend(
            (qid, nugget_id, text, importance, f"{where}: nugget {position}", provenance)
            for position, (nugget_id, text, importance, provenance) in enumerate(nuggets)
        )
    frame = _numbered(rows)
    frame.attrs[EMPTY_TOPICS] = [qid for qid in listed if qid not in set(frame["qid"])]
    return frame


def _frame_nuggets(frame: pd.DataFrame) -> pd.DataFrame:
    if "nuggets" in frame.columns and "nugget" not in frame.columns and "text" not in frame.columns:
        # one row per topic or response with its nuggets, as load_nugget_assignments gives them
        return _topic_nuggets(
            (f"nugget frame, row {position}", record) for position, record in enumerate(frame.to_dict("records"))
        )
    text_column = "nugget" if "nugget" in frame.columns else "text"
    missing = [column for column in ("qid", text_column, "importance") if column not in frame.columns]
    if missing:
        raise ValueError(
            f"nugget frame: column {missing[0]!r} is missing (needs qid, nugget or text, importance; "
            f"has {', '.join(map(str, frame.columns))})"
        )
    rows = []
    for position, record in enumerate(frame.to_dict("records")):
        where = f"nugget frame, row {position}"
        qid = _qid(record["qid"], where)
        item = {"nugget": record[text_column], "importance": record["importance"]}
        if "nugget_id" in frame.columns and pd.notna(record["nugget_id"]):
            item["nugget_id"] = record["nugget_id"]
        text, importance, nugget_id = _nugget_fields(item, where)
        rows.append((qid, nugget_id, text, importance, where, _provenance(record, where)))
    return _numbered(rows)


def _file_nuggets(path: Path) -> pd.DataFrame:
    lines = 0

    def records():
        nonlocal lines
        for number, record in iter_jsonl(path):
            lines += 1
            yield f"{path}:{number}", record

    frame = _topic_nuggets(records())
    if not lines:
        raise ValueError(f"{path}:1: no topic and no nugget in the file")
    return frame


def load_nuggets(source: pd.DataFrame | str | Path) -> pd.DataFrame:
    """Each topic's nuggets from a frame or a file (see the module): ``qid, nugget_id, nugget, importance``.

    Raises:
        FileNotFoundError: no such file.
        ValueError: a file without a line, a missing field or column, an empty text, an importance other than
            vital/okay,
            a repeated nugget id within a topic, or a topic whose nuggets differ between lines;
            the message names the file and line, or the frame's row.
    """
    if isinstance(source, pd.DataFrame):
        return _frame_nuggets(source)
    if isinstance(source, (str, Path)):
        return _file_nuggets(Path(source))
    raise TypeError(f"nuggets must be a frame or the path of a nugget file, not {type(source).__name__}")
