"""PreferenceModel's reference term: pyterrier-rag's gold_answer column, its weight, files and errors."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import pyterrier_rag_axioms as rag
from pyterrier_rag_axioms.nuggets.reference import reference_score
from pyterrier_rag_axioms.sample import sample_path


@pytest.fixture(scope="module")
def topic() -> tuple[pd.DataFrame, pd.DataFrame]:
    """The sample's query q2 (four responses) and its reference answer."""
    responses = pd.read_json(sample_path(), lines=True, dtype={"qid": str, "docno": str})
    answers = pd.read_json(sample_path("answers.jsonl"), lines=True, dtype={"qid": str})
    return responses[responses["qid"] == "q2"].reset_index(drop=True), answers[answers["qid"] == "q2"]


def cheap_model(**options) -> rag.PreferenceModel:
    return rag.PreferenceModel(axioms=[rag.LEN1(), rag.CORR3()], coefficients=[0.8, -0.5], scales=[1.3, 0.4], **options)


def test_the_shipped_model_weighs_the_reference_answers(topic):
    responses, answers = topic
    responses = responses.drop(columns=["context"])  # the reference term alone, not the passages' grounding
    shipped = rag.PreferenceModel.default()
    assert shipped.reference_weight > 0  # chosen by benchmarks/ragchecker_agreement.py
    plain = rag.PreferenceModel.default(reference_weight=0.0)
    # without gold_answer: the model without its reference term, bit for bit
    pd.testing.assert_frame_equal(shipped(responses), plain(responses))
    given = responses.merge(answers[["qid", "gold_answer"]], on="qid")
    before, after = plain(given), shipped(given)
    scores = reference_score(responses, answers).set_index("docno")["reference_score"]
    reference = np.sign(scores[after["docno_a"]].to_numpy() - scores[after["docno_b"]].to_numpy())
    flipped = (before["PreferenceModel"] != after["PreferenceModel"]).to_numpy()
    assert flipped.any()  # a pair the features decide one way, the reference the other
    assert (after["PreferenceModel"].to_numpy()[flipped] == reference[flipped]).all()
    # a list of answers, a preference frame with one gold_answer per pair, the same answer per side
    as_list = shipped(given.assign(gold_answer=[[text] for text in given["gold_answer"]]))
    pd.testing.assert_series_equal(as_list["PreferenceModel_probability"], after["PreferenceModel_probability"])
    pairs = plain(responses).drop(columns=["PreferenceModel", "PreferenceModel_probability"])
    per_pair = shipped(pairs.assign(gold_answer=answers["gold_answer"].iloc[0]))
    np.testing.assert_allclose(per_pair["PreferenceModel_probability"], after["PreferenceModel_probability"])
    # explain and the pointwise scores carry the same term
    explained = shipped.explain(given)
    np.testing.assert_allclose(1 / (1 + np.exp(-explained["PreferenceModel_logit"])),
                               after["PreferenceModel_probability"])
    assert (np.sign(explained["reference_contribution"]) == reference).all()
    gained = shipped.scores(given)["PreferenceModel_score"] - shipped.scores(responses)["PreferenceModel_score"]
    np.testing.assert_allclose(gained, shipped.reference_weight * scores[responses["docno"]].to_numpy())


def test_a_topic_without_a_reference_answer_gains_nothing(topic):
    responses, _ = topic
    model = cheap_model(reference_weight=10.0)
    for missing in (None, "  ", []):
        given = responses.assign(gold_answer=[missing] * len(responses))
        pd.testing.assert_frame_equal(model(given).drop(columns=["gold_answer_a", "gold_answer_b"]),
                                      model(responses))


def test_the_weight_is_saved_and_an_older_file_loads(tmp_path):
    path = tmp_path / "model.json"
    model = cheap_model(reference_weight=12.5)
    model.save(path)
    document = json.loads(path.read_text())
    assert document["reference_weight"] == 12.5
    loaded = rag.PreferenceModel.load(path)
    assert loaded.reference_weight == 12.5 and repr(loaded) == repr(model)
    del document["reference_weight"]  # a file saved before the reference term
    path.write_text(json.dumps(document))
    assert rag.PreferenceModel.load(path).reference_weight == 0.0
    assert rag.PreferenceModel.load(path, reference_weight=3).reference_weight == 3.0


def test_clear_errors(topic):
    responses, answers = topic
    for weight in (-1.0, float("inf"), float("nan"), "50"):
        with pytest.raises(ValueError, match="reference_weight"):
            cheap_model(reference_weight=weight)
    model = cheap_model(reference_weight=1.0)
    with pytest.raises(ValueError, match=r"PreferenceModel: qid 'q2', docno 'q2-r1': gold_answer must be a string"):
        model(responses.assign(gold_answer=[7] * len(responses)))
    different = responses.assign(gold_answer=[f"answer {i}" for i in range(len(responses))])
    with pytest.raises(ValueError, match="the responses of qid 'q2' carry different gold_answer values"):
        model(different)
