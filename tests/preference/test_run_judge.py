"""The run judge: the shipped nugget model with pool axioms, its pointwise path, and features of weight 0."""

import numpy as np
import pandas as pd
import pytest

import pyterrier_rag_axioms as rag
from pyterrier_rag_axioms.frames import ResponseTable, preference_frame


def test_a_model_computes_only_its_features_of_nonzero_weight(sample_responses):
    frame = sample_responses[sample_responses["qid"] == "q1"]
    model = rag.PreferenceModel(axioms=[rag.LEN1(), rag.COV1()], coefficients=[1.0, 0.0])
    table = ResponseTable.from_pairs(preference_frame(frame))
    model.probabilities(table)
    assert id(model.axioms[0]) in table.values and id(model.axioms[1]) not in table.values
    assert model.differences(table, every=True)[:, 1].any()  # fitting still sees every feature


def test_the_run_judge_weighs_pool_axioms_and_says_so():
    judge = rag.PreferenceModel.default("nuggets")
    weights = judge.weights().set_index("feature")["weight"]
    assert {"POOL1", "POOL3"} <= set(weights[weights != 0].index)
    assert "POOL1(margin_fraction=0.0, pool=None)" in repr(judge)  # a pool axiom always shows its pool
    crowd = rag.PreferenceModel.default("crowd")  # unchanged: no pool axioms in the crowd model
    assert not any(name.startswith("POOL") for name in crowd.feature_names)


@pytest.mark.parametrize("kind", ["nuggets", "crowd"])
def test_the_repr_of_a_shipped_model_evaluates_back_into_the_same_model(kind):
    shipped = rag.PreferenceModel.default(kind)
    again = eval(repr(shipped), vars(rag))
    assert again == shipped and repr(again) == repr(shipped)
    assert again != shipped.with_min_confidence(0.1)


def test_pointwise_scores_are_the_pairwise_log_odds(sample_responses):
    judge = rag.PreferenceModel.default("nuggets")
    frame = sample_responses[sample_responses["qid"].isin(["q1", "q2"])]
    scores = judge.scores(frame).set_index("docno")[f"{judge.name}_score"]
    pairs = judge(frame)
    logits = np.log(pairs[judge.probability_column] / (1 - pairs[judge.probability_column]))
    expected = scores[pairs["docno_a"]].to_numpy() - scores[pairs["docno_b"]].to_numpy()
    used = [axiom for axiom, weight in zip(judge.axioms, judge.coefficients) if weight]
    complete = pd.concat([axiom.values(frame).set_index("docno")[f"{axiom.name}_value"] for axiom in used], axis=1)
    complete = complete.notna().all(axis=1)  # a NaN value: 0 difference in a pair, the query's mean in a score
    both = (complete[pairs["docno_a"]].to_numpy() & complete[pairs["docno_b"]].to_numpy())
    assert both.sum() >= 3
    np.testing.assert_allclose(logits[both], expected[both], atol=1e-9)
    assert list(judge.scores(pairs).columns[-1:]) == [f"{judge.name}_score"]  # a preference frame's responses
    assert len(judge.scores(frame.iloc[:0])) == 0


def test_run_scores_rank_runs_by_their_mean_score_over_topics():
    responses = pd.DataFrame(
        {
            "qid": ["t1"] * 3 + ["t2"] * 3,
            "query": ["why is the sky blue"] * 3 + ["how do bees make honey"] * 3,
            "docno": ["long", "short", "off"] * 2,
            "response": [
                "The sky is blue because air scatters blue sunlight more than red light. This is Rayleigh scattering.",
                "Air scatters blue light more.",
                "Bananas are yellow.",
                "Bees make honey from nectar. They store it in combs and fan it until the water evaporates.",
                "Bees turn nectar into honey.",
                "Bananas are yellow.",
            ],
        }
    )
    judge = rag.PreferenceModel.default("nuggets")
    table = rag.evaluation.run_scores(responses, judge)
    assert list(table.columns) == ["run", "topics", "judge_score", "rank"]
    assert table["run"].tolist()[-1] == "off" and table["topics"].tolist() == [2, 2, 2]  # nobody supports it
    means = judge.scores(responses).groupby("docno")[f"{judge.name}_score"].mean()
    np.testing.assert_allclose(table["judge_score"], means[table["run"]].to_numpy())
    assert table["rank"].tolist() == [1, 2, 3]


@pytest.mark.parametrize("pool", ["POOL1", "POOL3"])
def test_a_judge_with_a_fixed_pool_judges_a_subset_as_within_the_whole(sample_responses, pool):
    axiom = rag.registry.AXIOMS[pool](pool=sample_responses)
    model = rag.PreferenceModel(axioms=[axiom, rag.LEN1()], coefficients=[1.0, 0.5])
    whole = model.scores(sample_responses).set_index("docno")[f"{model.name}_score"]
    part = sample_responses.iloc[[0, 1, 5, 9]]
    subset = model.scores(part).set_index("docno")[f"{model.name}_score"]
    # the NaN-free values of a fixed pool do not depend on the frame: the same scores
    pd.testing.assert_series_equal(subset, whole.loc[subset.index])


def test_the_run_judge_encodes_with_the_static_encoder_and_declares_its_features_as_before(tmp_path):
    judge = rag.PreferenceModel.default("nuggets")
    assert judge.encoder == "static" and "encoder='static'" in repr(judge)
    assert all(axiom == type(axiom)() for axiom in judge.axioms)  # the declared features keep their defaults
    computed = {axiom.name: axiom for axiom in judge.computed_axioms()}
    assert computed["POOL3"].encoder.backend == "static"
    assert computed["COV7"].encoder.backend == "static"
    assert computed["LEN1"] is judge.axioms[0]
    assert judge.computed_axioms() is judge.computed_axioms()  # made once
    judge.save(tmp_path / "judge.json")
    assert rag.PreferenceModel.load(tmp_path / "judge.json").encoder == "static"
    exact = rag.PreferenceModel.default("nuggets", encoder="onnx-int8-per-channel")  # the transformer, as before
    assert {axiom.name: axiom for axiom in exact.computed_axioms()}["COV7"].encoder.backend \
        == "onnx-int8-per-channel"
    assert rag.PreferenceModel.default("nuggets", encoder="onnx").encoder == "onnx"  # torch's decisions
    assert rag.PreferenceModel.default("crowd").encoder == "torch"


def test_an_encoder_chosen_for_a_feature_stays(sample_responses):
    from pyterrier_rag_axioms.tools.embeddings import SentenceSimilarity

    chosen = SentenceSimilarity.shared(backend="onnx")
    model = rag.PreferenceModel(
        axioms=[rag.POOL3(encoder=chosen), rag.COV7()], coefficients=[1.0, 1.0], encoder="onnx-int8"
    )
    pool, coverage = model.computed_axioms()
    assert pool.encoder is chosen and coverage.encoder.backend == "onnx-int8"
    torch = rag.PreferenceModel(axioms=[rag.COV7()], coefficients=[1.0])
    assert torch.computed_axioms() == torch.axioms


def test_the_run_judge_scores_a_topic_alone_as_within_the_whole_frame(sample_responses):
    judge = rag.PreferenceModel.default("nuggets")
    column = f"{judge.name}_score"
    whole = judge.scores(sample_responses).set_index(["qid", "docno"])[column]
    encoder = judge.computed_axioms()[judge.feature_names.index("POOL3")].encoder
    encoder.clear()  # each topic's sentences encoded again, in batches of their own
    for _, topic in sample_responses.groupby("qid"):
        alone = judge.scores(topic).set_index(["qid", "docno"])[column]
        pd.testing.assert_series_equal(alone, whole.loc[alone.index], check_exact=True)
