"""Torch and BLAS on one thread where their pools of threads would wait more than they work.

A small model's forward pass over a batch of short texts (all-MiniLM-L6-v2 over a topic's
sentences) is too little work to share: torch's intra-op threads spin while they wait for each
other, and on two shared cores they took two to three times the CPU of one thread for the same
embeddings, bit for bit (checked by ``tests/tools/test_threads.py``). The same holds for numpy's
BLAS over one answer's small products of embeddings (its threads took 8x the CPU of the products).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator


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


def one_blas_thread() -> contextlib.AbstractContextManager:
    """A context in which numpy's BLAS runs on one thread (the same bits), through threadpoolctl,
    installed with scikit-learn; a no-op without it."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return contextlib.nullcontext()
    return threadpool_limits(1, user_api="blas")
