"""The TREC 2024 RAG nugget judgments and CrowdRAG-25 as PyTerrier datasets, and the package's dataset provider.

The loaders live in :mod:`pyterrier_rag_axioms.judgments`; this module only wraps them as
``pt.get_dataset("rag-axioms:trec-rag-2024")`` and ``pt.get_dataset("rag-axioms:crowdrag-25")``.
Without paths, the public files are used (:mod:`pyterrier_rag_axioms.judgments.public_data`): a
local copy under ``$RAG_AXIOMS_DATA``, else a checked download cached in PyTerrier's data folder.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.declaration import check_arguments, declared_repr, parameter, parameters
from pyterrier_rag_axioms.judgments._records import records
from pyterrier_rag_axioms.judgments.crowdrag import load_crowdrag_judgments
from pyterrier_rag_axioms.judgments.public_data import DATA_VARIABLE, public_file
from pyterrier_rag_axioms.judgments.trec_rag import (
    DEFAULT_QRELS_SCALE,
    NUGGET_SCORE_TYPES,
    NuggetScoreType,
    load_nugget_assignments,
    load_topics,
    nugget_qrels,
)

#: Environment variable naming a local data folder: ``trec-rag-2024/`` there holds the public files
#: (``nugget_assignment.20241108.jl``, ``topics.rag24.test.txt``) or files laid out like the
#: development data (``nugget_assignment*.jsonl[.gz]``, ``topics*.txt``); ``crowdrag-25/`` the
#: public CrowdRAG-25 files. Used by ``pt.get_dataset("rag-axioms:...")`` when no paths are given.
DATA_ENVIRONMENT_VARIABLE = DATA_VARIABLE


def _first_match(folder: Path, pattern: str) -> Path | None:
    matches = sorted(folder.glob(pattern))
    return matches[0] if matches else None


def _as_path(dataset: object, path: str | Path | None) -> Path | None:
    return None if path is None else Path(path)


@parameters
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

    Without ``nuggets_path``, the nugget assignments come from ``$RAG_AXIOMS_DATA/trec-rag-2024/``
    where that holds them, else from the public file (NIST's assignments of 21 topics, 45 runs),
    downloaded once, checked against its SHA-256 and cached in PyTerrier's data folder.
    """

    #: The nugget assignments file (default: see above).
    nuggets_path: str | Path | None = parameter(None, positional=True, always_shown=True, resolve=_as_path)
    #: The topics file (default: the data folder's, else the public one where all topics are asked for).
    topics_path: str | Path | None = parameter(None, positional=True, always_shown=True, resolve=_as_path)
    #: The nugget score of the qrels: ``"all"``, ``"vital"`` or ``"weighted"``.
    score_type: NuggetScoreType = parameter("all", choices=NUGGET_SCORE_TYPES, in_repr=False)
    #: Count partial support as 0 instead of 0.5 in the qrels.
    strict: bool = parameter(False, in_repr=False)
    #: The qrels' scale: a nugget score of 1 is this label (see :func:`nugget_qrels`).
    scale: int = parameter(DEFAULT_QRELS_SCALE, in_repr=False)

    def __post_init__(self) -> None:
        self._public = self.nuggets_path is None  # the public files, unless paths were given
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
                self._public = self._public and key != "nuggets_path"
        if "score_type" in kwargs:
            check_arguments(self, score_type=kwargs["score_type"])
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
            found = _first_match(folder, "nugget_assignment*.j*l*") if folder else None
            self.nuggets_path = found if found is not None else public_file("trec-rag-2024", "nuggets")
        return self.nuggets_path

    def _topics_file(self, *, fetch: bool = False) -> Path | None:
        if self.topics_path is None:
            folder = self._data_folder()
            self.topics_path = _first_match(folder, "topics*.txt*") if folder else None
            if self.topics_path is None and fetch:
                self.topics_path = public_file("trec-rag-2024", "topics")
        return self.topics_path

    def assignments(self) -> pd.DataFrame:
        """The nugget assignments (see :func:`load_nugget_assignments`), loaded once."""
        if self._assignments is None:
            self._assignments = load_nugget_assignments(self._nuggets_file())
        return self._assignments

    def get_topics(self, variant: str | None = None) -> pd.DataFrame:
        if variant == "all":
            topics_file = self._topics_file(fetch=self._public)
            if topics_file is None:
                raise ValueError(f"{self!r}: get_topics('all') needs a topics file (topics_path)")
            return load_topics(topics_file)
        assignments = self.assignments()
        topics_file = self._topics_file()
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

    __repr__ = declared_repr


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


@parameters
class CrowdRag25Dataset(pt.datasets.Dataset):
    """CrowdRAG-25's pairwise utility judgments and retrieved passages as a PyTerrier dataset.

    - ``get_topics()``: the judged topics (``qid``, ``query``); ``get_topics("all")``: all 301
      topics of the retrieval file.
    - ``get_results()``: the passages retrieved for each topic, a result frame (``qid``, ``query``,
      ``docno``, ``text``, ``score``, ``rank``) in the file's order.
    - ``get_judgments()``: the judged pairs, one row per pair (``qid``, ``docno_a``, ``docno_b``, one
      truth column per utility dimension and its probabilities; see :func:`load_crowdrag_judgments`).

    Without paths, the files come from ``$RAG_AXIOMS_DATA/crowdrag-25/`` where that holds them, else
    from the public files, downloaded once, checked and cached in PyTerrier's data folder.
    """

    #: The ratings file (default: see above).
    ratings_path: str | Path | None = parameter(None, positional=True, always_shown=True, resolve=_as_path)
    #: The retrieval file, the passages of each topic (default: see above).
    retrieval_path: str | Path | None = parameter(None, positional=True, always_shown=True, resolve=_as_path)

    def _configure(self, **kwargs: Any) -> None:
        """Set paths given to ``pt.get_dataset(name, **kwargs)``."""
        allowed = {"ratings_path", "retrieval_path"}
        unknown = set(kwargs) - allowed
        if unknown:
            raise TypeError(f"{self!r}: unknown options {sorted(unknown)}; expected some of {sorted(allowed)}")
        for key, value in kwargs.items():
            if value is not None:
                setattr(self, key, Path(value))

    def _file(self, role: str) -> Path:
        given = self.ratings_path if role == "ratings" else self.retrieval_path
        return given if given is not None else public_file("crowdrag-25", role)

    def get_judgments(self) -> pd.DataFrame:
        """The judged pairs (see :func:`load_crowdrag_judgments`)."""
        return load_crowdrag_judgments(self._file("ratings"))

    def _retrieval(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        path = self._file("retrieval")
        topics, passages = [], []
        for line in records(path):
            qid, query = line.text("topic", allow_empty=False), line.text("query", allow_empty=False)
            ids, texts = line.list_("references_ids"), line.list_("references_texts")
            if len(ids) != len(texts) or not all(isinstance(text, str) for text in texts):
                raise line.error("'references_ids' and 'references_texts' must be lists of equal length, of texts")
            topics.append((qid, query))
            passages.extend((qid, query, str(docno), text, rank) for rank, (docno, text) in enumerate(zip(ids, texts)))
        results = pd.DataFrame(passages, columns=["qid", "query", "docno", "text", "rank"])
        results.insert(4, "score", 0.0 - results["rank"].astype(float))
        return pd.DataFrame(topics, columns=["qid", "query"]), results

    def get_topics(self, variant: str | None = None) -> pd.DataFrame:
        if variant not in (None, "all"):
            raise ValueError(f"{self!r}: unknown topics variant {variant!r}; use None or 'all'")
        topics = self._retrieval()[0]
        if variant == "all":
            return topics
        judged = set(self.get_judgments()["qid"])
        return topics[topics["qid"].isin(judged)].reset_index(drop=True)

    def get_results(self, variant: str | None = None) -> pd.DataFrame:
        if variant is not None:
            raise ValueError(f"{self!r}: get_results has no variants, not {variant!r}")
        return self._retrieval()[1]

    def get_corpus_lang(self) -> str:
        return "en"

    def get_topics_lang(self) -> str:
        return "en"

    def info_url(self) -> str:
        return "https://github.com/webis-de/ir_axioms/tree/main/data/crowd"

    def _describe_component(self, component: str) -> bool | list[str] | None:
        return {"topics": [None, "all"], "results": True}.get(component)

    __repr__ = declared_repr


class RagAxiomsDatasetProvider(pt.datasets.DatasetProvider):
    """Datasets of this package for ``pt.get_dataset("rag-axioms:<name>", **options)``.

    Registered as the ``rag-axioms`` entry point of ``pyterrier.dataset_provider``. Names:

    - ``trec-rag-2024`` (options: ``nuggets_path``, ``topics_path``, ``score_type``, ``strict``,
      ``scale``);
    - ``crowdrag-25`` (options: ``ratings_path``, ``retrieval_path``);
    - ``trec-rag-2024-sample``: the slice of ``trec-rag-2024`` shipped in the package (two topics,
      eight runs; :func:`~pyterrier_rag_axioms.sample.trec_sample_path`), with no download.

    Without paths, each reads the public files: from ``$RAG_AXIOMS_DATA/<name>/`` where set, else
    downloaded once (checked against their SHA-256) into PyTerrier's data folder.
    """

    def get_dataset(self, name: str) -> pt.datasets.Dataset:
        if name == "trec-rag-2024":
            return TrecRag2024Dataset()
        if name == "crowdrag-25":
            return CrowdRag25Dataset()
        if name == "trec-rag-2024-sample":
            from pyterrier_rag_axioms.sample import trec_sample_path

            return TrecRag2024Dataset(trec_sample_path("assignments.jsonl"), trec_sample_path("topics.txt"))
        raise KeyError(name)

    def list_dataset_names(self) -> list[str]:
        return ["trec-rag-2024", "crowdrag-25", "trec-rag-2024-sample"]
