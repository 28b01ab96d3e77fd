"""The support model: does this evidence say this statement? Real spaCy, the shipped model, small real texts."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pyterrier_rag_axioms.support import FEATURES, SupportModel
from pyterrier_rag_axioms.support.model import IDF_PATH, MODEL_PATH

AURORA = [
    "The aurora borealis is caused by charged particles from the Sun colliding with gases in Earth's upper atmosphere.",
    "Oxygen emits green and red light in auroras, while nitrogen produces blue and purple hues.",
    "Auroras are most often seen near the magnetic poles because Earth's magnetic field guides the solar wind there.",
]
TOWER = "The Eiffel Tower was completed in 1889 for the World's Fair in Paris. It is 330 metres tall."


@pytest.fixture(scope="module")
def model() -> SupportModel:
    return SupportModel.default()


def test_the_shipped_files_carry_the_version_and_the_features():
    fitted = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    assert fitted["version"] == SupportModel.default().version
    assert set(fitted["features"]) <= set(FEATURES) and SupportModel.default().inputs == tuple(fitted["features"])
    assert len(fitted["coefficients"]) == len(fitted["features"]) == len(fitted["mean"]) == len(fitted["scale"])
    assert 0.0 < fitted["claim_threshold"] < 1.0
    idf = json.loads(IDF_PATH.read_text(encoding="utf-8"))
    assert idf["documents"] > 1000 and idf["version"] == fitted["version"]


def test_a_stated_fact_is_more_probable_than_a_changed_or_unrelated_one(model):
    statements = [
        "Charged particles from the Sun cause the aurora borealis.",
        "Nitrogen produces blue and purple hues in auroras.",
        "Auroras are caused by volcanic ash from Iceland.",
        "Bananas grow in tropical countries.",
    ]
    p = model.probabilities(statements, [AURORA] * len(statements))
    assert ((p > 0) & (p < 1)).all()
    assert min(p[:2]) > 0.5 > max(p[2:])


def test_a_wrong_number_and_a_negation_lower_the_probability(model):
    statements = [
        "The Eiffel Tower was completed in 1889.",
        "The Eiffel Tower was completed in 1925.",
        "The Eiffel Tower was not completed in 1889.",
    ]
    p = model.probabilities(statements, [TOWER] * 3)
    assert p[0] > p[1] + 0.1 and p[0] >= p[2]  # the negation's weight is fitted (bound to be <= 0)
    features = model.features(statements, [TOWER] * 3)
    assert features[1, FEATURES.index("numbers_missing")] == 1.0
    assert features[2, FEATURES.index("negation_mismatch")] == 1.0


def test_a_pair_does_not_depend_on_the_batch(model):
    alone = model.probabilities(["Oxygen emits green light."], [AURORA])
    batch = model.probabilities(["The tower is 330 metres tall.", "Oxygen emits green light."], [TOWER, AURORA])
    assert alone[0] == batch[1]
    assert model.probabilities([], []).shape == (0,)


def test_bad_input_is_named(model):
    with pytest.raises(ValueError, match="2 statements but 1 evidence"):
        model.probabilities(["a", "b"], [TOWER])
    with pytest.raises(TypeError, match="statement 0"):
        model.probabilities([None], [TOWER])
    with pytest.raises(FileNotFoundError, match="no model file"):
        SupportModel(path="no-such-model.json")
    assert np.isfinite(model.features(["x"], [[]])).all()  # no evidence: nothing found, no error


def test_aligned_terms_count_where_the_words_differ(model):
    statements = ["The northern lights are caused by solar particles.", "Nitrogen produces blue hues."]
    features = model.features(statements, [AURORA[:1], AURORA])
    exact, aligned = FEATURES.index("idf_recall"), FEATURES.index("aligned_idf_recall")
    assert features[0, aligned] > features[0, exact]  # "solar" aligns to "sun"
    assert features[1, aligned] == features[1, exact] == 1.0  # every word found: nothing to align
