"""The same numbers on every machine: the shipped reference table.

docs/speed.md ("The same numbers on every CPU") explains the tolerances.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import reference_numbers as reference

pytest.importorskip("onnxruntime")


@pytest.fixture(scope="module")
def table() -> dict:
    return json.loads(reference.REFERENCE.read_text(encoding="utf-8"))


def test_the_table_holds_the_texts_it_was_made_from(table):
    assert table["texts"] == reference.texts()
    assert set(table["embeddings"]) == set(reference.BACKENDS)


@pytest.mark.parametrize("backend", reference.BACKENDS)
def test_every_encoder_reproduces_the_reference_embeddings(backend, table):
    expected = np.array(table["embeddings"][backend], dtype=np.float32)
    found = reference.embeddings(backend, table["texts"])
    if backend in reference.EMBEDDING_TOLERANCE:
        np.testing.assert_allclose(found, expected, rtol=0, atol=reference.EMBEDDING_TOLERANCE[backend])
    else:  # 8-bit activations: a rounding that other float kernels flip moves a text by up to 0.02
        cosines = (found * expected).sum(axis=1) / np.linalg.norm(expected, axis=1)
        assert cosines.min() >= reference.INT8_COSINE, cosines


def test_the_assigner_reproduces_the_reference_decisions(table):
    from pyterrier_rag_axioms.nuggets.model import resolve_nugget_model

    expected = table["decisions"]
    found = reference.decisions().to_dict(orient="records")
    assert [(row["qid"], row["docno"], row["nugget_id"]) for row in found] == [
        (row["qid"], row["docno"], row["nugget_id"]) for row in expected]
    model = resolve_nugget_model(None)
    thresholds = (model.partial_threshold, model.support_threshold)
    for now, then in zip(found, expected):
        assert now["confidence"] == pytest.approx(then["confidence"], abs=reference.CONFIDENCE_TOLERANCE)
        margin = min(abs(then["confidence"] - threshold) for threshold in thresholds)
        if margin > reference.CONFIDENCE_TOLERANCE:
            assert now["assignment"] == then["assignment"], now
