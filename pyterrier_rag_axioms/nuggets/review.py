"""Drawn nuggets out and back: nuggetizer's "create" file, and a table for a person to review.

- :func:`save_nuggets` writes a nugget frame as nuggetizer writes created nuggets, one topic per
  line, ``{"qid", "query", "nuggets": [{"text", "importance", ...provenance}]}``;
  :func:`~pyterrier_rag_axioms.nuggets.load_nuggets` reads it back, provenance included, also
  after a person deleted a nugget, reworded it or made a vital one okay.
- :func:`review_table` shows one topic's nuggets with their support and source sentences, so
  that a person decides for each: keep, drop or edit.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from pyterrier_rag_axioms.io import atomic_write_text
from pyterrier_rag_axioms.nuggets.files import PROVENANCE_COLUMNS, load_nuggets


def _plain(value: object) -> object:
    """A provenance value as JSON holds it (lists of strings, whole numbers)."""
    if hasattr(value, "tolist"):
        return value.tolist()
    return list(value) if isinstance(value, tuple) else value


def nugget_lines(nuggets: pd.DataFrame, *, topics: Mapping[str, str] | None = None) -> list[str]:
    """The JSON lines of a nugget frame in nuggetizer's create format, one topic per line in the
    frame's order; ``query`` where the frame has it, provenance fields where it has them.

    ``topics``: qid to query of every topic to write, in order; a topic without nuggets in the frame
    (the extractor found no fact that two answers state) is written with an empty ``nuggets`` list,
    which :func:`~pyterrier_rag_axioms.nuggets.load_nuggets` reads back."""
    frame = load_nuggets(nuggets)
    queries = dict(zip(nuggets["qid"].astype(str), nuggets["query"])) if "query" in nuggets.columns else {}
    queries = {**{str(qid): query for qid, query in (topics or {}).items()}, **queries}
    provenance = [name for name in PROVENANCE_COLUMNS if name in frame.columns]
    by_qid = dict(list(frame.groupby("qid", sort=False)))
    lines = []
    for qid in dict.fromkeys([*map(str, topics or {}), *by_qid]):
        rows = by_qid.get(qid, frame.iloc[:0])
        items = []
        for record in rows.to_dict("records"):
            item = {"text": record["nugget"], "importance": record["importance"], "nugget_id": record["nugget_id"]}
            item.update({name: _plain(record[name]) for name in provenance if record[name] is not None})
            items.append(item)
        topic = {"qid": qid, **({"query": queries[qid]} if qid in queries else {}), "nuggets": items}
        lines.append(json.dumps(topic, ensure_ascii=False))
    return lines


def save_nuggets(nuggets: pd.DataFrame, path: str | Path, *, topics: Mapping[str, str] | None = None) -> None:
    """Write a nugget frame (e.g. :class:`~pyterrier_rag_axioms.nuggets.NuggetExtractor`'s output) to
    ``path`` in nuggetizer's create format (see :func:`nugget_lines`; ``topics``: every topic to write,
    qid to query, those without nuggets with an empty list), atomically."""
    atomic_write_text(Path(path), "".join(line + "\n" for line in nugget_lines(nuggets, topics=topics)))


def review_table(nuggets: pd.DataFrame | str | Path, qid: str) -> pd.DataFrame:
    """One topic's nuggets for review: ``nugget_id``, ``nugget``, ``importance``, ``support`` and
    ``source`` (one or two source sentences, one per line), in file order.

    In Jupyter, ``review_table(nuggets, qid).style`` shows it; decide per nugget whether to keep,
    drop or edit it, then edit the nugget file (or the frame) and assign with the reviewed nuggets.

    Raises:
        ValueError: the nuggets have no nugget for ``qid``.
    """
    frame = load_nuggets(nuggets)
    rows = frame[frame["qid"] == str(qid)]
    if rows.empty:
        known = ", ".join(map(repr, list(dict.fromkeys(frame["qid"]))[:5]))
        raise ValueError(f"review_table: no nuggets for qid {qid!r} (the nuggets have qids {known}, ...)")
    support = rows["support"] if "support" in rows.columns else pd.Series([None] * len(rows), index=rows.index)
    passages = rows["passages"] if "passages" in rows.columns else pd.Series([None] * len(rows), index=rows.index)
    return pd.DataFrame(
        {
            "nugget_id": rows["nugget_id"].to_numpy(),
            "nugget": rows["nugget"].to_numpy(),
            "importance": rows["importance"].to_numpy(),
            "support": support.to_numpy(),
            "source": ["\n".join(_plain(found)[:2]) if isinstance(_plain(found), list) else "" for found in passages],
        }
    )
