"""Human and LLM judgments of RAG responses: TREC 2024 RAG and CrowdRAG-25 loaders, and a PyTerrier dataset.

Every loader reads JSON lines or TSV, gzip-compressed or not (recognised by its magic bytes, so
the suffix does not matter), and returns a response frame or a preference frame (see
``DESIGN.md``). A malformed line raises a ``ValueError`` that starts with ``path:line:``.

- :func:`load_nugget_assignments`: TREC 2024 RAG nugget assignments, one response per run and topic.
- :func:`nugget_scores` / :func:`nugget_qrels`: the nugget score of each response, and qrels graded by it.
- :func:`load_crowdrag_responses` / :func:`load_crowdrag_judgments`: CrowdRAG-25 responses with their
  context, and the judged pairs with one truth column per utility dimension.
- :func:`load_llm_ratings`: the likelihood an LLM assigns to each response.
- :func:`load_topics`: a TREC RAG topics file (``qid<TAB>query``).
- :func:`load_run_file`: a TREC 2024 RAG run file (JSON lines of the track's format).
- :func:`trec_rag_2024_dataset`: the nugget-judged responses as a PyTerrier dataset, also available
  as ``pt.get_dataset("rag-axioms:trec-rag-2024", nuggets_path=..., topics_path=...)``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.frames import PAIR_COLUMNS
from pyterrier_rag_axioms.io import iter_jsonl as _json_records
from pyterrier_rag_axioms.io import iter_lines as _lines

NuggetScoreType = Literal["all", "vital", "weighted"]

#: The nugget score types of the TREC 2024 RAG track: all nuggets, vital nuggets only, or vital
#: nuggets weighted 1 and okay nuggets weighted 0.5.
NUGGET_SCORE_TYPES: tuple[str, ...] = ("all", "vital", "weighted")

#: How much a nugget assignment counts; ``partial_support`` counts 0 when scoring strictly.
NUGGET_ASSIGNMENT_SCORES: dict[str, float] = {"support": 1.0, "partial_support": 0.5, "not_support": 0.0}
NUGGET_IMPORTANCE_WEIGHTS: dict[str, float] = {"vital": 1.0, "okay": 0.5}

#: The utility dimensions judged in CrowdRAG-25, as named in its ratings file.
CROWDRAG_DIMENSIONS: tuple[str, ...] = (
    "correctness_topical",
    "coherence_logical",
    "coherence_stylistic",
    "coverage_broad",
    "coverage_deep",
    "consistency_internal",
    "quality_overall",
)

#: Scale of :func:`nugget_qrels`: a label is the nugget score times this, rounded to an integer.
DEFAULT_QRELS_SCALE = 100



# --------------------------------------------------------------------------------------------- reading


class _Line:
    """One record of a file, with checked access to its fields (errors name file and line)."""

    def __init__(self, path: str | Path, number: int, record: Mapping[str, Any]):
        self.path = path
        self.number = number
        self.record = record

    def error(self, message: str) -> ValueError:
        return ValueError(f"{self.path}:{self.number}: {message}")

    def _get(self, key: str) -> Any:
        if key not in self.record:
            raise self.error(f"field {key!r} is missing")
        return self.record[key]

    def text(self, key: str, *, allow_empty: bool = True) -> str:
        value = self._get(key)
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise self.error(f"field {key!r} must be a string, not {type(value).__name__} {value!r}")
        value = str(value)
        if not allow_empty and not value.strip():
            raise self.error(f"field {key!r} must not be empty")
        return value

    def number_(self, key: str) -> float:
        value = self._get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise self.error(f"field {key!r} must be a finite number, not {value!r}")
        return float(value)

    def count(self, key: str) -> int | None:
        """An optional count: a non-negative whole number, or ``None`` where absent or null."""
        value = self.record.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise self.error(f"field {key!r} must be a whole number or null, not {value!r}")
        if value < 0 or value != int(value):
            raise self.error(f"field {key!r} must be a whole number >= 0, not {value!r}")
        return int(value)

    def list_(self, key: str) -> list[Any]:
        value = self._get(key)
        if not isinstance(value, list):
            raise self.error(f"field {key!r} must be a list, not {type(value).__name__}")
        return value

    def choice(self, key: str, choices: Mapping[str, Any] | tuple[str, ...], where: str = "") -> str:
        value = self._get(key)
        if value not in choices:
            expected = ", ".join(repr(choice) for choice in choices)
            raise self.error(f"field {key!r}{where} must be one of {expected}, not {value!r}")
        return value


def _check_unique(keys: dict[tuple[str, str], int], key: tuple[str, str], line: _Line, what: str) -> None:
    if key in keys:
        raise line.error(f"{what} {key[1]!r} of topic {key[0]!r} occurs again (first on line {keys[key]})")
    keys[key] = line.number


# --------------------------------------------------------------------------------------------- TREC RAG nuggets


def load_nugget_assignments(path: str | Path) -> pd.DataFrame:
    """Load TREC 2024 RAG nugget assignments as a response frame.

    One row per line, that is per run answer to a topic: ``qid``, ``query``, ``docno`` (the run
    id), ``response`` (the answer text), ``context`` (``None``: the file has no retrieved
    context), ``response_length`` and ``nuggets`` (a list of dicts with ``text``,
    ``importance`` (``"vital"``/``"okay"``) and ``assignment``
    (``"support"``/``"partial_support"``/``"not_support"``)).

    Raises:
        ValueError: a line is not JSON, lacks a field, has a value of the wrong type or an unknown
            importance or assignment, or repeats a (qid, run_id); the message names file and line.
    """
    rows = []
    seen: dict[tuple[str, str], int] = {}
    for number, record in _json_records(path):
        line = _Line(path, number, record)
        qid = line.text("qid", allow_empty=False)
        run_id = line.text("run_id", allow_empty=False)
        _check_unique(seen, (qid, run_id), line, "run")
        nuggets = []
        for position, nugget in enumerate(line.list_("nuggets")):
            if not isinstance(nugget, dict):
                raise line.error(f"nugget {position} must be a JSON object, not {type(nugget).__name__}")
            item = _Line(path, number, nugget)
            where = f" of nugget {position}"
            nuggets.append(
                {
                    "text": item.text("text"),
                    "importance": item.choice("importance", NUGGET_IMPORTANCE_WEIGHTS, where),
                    "assignment": item.choice("assignment", NUGGET_ASSIGNMENT_SCORES, where),
                }
            )
        rows.append(
            {
                "qid": qid,
                "query": line.text("query"),
                "docno": run_id,
                "response": line.text("answer_text"),
                "context": None,
                "response_length": line.count("response_length"),
                "nuggets": nuggets,
            }
        )
    columns = ["qid", "query", "docno", "response", "context", "response_length", "nuggets"]
    return pd.DataFrame(rows, columns=columns)


def nugget_score(
    nuggets: list[Mapping[str, str]], *, score_type: NuggetScoreType = "all", strict: bool = False
) -> float:
    """The nugget score of one response: the (weighted) share of its topic's nuggets it supports.

    A supported nugget counts 1, a partially supported one 0.5 (0 when ``strict``). ``"all"``
    averages over all nuggets, ``"vital"`` over the vital ones, ``"weighted"`` weights vital
    nuggets 1 and okay nuggets 0.5. NaN when no nugget counts (e.g. a topic without vital nuggets).
    """
    _check_score_type(score_type)
    total = weight_sum = 0.0
    for nugget in nuggets:
        importance = nugget["importance"]
        if score_type == "vital" and importance != "vital":
            continue
        weight = NUGGET_IMPORTANCE_WEIGHTS[importance] if score_type == "weighted" else 1.0
        assignment = nugget["assignment"]
        value = 0.0 if strict and assignment == "partial_support" else NUGGET_ASSIGNMENT_SCORES[assignment]
        total += weight * value
        weight_sum += weight
    return total / weight_sum if weight_sum else float("nan")


def _check_score_type(score_type: str) -> None:
    if score_type not in NUGGET_SCORE_TYPES:
        raise ValueError(f"score_type must be one of {', '.join(map(repr, NUGGET_SCORE_TYPES))}, not {score_type!r}")


def _assignments_frame(assignments: pd.DataFrame | str | Path) -> pd.DataFrame:
    if isinstance(assignments, (str, Path)):
        return load_nugget_assignments(assignments)
    pt.validate.columns(assignments, includes=["qid", "docno", "nuggets"], context="nugget assignments")
    return assignments


def nugget_scores(
    assignments: pd.DataFrame | str | Path, *, score_type: NuggetScoreType = "all", strict: bool = False
) -> pd.DataFrame:
    """The nugget score of each response: a frame ``qid``, ``docno``, ``score`` (see :func:`nugget_score`).

    Args:
        assignments: the frame of :func:`load_nugget_assignments`, or the path of the file.
        score_type: ``"all"``, ``"vital"`` or ``"weighted"``.
        strict: count partial support as 0 instead of 0.5.
    """
    _check_score_type(score_type)
    frame = _assignments_frame(assignments)
    scores = [nugget_score(nuggets, score_type=score_type, strict=strict) for nuggets in frame["nuggets"]]
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
    labels = np.floor(scores["score"].to_numpy() * scale + 0.5).astype(int)
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
    for number, line in _lines(path):
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


def render_answer(answer: list[Mapping[str, Any]]) -> str:
    """The text of a TREC 2024 RAG answer: its sentences joined by spaces, each followed by its citations.

    Citations are rendered as ``[i,j]`` (indices into the run's references) before the sentence's
    final punctuation, e.g. ``"Paris is the capital of France [0,2]."``, so that CORR1 counts the
    sentence as citing.
    """
    parts = []
    for sentence in answer:
        text = str(sentence["text"]).strip()
        citations = sentence.get("citations") or []
        if citations:
            marker = "[" + ",".join(str(citation) for citation in citations) + "]"
            if text and text[-1] in ".!?":
                text = f"{text[:-1].rstrip()} {marker}{text[-1]}"
            else:
                text = f"{text} {marker}".strip()
        if text:
            parts.append(text)
    return " ".join(parts)


def load_run_file(path: str | Path, *, topics: pd.DataFrame | str | Path | None = None) -> pd.DataFrame:
    """Load a TREC 2024 RAG run file (JSON lines) as a response frame.

    Each line holds ``topic_id``, ``run_id``, ``references`` (document ids), ``answer`` (a list of
    ``{"text", "citations"}``, the citations indexing ``references``) and, usually, ``topic`` (the
    query text). The frame has ``qid`` (topic id), ``query``, ``docno`` (run id), ``response``
    (rendered by :func:`render_answer`), ``context`` (``None``: runs hold document ids, not texts),
    ``references`` and ``response_length``.

    Args:
        path: the run file (gzip-compressed or not).
        topics: topics (frame ``qid``, ``query`` or the path of a topics file) for lines without
            ``topic``.

    Raises:
        ValueError: a malformed line (file and line number in the message), a citation outside
            ``references``, a repeated (topic, run), or a line without query text and no topic for it.
    """
    queries: dict[str, str] = {}
    if topics is not None:
        topic_frame = load_topics(topics) if isinstance(topics, (str, Path)) else topics
        queries = dict(zip(topic_frame["qid"].astype(str), topic_frame["query"]))
    rows = []
    seen: dict[tuple[str, str], int] = {}
    for number, record in _json_records(path):
        line = _Line(path, number, record)
        qid = line.text("topic_id", allow_empty=False)
        run_id = line.text("run_id", allow_empty=False)
        _check_unique(seen, (qid, run_id), line, "run")
        references = [str(reference) for reference in line.list_("references")]
        answer = []
        for position, sentence in enumerate(line.list_("answer")):
            if not isinstance(sentence, dict):
                raise line.error(f"answer sentence {position} must be a JSON object, not {type(sentence).__name__}")
            item = _Line(path, number, sentence)
            text = item.text("text")
            citations = sentence.get("citations", [])
            if not isinstance(citations, list) or not all(
                isinstance(c, int) and not isinstance(c, bool) and 0 <= c < len(references) for c in citations
            ):
                raise line.error(
                    f"citations of answer sentence {position} must be indices into the {len(references)} "
                    f"references, not {citations!r}"
                )
            answer.append({"text": text, "citations": citations})
        if "topic" in record:
            query = line.text("topic")
        elif qid in queries:
            query = queries[qid]
        else:
            raise line.error(f"no field 'topic' and no query for topic {qid!r} in the given topics")
        rows.append(
            {
                "qid": qid,
                "query": query,
                "docno": run_id,
                "response": render_answer(answer),
                "context": None,
                "references": references,
                "response_length": line.count("response_length"),
            }
        )
    columns = ["qid", "query", "docno", "response", "context", "references", "response_length"]
    return pd.DataFrame(rows, columns=columns)


# --------------------------------------------------------------------------------------------- CrowdRAG-25


def load_crowdrag_responses(path: str | Path) -> pd.DataFrame:
    """Load CrowdRAG-25 responses as a response frame.

    Columns: ``qid`` (the topic), ``query``, ``docno`` (the response id), ``response`` (the raw
    text, with citations such as ``[0,1,2]`` indexing the context), ``context`` (the list of
    retrieved passages, ``references_texts``) and ``references`` (their ids).
    """
    rows = []
    seen: dict[tuple[str, str], int] = {}
    for number, record in _json_records(path):
        line = _Line(path, number, record)
        qid = line.text("topic", allow_empty=False)
        docno = line.text("response", allow_empty=False)
        _check_unique(seen, (qid, docno), line, "response")
        passages = line.list_("references_texts")
        if not all(isinstance(passage, str) for passage in passages):
            raise line.error("field 'references_texts' must be a list of strings")
        references = [str(reference) for reference in record.get("references_ids", [])]
        rows.append(
            {
                "qid": qid,
                "query": line.text("query"),
                "docno": docno,
                "response": line.text("raw_text"),
                "context": passages,
                "references": references,
            }
        )
    return pd.DataFrame(rows, columns=["qid", "query", "docno", "response", "context", "references"])


_GOLD_VALUES = {"a": 1.0, "b": -1.0, "n": 0.0}


def _judgment_rows(path: str | Path) -> Iterator[tuple[_Line, dict[str, Any]]]:
    """The ratings file's judgments: ids and, per dimension, the probabilities that a, b or neither is better."""
    for number, record in _json_records(path):
        line = _Line(path, number, record)
        qid = line.text("query_id", allow_empty=False)
        response_a = line.text("response_a", allow_empty=False)
        response_b = line.text("response_b", allow_empty=False)
        if response_a == response_b:
            raise line.error(f"response_a and response_b are the same response {response_a!r}")
        row: dict[str, Any] = {"qid": qid, "docno_a": response_a, "docno_b": response_b}
        for dimension in CROWDRAG_DIMENSIONS:
            row[f"{dimension}_p_a"] = line.number_(f"{dimension}_p_a")
            row[f"{dimension}_p_b"] = line.number_(f"{dimension}_p_b")
            # Annotators could not answer "neither" for overall quality: the file has no p_n there.
            key = f"{dimension}_p_n"
            row[key] = line.number_(key) if key in record or dimension != "quality_overall" else 0.0
            line.choice(f"{dimension}_gold", _GOLD_VALUES)
        yield line, row


def load_crowdrag_judgments(ratings_path: str | Path, responses_path: str | Path | None = None) -> pd.DataFrame:
    """Load CrowdRAG-25 pairwise judgments as a preference frame of the judged pairs.

    One row per judged unordered pair of responses, in the order of the pair's first judgment and
    oriented as judged there. Where a pair was judged more than once (in either orientation), the
    probabilities are averaged after aligning the orientation; ``judgments`` counts the judgments.

    For each utility dimension ``D`` of :data:`CROWDRAG_DIMENSIONS`, the frame has the
    probabilities ``D_p_a``, ``D_p_b`` and ``D_p_n`` that a, b or neither is better (``D_p_n`` is
    0 for ``quality_overall``, which had no "neither" option) and the truth column ``D``: ``+1.0``
    where a is the most probable answer, ``-1.0`` where b is, ``0.0`` otherwise. For a pair judged
    once this is the file's ``D_gold``.

    Args:
        ratings_path: the ratings file.
        responses_path: the responses file (see :func:`load_crowdrag_responses`). With it, the
            frame is a full preference frame (``query``, ``response_a``, ``response_b``,
            ``context_a``, ``context_b``), ready for axioms; without it, it holds ids and judgments only.

    Raises:
        ValueError: a malformed line, or (with responses) a judged response not in the responses
            file; the message names file and line.
    """
    probability_columns = [f"{d}_p_{side}" for d in CROWDRAG_DIMENSIONS for side in ("a", "b", "n")]
    responses = None
    if responses_path is not None:
        frame = load_crowdrag_responses(responses_path)
        responses = {(qid, docno): row for qid, docno, row in zip(frame["qid"], frame["docno"], frame.itertuples())}
    pairs: dict[tuple[str, str, str], dict[str, Any]] = {}
    for line, row in _judgment_rows(ratings_path):
        qid, docno_a, docno_b = row["qid"], row["docno_a"], row["docno_b"]
        if responses is not None:
            for docno in (docno_a, docno_b):
                if (qid, docno) not in responses:
                    raise line.error(f"response {docno!r} of topic {qid!r} is not in {responses_path}")
        key = (qid, *sorted((docno_a, docno_b)))
        if key not in pairs:
            pairs[key] = {**row, "judgments": 1}
            continue
        pair = pairs[key]
        swapped = pair["docno_a"] != docno_a
        count = pair["judgments"]
        for dimension in CROWDRAG_DIMENSIONS:
            for side, other in (("a", "b"), ("b", "a"), ("n", "n")):
                value = row[f"{dimension}_p_{other if swapped else side}"]
                column = f"{dimension}_p_{side}"
                pair[column] = (pair[column] * count + value) / (count + 1)
        pair["judgments"] = count + 1
    table = pd.DataFrame(list(pairs.values()), columns=["qid", "docno_a", "docno_b", "judgments", *probability_columns])
    for dimension in CROWDRAG_DIMENSIONS:
        p_a, p_b, p_n = (table[f"{dimension}_p_{side}"].to_numpy(dtype=float) for side in ("a", "b", "n"))
        table[dimension] = np.where(p_a > np.maximum(p_b, p_n), 1.0, np.where(p_b > np.maximum(p_a, p_n), -1.0, 0.0))
    truth_columns = list(CROWDRAG_DIMENSIONS)
    if responses is None:
        return table[["qid", "docno_a", "docno_b", "judgments", *truth_columns, *probability_columns]]
    rows_a = [responses[(qid, docno)] for qid, docno in zip(table["qid"], table["docno_a"])]
    rows_b = [responses[(qid, docno)] for qid, docno in zip(table["qid"], table["docno_b"])]
    table["query"] = [row.query for row in rows_a]
    table["response_a"] = [row.response for row in rows_a]
    table["response_b"] = [row.response for row in rows_b]
    table["context_a"] = [row.context for row in rows_a]
    table["context_b"] = [row.context for row in rows_b]
    return table[[*PAIR_COLUMNS, "judgments", *truth_columns, *probability_columns]]


def load_llm_ratings(path: str | Path) -> pd.DataFrame:
    """Load LLM likelihood ratings of CrowdRAG-25 responses as a response frame.

    Columns: ``qid`` (the topic), ``query``, ``docno`` (the response id), ``response`` (the raw
    text), ``context`` (``None``) and ``probability`` (the likelihood the LLM assigns to the
    response under a RAG prompt; higher is better).
    """
    rows = []
    seen: dict[tuple[str, str], int] = {}
    for number, record in _json_records(path):
        line = _Line(path, number, record)
        qid = line.text("topic", allow_empty=False)
        docno = line.text("response", allow_empty=False)
        _check_unique(seen, (qid, docno), line, "response")
        rows.append(
            {
                "qid": qid,
                "query": line.text("query"),
                "docno": docno,
                "response": line.text("raw_text"),
                "context": None,
                "probability": line.number_("probability"),
            }
        )
    return pd.DataFrame(rows, columns=["qid", "query", "docno", "response", "context", "probability"])


# --------------------------------------------------------------------------------------------- PyTerrier dataset

#: Environment variable naming a data folder laid out like the project's development data
#: (``trec-rag-2024/nugget_assignment*.jsonl[.gz]``, ``trec-rag-2024/topics*.txt``); used by
#: ``pt.get_dataset("rag-axioms:trec-rag-2024")`` when no paths are given.
DATA_ENVIRONMENT_VARIABLE = "RAG_AXIOMS_DATA"


def _first_match(folder: Path, pattern: str) -> Path | None:
    matches = sorted(folder.glob(pattern))
    return matches[0] if matches else None


class TrecRag2024Dataset(pt.datasets.Dataset):
    """The nugget-judged responses of the TREC 2024 RAG track as a PyTerrier dataset.

    - ``get_topics()``: the judged topics (``qid``, ``query``); the query text comes from the
      topics file where one is given. ``get_topics("all")`` returns the whole topics file.
    - ``get_qrels()``: qrels graded by nugget score (:func:`nugget_qrels`); the variant selects the
      score type (``"all"``, ``"vital"``, ``"weighted"``; default: the dataset's ``score_type``).
    - ``get_results()``: the judged responses as a result frame in file order (``qid``, ``query``,
      ``docno``, ``response``, ``context``, ``score``, ``rank``), the input of a reranking experiment.
    - ``get_corpus_iter()``: one dict per response (``docno`` is the run id, unique only within a
      ``qid``; ``text`` is the answer).
    """

    def __init__(
        self,
        nuggets_path: str | Path | None = None,
        topics_path: str | Path | None = None,
        *,
        score_type: NuggetScoreType = "all",
        strict: bool = False,
        scale: int = DEFAULT_QRELS_SCALE,
    ):
        _check_score_type(score_type)
        self.nuggets_path = None if nuggets_path is None else Path(nuggets_path)
        self.topics_path = None if topics_path is None else Path(topics_path)
        self.score_type = score_type
        self.strict = strict
        self.scale = scale
        self._assignments: pd.DataFrame | None = None

    def _configure(self, **kwargs: Any) -> None:
        """Set paths and options given to ``pt.get_dataset(name, **kwargs)``."""
        allowed = {"nuggets_path", "topics_path", "score_type", "strict", "scale"}
        unknown = set(kwargs) - allowed
        if unknown:
            raise TypeError(f"{self!r}: unknown options {sorted(unknown)}; expected some of {sorted(allowed)}")
        for key in ("nuggets_path", "topics_path"):
            if kwargs.get(key) is not None:
                setattr(self, key, Path(kwargs[key]))
        if "score_type" in kwargs:
            _check_score_type(kwargs["score_type"])
            self.score_type = kwargs["score_type"]
        self.strict = bool(kwargs.get("strict", self.strict))
        self.scale = int(kwargs.get("scale", self.scale))
        self._assignments = None

    def _data_folder(self) -> Path | None:
        folder = os.environ.get(DATA_ENVIRONMENT_VARIABLE)
        return Path(folder) / "trec-rag-2024" if folder else None

    def _nuggets_file(self) -> Path:
        if self.nuggets_path is None:
            folder = self._data_folder()
            found = _first_match(folder, "nugget_assignment*.jsonl*") if folder else None
            if found is None:
                raise FileNotFoundError(
                    f"{self!r}: no nugget assignments file; pass nuggets_path (e.g. "
                    f"pt.get_dataset('rag-axioms:trec-rag-2024', nuggets_path=...)) or set "
                    f"{DATA_ENVIRONMENT_VARIABLE} to a folder with trec-rag-2024/nugget_assignment*.jsonl"
                )
            self.nuggets_path = found
        return self.nuggets_path

    def _topics_file(self) -> Path | None:
        if self.topics_path is None:
            folder = self._data_folder()
            self.topics_path = _first_match(folder, "topics*.txt*") if folder else None
        return self.topics_path

    def assignments(self) -> pd.DataFrame:
        """The nugget assignments (see :func:`load_nugget_assignments`), loaded once."""
        if self._assignments is None:
            self._assignments = load_nugget_assignments(self._nuggets_file())
        return self._assignments

    def get_topics(self, variant: str | None = None) -> pd.DataFrame:
        assignments = self.assignments()
        topics_file = self._topics_file()
        if variant == "all":
            if topics_file is None:
                raise ValueError(f"{self!r}: get_topics('all') needs a topics file (topics_path)")
            return load_topics(topics_file)
        if variant is not None:
            raise ValueError(f"{self!r}: unknown topics variant {variant!r}; use None or 'all'")
        judged = assignments[["qid", "query"]].drop_duplicates("qid").reset_index(drop=True)
        if topics_file is not None:
            queries = dict(zip(*load_topics(topics_file)[["qid", "query"]].to_numpy().T))
            judged["query"] = [queries.get(qid, query) for qid, query in zip(judged["qid"], judged["query"])]
        return judged

    def get_qrels(self, variant: str | None = None) -> pd.DataFrame:
        score_type = self.score_type if variant is None else variant
        return nugget_qrels(self.assignments(), score_type=score_type, strict=self.strict, scale=self.scale)

    def get_results(self, variant: str | None = None) -> pd.DataFrame:
        if variant is not None:
            raise ValueError(f"{self!r}: get_results has no variants, not {variant!r}")
        results = self.assignments()[["qid", "query", "docno", "response", "context"]].copy()
        results["rank"] = results.groupby("qid", sort=False).cumcount()
        results["score"] = 0.0 - results["rank"].astype(float)
        return results

    def get_corpus_iter(self, *, verbose: bool = True) -> Iterator[dict[str, Any]]:
        frame = self.assignments()
        rows = zip(frame["qid"], frame["docno"], frame["response"])
        for qid, docno, text in pt.tqdm(rows, total=len(frame), desc="responses", disable=not verbose):
            yield {"qid": qid, "docno": docno, "text": text}

    def get_corpus_lang(self) -> str:
        return "en"

    def get_topics_lang(self) -> str:
        return "en"

    def info_url(self) -> str:
        return "https://trec-rag.github.io/"

    def _describe_component(self, component: str) -> bool | list[str] | None:
        return {
            "topics": [None, "all"],
            "qrels": list(NUGGET_SCORE_TYPES),
            "results": True,
            "corpus_iter": True,
        }.get(component)

    def __repr__(self) -> str:
        return f"TrecRag2024Dataset(nuggets_path={self.nuggets_path!r}, topics_path={self.topics_path!r})"


def trec_rag_2024_dataset(
    nuggets_path: str | Path | None = None,
    topics_path: str | Path | None = None,
    *,
    score_type: NuggetScoreType = "all",
    strict: bool = False,
    scale: int = DEFAULT_QRELS_SCALE,
) -> TrecRag2024Dataset:
    """The TREC 2024 RAG nugget judgments as a PyTerrier dataset (see :class:`TrecRag2024Dataset`)."""
    return TrecRag2024Dataset(nuggets_path, topics_path, score_type=score_type, strict=strict, scale=scale)


class RagAxiomsDatasetProvider(pt.datasets.DatasetProvider):
    """Datasets of this package for ``pt.get_dataset("rag-axioms:<name>", **options)``.

    Registered as the ``rag-axioms`` entry point of ``pyterrier.dataset_provider``. Names:
    ``trec-rag-2024`` (options: ``nuggets_path``, ``topics_path``, ``score_type``, ``strict``,
    ``scale``; without paths, the files are looked up under ``$RAG_AXIOMS_DATA/trec-rag-2024/``).
    """

    def get_dataset(self, name: str) -> pt.datasets.Dataset:
        if name == "trec-rag-2024":
            return TrecRag2024Dataset()
        raise KeyError(name)

    def list_dataset_names(self) -> list[str]:
        return ["trec-rag-2024"]
