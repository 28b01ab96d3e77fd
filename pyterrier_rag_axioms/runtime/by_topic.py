"""One way to run by topic: :class:`ByTopic`, the mixin of every transformer of the package, and
:func:`on_one_parse`, which runs several of them on each topic in one worker process.

Every result of the package's transformers depends on its topic (``qid``) alone, so a transformer's
work splits into whole topics in two ways, both cut by :func:`~pyterrier_rag_axioms.runtime.topics.topic_groups`:

- on this machine's cores, in worker processes forked from the caller
  (:mod:`~pyterrier_rag_axioms.runtime.processes`): a transformer that declares ``processes`` (the nugget
  assigner, the nugget extractor, the preference model's scores) hands its work on a list of topics to
  :meth:`ByTopic.by_topic`, which reads ``processes``, ``verbose`` and ``prepare`` of the transformer;
- on more machines, with ``.parallel(N)`` (pyterrier-alpha's workers, :mod:`~pyterrier_rag_axioms.runtime._alpha`),
  each of which works serially (``processes=1``).

:func:`on_one_parse` runs several transformers on each topic in the same worker, one after the other,
so that the analyzer they share parses each answer once for all (the run judge and the nugget
assigner of :func:`~pyterrier_rag_axioms.track.judge_and_assign`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.runtime.processes import map_topics
from pyterrier_rag_axioms.runtime.topics import response_characters

R = TypeVar("R")


class ByTopic:
    """Mixin: the transformer's work by topic, in worker processes (:meth:`by_topic`) or in pyterrier-alpha's
    workers (:meth:`parallel`), with the serial result (see the module)."""

    def parallel(self, N: int, backend: str = "joblib") -> pt.Transformer:  # noqa: N803 (PyTerrier's name)
        """A parallel version of this transformer over ``N`` workers (joblib or ray), split by ``qid``."""
        try:
            from pyterrier_rag_axioms.runtime._alpha import QueryParallelTransformer
        except ImportError as error:
            raise ImportError(
                f'{self!r}.parallel needs pyterrier-alpha: pip install "pyterrier-rag-axioms[parallel]"'
            ) from error
        from pyterrier_rag_axioms.declaration import declares, replaced

        serial = replaced(self, processes=1) if declares(self, "processes") else self
        return QueryParallelTransformer(serial, N, backend)

    def prepare(self) -> None:
        """Load what worker processes should inherit (spaCy models, encoders' model files): nothing here."""

    def by_topic(
        self,
        work: Callable[[list[Hashable], bool], R],
        responses: pd.DataFrame,
        topics: Sequence[Hashable] | None = None,
        *,
        desc: str | None = None,
    ) -> list[R]:
        """``work(group, verbose)`` for groups of whole topics of a response frame, in this transformer's
        worker processes (its declared ``processes``; its ``prepare`` runs before they fork).

        Args:
            work: the work on a list of topics, returning their results (picklable); its second argument
                asks for progress bars (in the caller's process only).
            responses: the response frame (``qid``, ``response``: the characters weigh each topic).
            topics: the topics, in order (default: the responses', in order of first appearance).
            desc: the progress bar's label (default: the class's name).

        Returns:
            The results of the groups (one only, of all topics, when serial); the caller merges them.
        """
        topics = list(dict.fromkeys(responses["qid"])) if topics is None else list(topics)
        return map_topics(
            work,
            topics,
            weights=response_characters(responses, topics),
            processes=self.processes,
            prepare=self.prepare,
            verbose=self.verbose,
            desc=desc or type(self).__name__,
        )


def on_one_parse(
    calls: Sequence[Callable[[pd.DataFrame], pd.DataFrame]],
    responses: pd.DataFrame,
    *,
    prepare: Sequence[Callable[[], object]] = (),
    processes: int | None = None,
    verbose: bool = False,
    desc: str = "topics",
) -> list[pd.DataFrame]:
    """Each call's output on a response frame, each topic's calls in one worker process, one after the other.

    Args:
        calls: transformers (or their methods) that work serially (``processes=1``), each giving rows
            with ``qid`` and ``docno``.
        responses: the response frame (``qid``, ``docno``, ``response``).
        prepare: what loads the models the workers inherit, before they fork.
        processes: worker processes (see :func:`~pyterrier_rag_axioms.runtime.processes.worker_count`).
        verbose: one progress bar over the topics.
        desc: the progress bar's label.

    Returns:
        One frame per call: its rows for all topics, in the order of their responses (each response's
        rows in the call's order), the rows and values of the call on the whole frame.
    """
    if responses.empty:
        return [call(responses) for call in calls]

    def work(topics: list, _verbose: bool) -> list[pd.DataFrame]:
        part = responses[responses["qid"].isin(topics)]
        return [call(part) for call in calls]

    topics = list(dict.fromkeys(responses["qid"]))
    results = map_topics(
        work,
        topics,
        weights=response_characters(responses, topics),
        processes=processes,
        prepare=lambda: [load() for load in prepare],
        verbose=verbose,
        desc=desc,
    )
    position = {key: number for number, key in enumerate(zip(responses["qid"], responses["docno"]))}
    return [_in_order(pd.concat([result[index] for result in results]), position) for index in range(len(calls))]


def _in_order(frame: pd.DataFrame, position: dict) -> pd.DataFrame:
    """``frame``'s rows in the order of their responses (stable: each response's rows keep theirs)."""
    order = [position[key] for key in zip(frame["qid"], frame["docno"])]
    return frame.iloc[pd.Series(order).argsort(kind="stable").to_numpy()].reset_index(drop=True)
