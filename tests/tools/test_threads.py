"""One torch thread: torch's pool on one thread inside, restored after, the same embeddings bit for bit
(real all-MiniLM-L6-v2 through sentence-transformers)."""

from __future__ import annotations

import numpy as np
import pytest

from pyterrier_rag_axioms.tools.embeddings.similarity import SentenceSimilarity
from pyterrier_rag_axioms.tools.threads import one_torch_thread

torch = pytest.importorskip("torch")
TEXTS = [
    "The Eiffel Tower is 330 metres tall.",
    "Green tea contains antioxidants called catechins, which may protect cells.",
    "Tickets can be bought online.",
]


def test_torch_runs_on_one_thread_inside_and_as_before_after():
    before = torch.get_num_threads()
    with one_torch_thread():
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == before


def test_the_threads_are_restored_after_an_error():
    before = torch.get_num_threads()
    with pytest.raises(RuntimeError), one_torch_thread():
        raise RuntimeError("inside")
    assert torch.get_num_threads() == before


def test_embeddings_on_one_thread_are_the_same_bits_and_the_pool_is_restored():
    before = torch.get_num_threads()
    threaded = SentenceSimilarity(cache_dir=False).embed(TEXTS)
    alone = SentenceSimilarity(cache_dir=False).embed(TEXTS, one_thread=True)
    assert np.array_equal(threaded, alone)
    assert torch.get_num_threads() == before
