"""One torch thread: torch's pool on one thread inside, restored after, the same embeddings bit for bit
(real all-MiniLM-L6-v2 through sentence-transformers); one BLAS thread: the same for numpy's products."""

from __future__ import annotations

import numpy as np
import pytest

from pyterrier_rag_axioms.runtime.threads import one_blas_thread, one_torch_thread
from pyterrier_rag_axioms.tools.embeddings.similarity import SentenceSimilarity

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


def test_embeddings_on_one_thread_agree_with_threaded_ones_and_the_pool_is_restored():
    before = torch.get_num_threads()
    threaded = SentenceSimilarity(cache_dir=False).embed(TEXTS)
    alone = SentenceSimilarity(cache_dir=False).embed(TEXTS, one_thread=True)
    # the same bits on some CPUs only: others split a product's sums by thread (docs/speed.md's tolerance)
    np.testing.assert_allclose(threaded, alone, rtol=0, atol=1e-5)
    assert torch.get_num_threads() == before


def test_numpy_blas_runs_on_one_thread_inside_with_the_same_products_and_as_before_after():
    threadpoolctl = pytest.importorskip("threadpoolctl")

    def blas_threads() -> list[int]:
        return [pool["num_threads"] for pool in threadpoolctl.threadpool_info() if pool["user_api"] == "blas"]

    rng = np.random.default_rng(0)
    left, right = rng.standard_normal((40, 384)), rng.standard_normal((384, 60))
    before, product = blas_threads(), left @ right
    with one_blas_thread():
        assert blas_threads() and set(blas_threads()) == {1}
        alone = left @ right
    assert blas_threads() == before
    np.testing.assert_array_equal(alone, product)
