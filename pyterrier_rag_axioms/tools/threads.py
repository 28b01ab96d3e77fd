"""Torch on one thread where its pool of threads would wait more than it works.

A small model's forward pass over a batch of short texts (all-MiniLM-L6-v2 over a topic's
sentences) is too little work to share: torch's intra-op threads spin while they wait for each
other, and on two shared cores they took two to three times the CPU of one thread for the same
embeddings, bit for bit (checked by ``tests/tools/test_threads.py``).
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
