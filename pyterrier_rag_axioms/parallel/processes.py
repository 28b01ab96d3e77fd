"""Whole topics on this machine's cores: worker processes forked from the caller, with the serial result.

The nugget assigner, the nugget extractor and the run judge give each topic a result that depends on
that topic alone (its query, its responses, its nuggets), and nearly all their time is model work per topic: spaCy's
parse, which runs on one core, and the encoder. :func:`map_topics` cuts the topics into groups of
whole topics, balanced by an estimate of their work, and works on the groups in worker processes
forked from the caller (Linux), each on one core, so that every core parses and encodes all the
time. The workers inherit what the caller has loaded (the spaCy model, the frames); each returns
its groups' results, which the caller puts together in the serial order. The result is the serial
one: every value depends only on its topic (tested for the three).

- How many: the ``processes`` parameter of :class:`~pyterrier_rag_axioms.nuggets.NuggetAssigner`,
  :class:`~pyterrier_rag_axioms.nuggets.NuggetExtractor` and :class:`~pyterrier_rag_axioms.PreferenceModel`
  (its :meth:`~pyterrier_rag_axioms.PreferenceModel.scores`); by default the cores this process may
  use, at most :data:`MAX_PROCESSES`. ``processes=1`` works in the caller's process.
- Serial anyway: one topic, a platform without ``fork`` (macOS and Windows, where forking a process
  with loaded models is unsafe), or inside a worker (of this module, of ``.parallel``, of Ray).
- Ctrl-C stops the workers and reaches the caller as ``KeyboardInterrupt`` (the workers ignore it
  themselves). An error in a worker is raised in the caller.
- ``.parallel(N)`` (:mod:`~pyterrier_rag_axioms.parallel`) is for more machines; its workers work serially.
"""

from __future__ import annotations

import multiprocessing
import signal
import sys
import warnings
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, TypeVar

from pyterrier_rag_axioms.tools import threads

if TYPE_CHECKING:
    import pandas as pd

R = TypeVar("R")

#: The most worker processes used by default.
MAX_PROCESSES = 4
#: How many groups of topics each worker gets, on average: more groups balance uneven topics better.
GROUPS_PER_PROCESS = 3

#: The work of the running :func:`map_topics`, inherited by its forked workers (a closure cannot be pickled).
_work: Callable[[list[Hashable], bool], object] | None = None


def can_fork() -> bool:
    """Whether this process may fork workers: Linux, and not itself a worker of some pool."""
    return (
        sys.platform.startswith("linux")
        and not threads.in_worker()
        and not multiprocessing.current_process().daemon
    )


def resolve_processes(owner: object, processes: int | None) -> int | None:
    """``processes`` checked: ``None`` (the default, see :func:`worker_count`) or a whole number >= 1."""
    if processes is not None and (isinstance(processes, bool) or not isinstance(processes, int) or processes < 1):
        raise ValueError(f"{type(owner).__name__}: processes must be a whole number >= 1 or None, not {processes!r}")
    return processes


def worker_count(processes: int | None, topics: int) -> int:
    """How many worker processes :func:`map_topics` starts: ``processes`` (default: the cores this
    process may use, at most :data:`MAX_PROCESSES`), at most one per topic; 0 where it works serially."""
    if not can_fork():
        return 0
    wanted = min(threads.usable_cores(), MAX_PROCESSES) if processes is None else processes
    count = min(wanted, topics)
    return count if count > 1 else 0


def response_characters(responses: pd.DataFrame, topics: Sequence[Hashable]) -> list[int]:
    """The characters of each topic's distinct responses: an estimate of the topic's work."""
    characters = responses.groupby("qid", sort=False)["response"].agg(lambda texts: sum(map(len, set(texts))))
    return [int(characters.get(topic, 0)) for topic in topics]


def topic_groups(topics: Sequence[Hashable], weights: Sequence[float], groups: int) -> list[list[Hashable]]:
    """``topics`` cut into at most ``groups`` runs of neighbouring topics of about equal weight, heaviest first."""
    total = float(sum(weights)) or 1.0
    cut: list[list[Hashable]] = [[]]
    cut_weights = [0.0]
    for topic, weight in zip(topics, weights):
        if cut[-1] and cut_weights[-1] + weight / 2 > total / groups and len(cut) < groups:
            cut.append([])
            cut_weights.append(0.0)
        cut[-1].append(topic)
        cut_weights[-1] += weight
    order = sorted(range(len(cut)), key=lambda position: -cut_weights[position])
    return [cut[position] for position in order]


def _start_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the caller's: it stops the workers
    # the caller stops workers with SIGTERM; a handler inherited from it (a JVM's, Terrier's) has no
    # thread in this process to act on it, and the worker would never end
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threads.become_worker()
    threads.one_torch_thread_for_good()  # the caller's OpenMP threads did not survive the fork


def _run(group: list[Hashable]) -> object:
    from pyterrier_rag_axioms.tools.cache import flush_caches

    result = _work(group, False)
    flush_caches()  # a worker ends without running exit handlers
    return result


def map_topics(
    work: Callable[[list[Hashable], bool], R],
    topics: Sequence[Hashable],
    *,
    weights: Sequence[float],
    processes: int | None,
    prepare: Callable[[], object] | None = None,
    verbose: bool = False,
    desc: str = "topics",
) -> list[R]:
    """``work(group, verbose)`` for groups of whole ``topics``, in worker processes where there are cores for them.

    Args:
        work: the work on a list of topics, returning their results (picklable); its second
            argument asks for progress bars (in the caller's process only).
        topics: the topics, in order.
        weights: an estimate of each topic's work (e.g. the characters of its responses).
        processes: the worker processes (see :func:`worker_count`).
        prepare: loads what the workers should inherit (the spaCy model), before they fork.
        verbose: progress: ``work``'s own bars when serial, else one bar over the topics done.
        desc: the progress bar's label.

    Returns:
        The results of the groups, one per group (one only, of all topics, when serial); the caller
        merges them, in the serial order of its topics.
    """
    global _work
    workers = worker_count(processes, len(topics))
    if not workers:
        return [work(list(topics), verbose)]
    import pyterrier as pt

    if prepare is not None:
        prepare()
    groups = topic_groups(topics, weights, workers * GROUPS_PER_PROCESS)
    _work = work
    results = []
    with warnings.catch_warnings():  # numpy's BLAS threads wait idle: forking is safe here
        warnings.filterwarnings("ignore", message=".*fork.*", category=DeprecationWarning)
        pool = multiprocessing.get_context("fork").Pool(workers, initializer=_start_worker)
    try:
        with pt.tqdm(total=len(topics), desc=desc, unit="topic", disable=not verbose) as bar:
            for group, result in zip(groups, pool.imap(_run, groups)):
                results.append(result)
                bar.update(len(group))
        pool.close()  # the workers end once the groups are done
        pool.join()
    finally:
        _work = None
        pool.terminate()  # after an error or Ctrl-C: stop the workers (nothing to stop after join)
    return results
