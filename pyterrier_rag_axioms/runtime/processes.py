"""Whole topics on this machine's cores: worker processes forked from the caller, with the serial result.

The nugget assigner, the nugget extractor and the run judge give each topic a result that depends on
that topic alone (its query, its responses, its nuggets), and nearly all their time is model work per topic: spaCy's
parse, which runs on one core, and the encoder. :func:`map_topics` cuts the topics into groups of
whole topics, balanced by an estimate of their work (the package's one split,
:func:`~pyterrier_rag_axioms.runtime.topics.topic_groups`), and works on the groups in worker processes
forked from the caller (Linux), each on one core, so that every core parses and encodes all the
time. The workers inherit what the caller has loaded (the spaCy model, the frames) and the work
itself (through :class:`~concurrent.futures.ProcessPoolExecutor`'s initializer: nothing is shared
between two calls, which may run in two threads at once); each returns its groups' results, which
the caller puts together in the serial order. The result is the serial one: every value depends
only on its topic (tested for the three).

- How many: the ``processes`` parameter of :class:`~pyterrier_rag_axioms.nuggets.NuggetAssigner`,
  :class:`~pyterrier_rag_axioms.nuggets.NuggetExtractor` and :class:`~pyterrier_rag_axioms.PreferenceModel`
  (its :meth:`~pyterrier_rag_axioms.PreferenceModel.scores`), which call :func:`map_topics` through
  :meth:`~pyterrier_rag_axioms.runtime.by_topic.ByTopic.by_topic`; by default the cores this process may
  use, at most :data:`MAX_PROCESSES`. ``processes=1`` works in the caller's process.
- Serial anyway: one topic, a platform without ``fork`` (macOS and Windows, where forking a process
  with loaded models is unsafe), inside a worker (of this module, of ``.parallel``, of Ray), or
  once torch has initialised CUDA (an encoder on the GPU: a forked worker cannot use it).
- Ctrl-C stops the workers and reaches the caller as ``KeyboardInterrupt`` (the workers ignore it
  themselves). An error in a worker is raised in the caller.
- A worker that dies (killed by the out-of-memory killer, say) ends the call at once with
  :class:`WorkerDiedError`, one line that names the signal, counts the topics it held and names a
  few; it advises more memory only after SIGKILL (the out-of-memory killer's signal), not after a
  SIGTERM sent from outside.
- No worker outlives its caller: the kernel kills the workers of a caller that ends, however it
  ends (SIGTERM, SIGHUP, SIGKILL; Linux's ``PR_SET_PDEATHSIG``).
- ``.parallel(N)`` (:meth:`~pyterrier_rag_axioms.runtime.by_topic.ByTopic.parallel`) is for more machines; its
  workers work serially.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import warnings
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from pyterrier_rag_axioms.runtime import threads
from pyterrier_rag_axioms.runtime.topics import topic_groups

R = TypeVar("R")

#: The most worker processes used by default.
MAX_PROCESSES = 4
#: How many groups of topics each worker gets, on average: more groups balance uneven topics better.
GROUPS_PER_PROCESS = 3
#: How many topics a :class:`WorkerDiedError` names by qid, at most (it counts the others).
NAMED_TOPICS = 3
#: Linux's ``prctl`` option that has the kernel signal a process when its parent ends.
_PR_SET_PDEATHSIG = 1


class WorkerDiedError(RuntimeError):
    """A worker process of :func:`map_topics` ended abruptly (killed by the out-of-memory killer, say): the
    call ends without a result, naming the topics the worker held."""


def can_fork() -> bool:
    """Whether this process may fork workers: Linux, not itself a worker of some pool, and no CUDA context
    (a forked child cannot use its parent's: the work stays on the GPU, in this process)."""
    return (
        sys.platform.startswith("linux")
        and not threads.in_worker()
        and not multiprocessing.current_process().daemon
        and not cuda_initialized()
    )


def cuda_initialized() -> bool:
    """Whether torch has initialised CUDA in this process (never imports torch)."""
    torch = sys.modules.get("torch")
    cuda = getattr(torch, "cuda", None)
    return bool(cuda is not None and cuda.is_initialized())


def worker_count(processes: int | None, topics: int) -> int:
    """How many worker processes :func:`map_topics` starts: ``processes`` (default: the cores this
    process may use, at most :data:`MAX_PROCESSES`), at most one per topic; 0 where it works serially."""
    if not can_fork():
        return 0
    wanted = min(threads.usable_cores(), MAX_PROCESSES) if processes is None else processes
    count = min(wanted, topics)
    return count if count > 1 else 0


class _Forks:
    """The ``fork`` start method, keeping the worker processes it starts, so that a call stops its own."""

    def __init__(self) -> None:
        self._context = multiprocessing.get_context("fork")
        self.processes: list[multiprocessing.process.BaseProcess] = []

    def Process(self, *args: Any, **kwargs: Any) -> multiprocessing.process.BaseProcess:  # noqa: N802 (multiprocessing's)
        process = self._context.Process(*args, **kwargs)
        self.processes.append(process)
        return process

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)


#: What the initializer gave this worker process (the work and where it says which group it holds): set in a
#: forked worker only, never in the caller, so calls in two threads of the caller do not meet.
_given: dict[str, Any] = {}


def _end_with_parent(parent: int) -> None:
    """Have the kernel kill this worker when its parent ends, however it ends (Linux's ``PR_SET_PDEATHSIG``)."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # no prctl: the caller's exit stops the workers as before
        return
    if os.getppid() != parent:  # the parent ended before prctl took effect
        os.kill(os.getpid(), signal.SIGKILL)


def _start_worker(work: Callable[[list[Hashable], bool], object], held: Any, parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the caller's: it stops the workers
    # the caller stops workers with SIGTERM; a handler inherited from it (a JVM's, Terrier's, or the
    # command line's) has no thread in this process to act on it, or is the caller's to act on
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    _end_with_parent(parent)
    threads.become_worker()
    threads.one_torch_thread_for_good()  # the caller's OpenMP threads did not survive the fork
    _given.update(work=work, held=held)


def _run(index: int, group: list[Hashable]) -> object:
    from pyterrier_rag_axioms.runtime.cache import flush_caches

    _given["held"][index] = os.getpid()
    result = _given["work"](group, False)
    flush_caches()  # a worker ends without running exit handlers
    return result


def _stop(executor: ProcessPoolExecutor, processes: list[multiprocessing.process.BaseProcess]) -> None:
    """Stop the workers at once (after an error, Ctrl-C or a dead worker) and wait until they are gone."""
    for process in processes:
        if process.pid is not None and process.exitcode is None:  # started (a fork may fail) and running
            process.terminate()  # SIGTERM, at its default action in a worker
    executor.shutdown(wait=True)  # the pool sees its workers gone, fails what is left and joins them


def _ending(exitcode: int | None) -> tuple[str, str]:
    """How a worker ended, and the advice for it: more memory only after SIGKILL, the out-of-memory killer's signal."""
    one_process = "use one process (processes=1, --processes 1)"
    if exitcode is not None and exitcode < 0:
        name = signal.Signals(-exitcode).name
        if name == "SIGKILL":
            return f"was killed by {name} (perhaps for lack of memory)", f"give it more memory, or {one_process}"
        if name == "SIGTERM":
            return f"was terminated by {name} (sent from outside, not for lack of memory)", (
                f"find what sent it (a job's time limit, say) and run again, or {one_process}"
            )
        return f"was killed by {name}", one_process
    return ("ended abruptly" if exitcode is None else f"ended abruptly with status {exitcode}"), one_process


def _topics_named(topics: list[str]) -> str:
    """A few topics by their qids: ``topic b``, or ``40 topics (1, 2, 3 and 37 more)``."""
    if len(topics) == 1:
        return f"topic {topics[0]}"
    named = ", ".join(topics[:NAMED_TOPICS])
    rest = f" and {len(topics) - NAMED_TOPICS} more" if len(topics) > NAMED_TOPICS else ""
    return f"{len(topics)} topics ({named}{rest})"


def _died(
    processes: list[multiprocessing.process.BaseProcess], held: Any, groups: list[list[Hashable]], futures: list[Future]
) -> WorkerDiedError:
    """The error for a worker that died, in one line: how it ended and the topics it held (those of every
    unfinished group where unknown), a few of them by qid."""
    unfinished = [
        index
        for index in range(len(groups))
        if index >= len(futures) or not futures[index].done() or futures[index].exception() is not None
    ]
    # the pool stops the other workers by SIGTERM; a worker that ended otherwise is the dead one
    ended = {
        process.pid: process.exitcode
        for process in processes
        if process.pid is not None and process.exitcode not in (None, 0)
    }
    dead = {pid: exitcode for pid, exitcode in ended.items() if exitcode != -signal.SIGTERM}
    held_by_dead = [index for index in unfinished if held[index] in dead]
    topics = [str(topic) for index in held_by_dead or unfinished for topic in groups[index]]
    # no other ending: a SIGTERM from outside, which the pool's own SIGTERMs to the others hide
    exitcode = next(iter(dead.values()), -signal.SIGTERM if ended else None)
    how, advice = _ending(exitcode)
    named = _topics_named(topics)
    when = f"while it held {named}" if held_by_dead else f"before {named} {'were' if len(topics) > 1 else 'was'} done"
    return WorkerDiedError(f"a worker process {how} {when}; no result was kept: {advice}")


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

    Raises:
        WorkerDiedError: a worker process died (e.g. for lack of memory); the others are stopped.
    """
    workers = worker_count(processes, len(topics))
    if not workers:
        return [work(list(topics), verbose)]
    import pyterrier as pt

    if prepare is not None:
        prepare()
    weight = dict(zip(topics, weights))
    groups = sorted(  # the heaviest first, so that no worker starts a heavy group last
        topic_groups(topics, weights, workers * GROUPS_PER_PROCESS), key=lambda group: -sum(weight[t] for t in group)
    )
    forks = _Forks()
    held = forks.Array("q", len(groups), lock=False)  # the worker that took each group, by its pid
    executor = ProcessPoolExecutor(
        workers, mp_context=forks, initializer=_start_worker, initargs=(work, held, os.getpid())
    )
    futures: list[Future] = []
    try:
        with warnings.catch_warnings():  # numpy's BLAS threads wait idle: forking is safe here
            warnings.filterwarnings("ignore", message=".*fork.*", category=DeprecationWarning)
            futures.extend(executor.submit(_run, index, group) for index, group in enumerate(groups))
        with pt.tqdm(total=len(topics), desc=desc, unit="topic", disable=not verbose) as bar:
            size = {future: len(group) for future, group in zip(futures, groups)}
            for future in as_completed(futures):
                future.result()  # a worker's error, at once
                bar.update(size[future])
        executor.shutdown(wait=True)  # the workers end once the groups are done
        return [future.result() for future in futures]
    except BrokenProcessPool:
        _stop(executor, forks.processes)
        raise _died(forks.processes, held, groups, futures) from None
    finally:
        _stop(executor, forks.processes)  # after an error or Ctrl-C (nothing to stop after shutdown)
