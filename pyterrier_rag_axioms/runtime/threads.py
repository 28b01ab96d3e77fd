"""How many cores a process may use; torch and BLAS on one thread where their threads would wait more than work.

A worker process of split topics (:mod:`~pyterrier_rag_axioms.runtime.processes`) has one core of
its own: :func:`usable_cores` says so to the encoders, so that no worker starts threads for the
cores of the others.

A small model's forward pass over a batch of short texts (all-MiniLM-L6-v2 over a topic's
sentences) is too little work to share: torch's intra-op threads spin while they wait for each
other, and on two shared cores they took two to three times the CPU of one thread for the same
embeddings, bit for bit (checked by ``tests/tools/test_threads.py``). The same holds for numpy's
BLAS over one answer's small products of embeddings (its threads took 8x the CPU of the products).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator

#: Whether this process is a worker of :func:`~pyterrier_rag_axioms.runtime.processes.map_topics`,
#: which has one core of its own.
_worker = False


def usable_cores() -> int:
    """The CPU cores this process may use: its CPU affinity (where the platform has one), else the
    machine's cores; one in a worker process of split topics (the other cores are other workers')."""
    if _worker:
        return 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def become_worker() -> None:
    """Mark this process as a worker of split topics: one core (:func:`usable_cores`), no workers of its own."""
    global _worker
    _worker = True


def in_worker() -> bool:
    """Whether this process is a worker of split topics (see :func:`become_worker`)."""
    return _worker


@contextlib.contextmanager
def one_torch_thread() -> Iterator[None]:
    """A context in which torch's intra-op pool runs on one thread, restored on leaving; a no-op
    where torch is not imported (load the model first)."""
    torch = sys.modules.get("torch")
    if torch is None:
        yield
        return
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def one_torch_thread_for_good() -> None:
    """Run torch's intra-op work on this thread from now on, where torch is imported (a forked worker:
    the threads of its parent's OpenMP pool are not in this process, and waiting for them would hang)."""
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)


def one_blas_thread() -> contextlib.AbstractContextManager:
    """A context in which numpy's BLAS runs on one thread (the same bits), through threadpoolctl,
    installed with scikit-learn; a no-op without it."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return contextlib.nullcontext()
    return threadpool_limits(1, user_api="blas")
