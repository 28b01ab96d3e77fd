"""The assigner's confidences are the same bits whatever answers are assigned together, in whatever order."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from pyterrier_rag_axioms.nuggets import NuggetAssigner
from pyterrier_rag_axioms.tools.embeddings.onnx_encoder import OnnxSentenceEncoder
from pyterrier_rag_axioms.tools.embeddings.similarity import batch_independent_similarity

pytest.importorskip("onnxruntime", reason="the batch-independent default encoder runs through onnxruntime")

NUGGETS = pd.DataFrame({
    "qid": ["q1", "q1", "q1"],
    "nugget": ["The Eiffel Tower is in Paris.", "It was finished in 1889.", "It is not made of wood."],
    "importance": ["vital", "okay", "okay"],
})
ANSWERS = [
    "The Eiffel Tower stands in Paris. Gustave Eiffel's company built it, and it was completed in 1889.",
    "Paris is home to the tower, which is made of wrought iron rather than wood.",
    "The tower, finished for the 1889 World's Fair, is not in London; it is in Paris, France.",
    "Nobody knows exactly how tall it is, but it was the tallest structure in the world until 1930.",
    "It is a landmark. Millions visit it every year, and it was opened in 1889 after two years of work.",
]


def _responses(indices: list[int]) -> pd.DataFrame:
    return pd.DataFrame({
        "qid": "q1", "query": "Where is the Eiffel Tower and when was it built?",
        "docno": [f"d{i}" for i in indices], "response": [ANSWERS[i] for i in indices],
    })


def test_the_encoder_gives_a_text_the_same_bits_alone_and_in_any_batch():
    similarity = batch_independent_similarity()
    texts = [*ANSWERS, *NUGGETS["nugget"]]
    together = similarity.embed(texts)
    similarity.clear()
    backwards = similarity.embed(texts[::-1])[::-1]
    alone = []
    for text in texts:
        similarity.clear()
        alone.append(similarity.embed([text])[0])
    assert np.array_equal(together, backwards)
    assert np.array_equal(together, np.stack(alone))


def test_texts_run_at_the_same_time_get_the_bits_they_get_one_after_another():
    encoder = batch_independent_similarity(backend="onnx-int8").backend_encoder
    texts = [*ANSWERS, *NUGGETS["nugget"], "Paris", "tower"]
    parallel = OnnxSentenceEncoder(encoder.model_path, quantize=True, export_dir=encoder.export_path.parents[1],
                                   threads=3)
    serial = OnnxSentenceEncoder(encoder.model_path, quantize=True, export_dir=encoder.export_path.parents[1],
                                 threads=1)
    assert parallel.workers == 3 and serial.workers == 1
    assert np.array_equal(parallel.encode(texts, batch_size=4), serial.encode(texts))
    assert np.array_equal(serial.encode(texts), encoder.encode(texts))


def test_confidences_are_the_same_bits_whatever_answers_are_assigned_with_them():
    similarity = batch_independent_similarity()
    assigner = NuggetAssigner(nuggets=NUGGETS)
    similarity.clear()
    together = assigner(_responses([0, 1, 2, 3, 4])).set_index(["docno", "nugget_id"])
    parts = []
    for indices in ([3, 0], [4], [2, 1]):
        similarity.clear()  # encoded anew, in other batches
        parts.append(assigner(_responses(indices)))
    apart = pd.concat(parts).set_index(["docno", "nugget_id"]).loc[together.index]
    assert together["confidence"].to_numpy().tobytes() == apart["confidence"].to_numpy().tobytes()
    assert together["assignment"].tolist() == apart["assignment"].tolist()
