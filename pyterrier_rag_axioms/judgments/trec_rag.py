"""TREC 2024 RAG: nugget assignments, nugget scores and qrels, topics and run files.

A malformed line raises a ``ValueError`` that starts with ``path:line:``.

Every loader reads JSON lines or TSV, gzip-compressed or not (recognised by its magic bytes, so
the suffix does not matter), and returns a response frame or a preference frame (see
``docs/frames.md``). A malformed line raises a ``ValueError`` that starts with ``path:line:``.

- :func:`load_nugget_assignments`: TREC 2024 RAG nugget assignments, one response per run and topic.
- :func:`nugget_scores` / :func:`nugget_qrels`: the nugget score of each response, and qrels graded by it,
  from human or automatic assignments (:func:`nested_assignments` reads the latter).
- :func:`load_crowdrag_responses` / :func:`load_crowdrag_judgments`: CrowdRAG-25 responses with their
  context, and the judged pairs with one truth column per utility dimension.
- :func:`load_llm_ratings`: the likelihood an LLM assigns to each response.
- :func:`load_topics`: a TREC RAG topics file (``qid<TAB>query``).

The track's run files are read in :mod:`pyterrier_rag_axioms.judgments.rag_runs`.

The PyTerrier dataset over the nugget judgments is in :mod:`pyterrier_rag_axioms.judgments.dataset`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Literal, get_args

import numpy as np
import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.io import iter_jsonl, iter_lines
from pyterrier_rag_axioms.judgments._records import Record, keyed_records

NuggetScoreType = Literal["all", "vital", "weighted"]

#: The nugget score types of the TREC 2024 RAG track: all nuggets, vital nuggets only, or vital
#: nuggets weighted 1 and okay nuggets weighted 0.5.
NUGGET_SCORE_TYPES: tuple[str, ...] = get_args(NuggetScoreType)

#: How much a nugget assignment counts; ``partial_support`` counts 0 when scoring strictly.
NUGGET_ASSIGNMENT_SCORES: dict[str, float] = {"support": 1.0, "partial_support": 0.5, "not_support": 0.0}
NUGGET_IMPORTANCE_WEIGHTS: dict[str, float] = {"vital": 1.0, "okay": 0.5}


#: Scale of :func:`nugget_qrels`: a label is the nugget score times this, rounded to an integer.
DEFAULT_QRELS_SCALE = 100

# --------------------------------------------------------------------------------------------- TREC RAG nuggets


def load_nugget_assignments(path: str | Path) -> pd.DataFrame:
    """Load TREC 2024 RAG nugget assignments as a response frame.

    One row per line, that is per run answer to a topic: ``qid``, ``query``, ``docno`` (the run
    id), ``response`` (the answer text), ``context`` (``None``: the file has no retrieved
    context), ``response_length`` and ``nuggets`` (a list of dicts with ``text``,
    ``importance`` (``"vital"``/``"okay"``) and ``assignment``
    (``"support"``/``"partial_support"``/``"not_support"``), and ``counted`` where the file has it:
    false for a nugget drawn from that answer's own words, left out of its scores).

    Raises:
        ValueError: the file is empty, a line is not JSON, lacks a field, has a value of the wrong
            type (a query or answer that is not a string) or an unknown importance or assignment,
            or repeats a (qid, run_id); the message names file and line.
    """
    _refuse_other_kinds(path)
    rows = []
    for (qid, run_id), line in keyed_records(path, qid="qid", docno="run_id", what="run"):
        nuggets = []
        for position, nugget in enumerate(line.list_("nuggets")):
            if not isinstance(nugget, dict):
                raise line.error(f"nugget {position} must be a JSON object, not {type(nugget).__name__}")
            item = Record(path, line.number, nugget)
            where = f" of nugget {position}"
            read = {
                "text": item.text("text"),
                "importance": item.choice("importance", NUGGET_IMPORTANCE_WEIGHTS, where),
                "assignment": item.choice("assignment", NUGGET_ASSIGNMENT_SCORES, where),
            }
            if "counted" in nugget:  # no self-credit, as rag-axioms assign writes it (see nugget_score)
                if not isinstance(nugget["counted"], bool):
                    raise line.error(f"field 'counted'{where} must be true or false, not {nugget['counted']!r}")
                read["counted"] = nugget["counted"]
            nuggets.append(read)
        rows.append(
            {
                "qid": qid,
                "query": line.text("query", allow_number=False),
                "docno": run_id,
                "response": line.text("answer_text", allow_number=False),
                "context": None,
                "response_length": line.count("response_length"),
                "nuggets": nuggets,
            }
        )
    if not rows:
        raise ValueError(f"{path}:1: no nugget assignments (the file is empty); expected one JSON object per line")
    columns = ["qid", "query", "docno", "response", "context", "response_length", "nuggets"]
    return pd.DataFrame(rows, columns=columns)


#: Other files given where assignments belong, by the fields of their first record: (fields, what it is).
OTHER_FILE_KINDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("topic_id", "answer"), "a TREC 2024 RAG run file (topic_id, answer)"),
    (("qid", "nuggets"), "a nugget file (qid, nuggets without run_id and answer_text)"),
    (("qid", "response"), "a response file (qid, response)"),
    (("qanswer",), "a response file (qanswer)"),
)


def _refuse_other_kinds(path: str | Path) -> None:
    """Name the kind of file that the first record of ``path`` looks like, where it is no assignment file."""
    for number, record in iter_jsonl(path):
        if {"run_id", "answer_text", "nuggets"} <= set(record):
            return
        for fields, kind in OTHER_FILE_KINDS:
            if set(fields) <= set(record):
                raise ValueError(
                    f"{path}:{number}: this looks like {kind}, not nugget assignments (qid, run_id, answer_text, "
                    "nuggets with their assignment)"
                )
        return


def nugget_score(
    nuggets: list[Mapping[str, str]], *, score_type: NuggetScoreType = "all", strict: bool = False
) -> float:
    """The nugget score of one response: the (weighted) share of its topic's nuggets it supports.

    A supported nugget counts 1, a partially supported one 0.5 (0 when ``strict``). ``"all"``
    averages over all nuggets, ``"vital"`` over the vital ones, ``"weighted"`` weights vital
    nuggets 1 and okay nuggets 0.5. A nugget with ``"counted": False`` (drawn from this response's
    own words: no self-credit) is left out of both sides of the share. A response left with no
    nugget that counts (an empty list, or every nugget ``counted: false``) scores 0, as nuggetizer's
    scorer scores a response without nuggets, so it stays in its run's mean. NaN only where the
    topic has no nugget of the score's kind at all (``"vital"`` on a topic without vital nuggets).

    Raises:
        ValueError: a ``counted`` that is not a boolean (the string ``"False"`` is not false).
    """
    _check_score_type(score_type)
    total = weight_sum = 0.0
    of_kind = False
    for position, nugget in enumerate(nuggets):
        importance = nugget["importance"]
        if score_type == "vital" and importance != "vital":
            continue
        of_kind = True
        counted = nugget.get("counted", True)
        if not isinstance(counted, (bool, np.bool_)):
            raise ValueError(f"nugget {position}: counted must be True or False, not {counted!r}")
        if not counted:
            continue
        weight = NUGGET_IMPORTANCE_WEIGHTS[importance] if score_type == "weighted" else 1.0
        assignment = nugget["assignment"]
        value = 0.0 if strict and assignment == "partial_support" else NUGGET_ASSIGNMENT_SCORES[assignment]
        total += weight * value
        weight_sum += weight
    if weight_sum:
        return total / weight_sum
    return 0.0 if of_kind or not nuggets else float("nan")


def _check_score_type(score_type: str) -> None:
    if score_type not in NUGGET_SCORE_TYPES:
        raise ValueError(f"score_type must be one of {', '.join(map(repr, NUGGET_SCORE_TYPES))}, not {score_type!r}")


def nested_assignments(assignments: pd.DataFrame) -> pd.DataFrame:
    """One row per response (``qid``, ``docno``, ``nuggets``) from one row per (response, nugget).

    ``assignments`` has ``qid``, ``docno``, ``importance`` and ``assignment`` per row, as
    :class:`~pyterrier_rag_axioms.nuggets.NuggetAssigner` writes them (and ``counted`` where it
    has it, kept per nugget); responses keep the order of their first row, nuggets their order
    within a response.

    Raises:
        ValueError: an importance other than vital/okay or an unknown assignment (naming the row).
    """
    pt.validate.columns(
        assignments, includes=["qid", "docno", "importance", "assignment"], context="nugget assignments"
    )
    for column, known in (("importance", NUGGET_IMPORTANCE_WEIGHTS), ("assignment", NUGGET_ASSIGNMENT_SCORES)):
        unknown = ~assignments[column].isin(list(known))
        if unknown.any():
            row = assignments.index[unknown.to_numpy().argmax()]
            raise ValueError(
                f"nugget assignments: row {row}: {column} must be one of {', '.join(map(repr, known))}, "
                f"not {assignments.at[row, column]!r}"
            )
    keys = pd.DataFrame({"qid": assignments["qid"].astype(str), "docno": assignments["docno"].astype(str)})
    nuggets = [
        {"importance": importance, "assignment": assignment}
        for importance, assignment in zip(assignments["importance"], assignments["assignment"])
    ]
    if "counted" in assignments.columns:  # no self-credit (see nugget_score): booleans only
        for row, (nugget, counted) in zip(assignments.index, zip(nuggets, assignments["counted"])):
            if not isinstance(counted, (bool, np.bool_)):
                raise ValueError(f"nugget assignments: row {row}: counted must be True or False, not {counted!r}")
            nugget["counted"] = bool(counted)
    grouped: dict[tuple[str, str], list[dict[str, str]]] = {}
    for key, nugget in zip(zip(keys["qid"], keys["docno"]), nuggets):
        grouped.setdefault(key, []).append(nugget)
    return pd.DataFrame(
        [(qid, docno, items) for (qid, docno), items in grouped.items()], columns=["qid", "docno", "nuggets"]
    )


def _assignments_frame(assignments: pd.DataFrame | str | Path) -> pd.DataFrame:
    if isinstance(assignments, (str, Path)):
        return load_nugget_assignments(assignments)
    if "nuggets" not in assignments.columns and "assignment" in assignments.columns:
        return nested_assignments(assignments)
    pt.validate.columns(assignments, includes=["qid", "docno", "nuggets"], context="nugget assignments")
    return assignments


def nugget_scores(
    assignments: pd.DataFrame | str | Path, *, score_type: NuggetScoreType = "all", strict: bool = False
) -> pd.DataFrame:
    """The nugget score of each response: a frame ``qid``, ``docno``, ``score`` (see :func:`nugget_score`).

    Args:
        assignments: the frame of :func:`load_nugget_assignments` or the path of its file (human
            assignments), or one row per (response, nugget) with ``qid``, ``docno``,
            ``importance`` and ``assignment``, as :class:`~pyterrier_rag_axioms.nuggets.NuggetAssigner`
            writes them (automatic assignments).
        score_type: ``"all"``, ``"vital"`` or ``"weighted"``.
        strict: count partial support as 0 instead of 0.5.

    Raises:
        ValueError: a malformed file or row, or a ``counted`` that is not a boolean (naming the
            file and line, or the run and topic).
    """
    _check_score_type(score_type)
    frame = _assignments_frame(assignments)
    scores = []
    for qid, docno, nuggets in zip(frame["qid"], frame["docno"], frame["nuggets"]):
        try:
            scores.append(nugget_score(nuggets, score_type=score_type, strict=strict))
        except ValueError as error:
            raise ValueError(f"nugget assignments: run {docno!r} on topic {qid!r}: {error}") from None
    return pd.DataFrame(
        {"qid": frame["qid"].astype(str).to_numpy(), "docno": frame["docno"].astype(str).to_numpy(), "score": scores},
        columns=["qid", "docno", "score"],
    ).astype({"score": float})


def nugget_qrels(
    assignments: pd.DataFrame | str | Path,
    *,
    score_type: NuggetScoreType = "all",
    strict: bool = False,
    scale: int = DEFAULT_QRELS_SCALE,
) -> pd.DataFrame:
    """Qrels graded by nugget score: a frame ``qid``, ``docno``, ``label`` for ``pt.Experiment``.

    The label is ``score * scale`` rounded half up, an integer from 0 to ``scale`` (trec_eval and
    ir-measures need integer labels). Graded measures such as nDCG are invariant to scaling all
    gains, so nDCG over these labels equals nDCG over the raw scores up to rounding to
    ``1/scale``. Binary measures count every label >= 1 as relevant; pass a threshold, e.g.
    ``AP(rel=50)``, to count only responses with a nugget score of at least 0.5. Responses
    whose score is undefined (NaN) are left out.
    """
    if scale < 1:
        raise ValueError(f"scale must be a positive integer, not {scale!r}")
    scores = nugget_scores(assignments, score_type=score_type, strict=strict).dropna(subset=["score"])
    # rounded to 9 decimals first, so that 11.5 / 20 * 100, stored as 57.4999..., rounds up to 58
    labels = np.floor(np.round(scores["score"].to_numpy() * scale, 9) + 0.5).astype(int)
    return pd.DataFrame({"qid": scores["qid"].to_numpy(), "docno": scores["docno"].to_numpy(), "label": labels})


# --------------------------------------------------------------------------------------------- topics and runs


def load_topics(path: str | Path) -> pd.DataFrame:
    """Load a TREC RAG topics file (``qid<TAB>query`` per line) as a frame ``qid``, ``query``.

    Raises:
        FileNotFoundError: no such file.
        ValueError: a line is not UTF-8 text, has no tab, an empty qid or query, or repeats a
            qid; the message names file and line.
    """
    path = Path(path)
    rows = []
    seen: dict[str, int] = {}
    for number, line in iter_lines(path):
        line = line.rstrip("\r\n")
        if not line.strip():
            continue
        qid, tab, query = line.partition("\t")
        if not tab:
            raise ValueError(f"{path}:{number}: expected 'qid<TAB>query', found no tab in {line[:80]!r}")
        qid, query = qid.strip(), query.strip()
        if not qid or not query:
            raise ValueError(f"{path}:{number}: empty {'qid' if not qid else 'query'}")
        if qid in seen:
            raise ValueError(f"{path}:{number}: qid {qid!r} occurs again (first on line {seen[qid]})")
        seen[qid] = number
        rows.append((qid, query))
    return pd.DataFrame(rows, columns=["qid", "query"])



#: The ir-datasets id of the TREC 2024 RAG topics (MS MARCO v2.1 segments).
TREC_RAG_2024_IR_DATASET = "msmarco-segment-v2.1/trec-rag-2024"


def trec_rag_2024_topics(path: str | Path | None = None) -> pd.DataFrame:
    """The TREC 2024 RAG topics as a frame ``qid``, ``query``: from a topics file, else from ir-datasets.

    Without ``path``, ir-datasets serves them as :data:`TREC_RAG_2024_IR_DATASET` where the
    installed release registers that dataset (it downloads the topics on first use); with
    ``path``, :func:`load_topics` reads the track's ``qid<TAB>query`` file.

    Raises:
        ValueError: ir-datasets is not installed, does not know the dataset, or cannot fetch it (for
            instance offline); the message says which, and that a topics file works instead.
    """
    if path is not None:
        return load_topics(path)
    instead = "or pass the track's topics file: trec_rag_2024_topics('topics.rag24.test.txt')"
    try:
        import ir_datasets
    except ImportError:
        raise ValueError(f"trec_rag_2024_topics: ir-datasets is not installed (pip install ir-datasets), {instead}") \
            from None
    try:
        dataset = ir_datasets.load(TREC_RAG_2024_IR_DATASET)
    except KeyError:
        raise ValueError(
            f"trec_rag_2024_topics: the installed ir-datasets ({getattr(ir_datasets, '__version__', '?')}) has no "
            f"dataset {TREC_RAG_2024_IR_DATASET!r}; install a release that has it, {instead}"
        ) from None
    try:
        queries = [(str(query.query_id), str(query.text)) for query in dataset.queries_iter()]
    except Exception as error:  # ir-datasets' download errors come in many types
        raise ValueError(
            f"trec_rag_2024_topics: ir-datasets could not fetch the topics of {TREC_RAG_2024_IR_DATASET!r} "
            f"({type(error).__name__}: {error}); offline? Fetch them once online, {instead}"
        ) from error
    return pd.DataFrame(queries, columns=["qid", "query"])
