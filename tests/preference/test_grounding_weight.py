"""PreferenceModel's grounding term: the responses' own passages, its weight, files and errors."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import pyterrier_rag_axioms as rag
from pyterrier_rag_axioms.grounding.extractive import EXTRACTIVE_SHARE, copied_share, is_extractive

PASSAGES = [
    "The Eiffel Tower in Paris was completed in 1889 for the World's Fair.",
    "The tower is 330 metres tall and was designed by the engineering firm of Gustave Eiffel.",
]
FAITHFUL = "The Eiffel Tower was completed in 1889 for the World's Fair. It is 330 metres tall."
HALLUCINATED = (
    "The Eiffel Tower was completed in 1889 for the World's Fair. It is 330 metres tall. Its elevators were "
    "imported from Sweden, and the tower is repainted in gold every seven years by a team of sixty climbers."
)


@pytest.fixture(scope="module")
def topic() -> pd.DataFrame:
    return pd.DataFrame({
        "qid": ["q"] * 2, "query": ["When was the Eiffel Tower completed and how tall is it?"] * 2,
        "docno": ["faithful", "hallucinated"], "response": [FAITHFUL, HALLUCINATED], "context": [PASSAGES] * 2,
    })


def cheap_model(**options) -> rag.PreferenceModel:
    """A model that prefers the longer answer, as the fitted ones lean to."""
    return rag.PreferenceModel(axioms=[rag.LEN1()], coefficients=[2.0], scales=[1.0], **options)


def test_the_passages_keep_the_model_from_preferring_what_they_do_not_say(topic):
    plain, grounded = cheap_model(), cheap_model(grounding_weight=5.0)
    assert plain(topic)["PreferenceModel"].tolist() == [-1.0]  # the longer, hallucinated answer
    assert grounded(topic)["PreferenceModel"].tolist() == [1.0]
    explained = grounded.explain(topic)
    assert explained["grounding_contribution"].iloc[0] > 0  # speaks for the faithful answer, a
    np.testing.assert_allclose(1 / (1 + np.exp(-explained["PreferenceModel_logit"])),
                               grounded(topic)["PreferenceModel_probability"])
    scores = grounded.scores(topic).set_index("docno")["PreferenceModel_score"]
    np.testing.assert_allclose(scores["faithful"] - scores["hallucinated"], explained["PreferenceModel_logit"])


def test_without_passages_the_model_decides_as_without_the_term_bit_for_bit(topic, sample_responses):
    grounded = cheap_model(grounding_weight=5.0)
    without = topic.drop(columns=["context"])
    pd.testing.assert_frame_equal(grounded(without), cheap_model()(without))
    shipped = rag.PreferenceModel.default()
    assert shipped.grounding_weight > 0.0  # the default judge reads the passages where it has them
    ungrounded = rag.PreferenceModel.default(grounding_weight=0.0)
    no_context = sample_responses.drop(columns=["context"])
    pd.testing.assert_frame_equal(shipped(no_context), ungrounded(no_context))
    pd.testing.assert_frame_equal(shipped.scores(no_context), ungrounded.scores(no_context))
    assert not shipped(sample_responses).equals(ungrounded(sample_responses))


def test_an_answer_that_copies_its_passages_gains_nothing_for_it(topic):
    copied = " ".join(PASSAGES)
    assert copied_share(PASSAGES[1], PASSAGES) == 1.0
    assert is_extractive(copied, PASSAGES)  # the 5-grams across the join are new
    assert copied_share(FAITHFUL, PASSAGES) < EXTRACTIVE_SHARE and not is_extractive(HALLUCINATED, PASSAGES)
    assert copied_share("Paris, 1889.", PASSAGES) == 0.0  # under five words: nothing to copy
    assert copied_share(copied, None) == 0.0
    with_copy = topic.assign(docno=["copied", "hallucinated"], response=[copied, HALLUCINATED])
    explained = cheap_model(grounding_weight=5.0).explain(with_copy)
    assert explained["grounding_contribution"].tolist() == [0.0]  # the longer answer wins, as without the term
    assert cheap_model(grounding_weight=5.0)(with_copy)["PreferenceModel"].tolist() == [-1.0]


def test_a_pair_with_one_answer_without_passages_gains_nothing(topic):
    half = topic.assign(context=[PASSAGES, None])
    pd.testing.assert_frame_equal(cheap_model(grounding_weight=5.0)(half).drop(columns=["context_a", "context_b"],
                                                                                errors="ignore"),
                                  cheap_model()(half).drop(columns=["context_a", "context_b"], errors="ignore"))


def test_the_weight_is_saved_and_an_older_file_loads(tmp_path):
    path = tmp_path / "model.json"
    cheap_model(grounding_weight=2.5).save(path)
    document = json.loads(path.read_text())
    assert document["grounding_weight"] == 2.5
    assert rag.PreferenceModel.load(path).grounding_weight == 2.5
    del document["grounding_weight"]  # a file saved before the grounding term
    path.write_text(json.dumps(document))
    assert rag.PreferenceModel.load(path).grounding_weight == 0.0
    for weight in (-1.0, float("inf"), float("nan"), "5"):
        with pytest.raises(ValueError, match="grounding_weight"):
            cheap_model(grounding_weight=weight)


def test_a_grounded_model_file_names_its_support_model_and_warns_on_another(tmp_path):
    import warnings

    from pyterrier_rag_axioms.support import SupportModel

    version = SupportModel.default().version
    path = tmp_path / "model.json"
    cheap_model(grounding_weight=2.5).save(path)
    document = json.loads(path.read_text())
    assert document["support_model"] == version  # the probabilities the weight was chosen on
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rag.PreferenceModel.load(path)
        rag.PreferenceModel.default()  # the shipped file names the shipped support model
    cheap_model().save(path)
    assert "support_model" not in json.loads(path.read_text())  # no grounding term, no support model
    path.write_text(json.dumps({**document, "support_model": "support-0"}))
    with pytest.warns(UserWarning, match=r"model\.json: its grounding_weight was chosen with the support model "
                                         r"'support-0', and this package's is '" + version):
        rag.PreferenceModel.load(path)
