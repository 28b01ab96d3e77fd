"""Agreement of axioms with judgments: exact values on hand-made frames, tables and the heatmap."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pandas as pd
import pytest

from pyterrier_rag_axioms.evaluation import (
    AGREEMENT_COLUMNS,
    CALIBRATION_COLUMNS,
    agreement,
    agreement_by_dimension,
    calibration,
    plot_agreement,
    preference_columns,
)

matplotlib.use("Agg")

NAN = math.nan


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "qid": ["1"] * 6,
            "docno_a": list("abcdef"),
            "docno_b": list("ghijkl"),
            "truth": [1.0, -1.0, 0.0, 1.0, -1.0, NAN],
            "X": [1.0, 1.0, 0.0, 0.0, -1.0, 1.0],
            "Y": [0.0] * 6,
            "Z": [-0.5, 2.0, 1.0, NAN, -3.0, 0.0],  # only signs count
            "judgments": [1, 2, 1, 1, 1, 1],
            "coverage_deep": [1.0, 1.0, -1.0, 0.0, 0.0, 1.0],
        }
    )


def test_agreement_counts_pairs_decisiveness_concordance_and_accuracy():
    frame = _frame()
    before = frame.copy()
    table = agreement(frame, truth="truth", axioms=["X", "Y", "Z"])
    pd.testing.assert_frame_equal(frame, before)
    assert list(table.columns) == AGREEMENT_COLUMNS
    expected = pd.DataFrame(
        {
            "axiom": ["X", "Y", "Z"],
            "truth": ["truth"] * 3,
            "pairs": [5, 5, 4],
            "decisiveness": [3 / 5, 0.0, 1.0],
            "concordance_pairs": [3, 0, 3],
            "concordance": [2 / 3, NAN, 1 / 3],
            "accuracy": [3 / 5, 1 / 5, 1 / 4],
        }
    )
    pd.testing.assert_frame_equal(table, expected)


def test_axioms_may_be_transformers_and_truth_may_be_values():
    class Named:
        name = "X"

    frame = _frame()
    by_object = agreement(frame, truth=frame["coverage_deep"].to_numpy(), axioms=[Named()])
    assert by_object[["axiom", "truth", "pairs", "concordance_pairs"]].values.tolist() == [["X", "truth", 6, 3]]
    # X: 1 1 0 0 -1 1 against 1 1 -1 0 0 1: both decisive in rows 0, 1, 5, all agreeing.
    assert by_object["concordance"].iloc[0] == 1.0
    assert by_object["accuracy"].iloc[0] == pytest.approx(4 / 6)
    series = agreement(frame, truth=frame["truth"].rename("human"), axioms=["X"])
    assert series["truth"].iloc[0] == "human"
    shuffled = frame["truth"].sample(frac=1, random_state=0)  # a Series is matched by its index
    assert agreement(frame, truth=shuffled, axioms=["X"]).equals(agreement(frame, truth="truth", axioms=["X"]))
    with pytest.raises(ValueError, match="agreement: the truth Series' index differs"):
        agreement(frame, truth=frame["truth"].reset_index(drop=True).set_axis(range(10, 10 + len(frame))), axioms=["X"])
    with pytest.raises(ValueError, match="agreement: resamples must be a whole number >= 1"):
        agreement(frame, truth="truth", axioms=["X"], confidence=0.9, resamples=0)


def test_default_axioms_are_the_preference_columns():
    frame = _frame()
    # Z has values beyond -1/0/1, judgments is an integer count, coverage_deep is a judgment column.
    assert preference_columns(frame, exclude=["truth"]) == ["X", "Y"]
    assert agreement(frame, truth="truth")["axiom"].tolist() == ["X", "Y"]


def test_agreement_errors_name_the_column():
    frame = _frame()
    with pytest.raises(ValueError, match="truth column 'human' is not in the preference frame"):
        agreement(frame, truth="human", axioms=["X"])
    with pytest.raises(ValueError, match="axiom column 'COV1' is not in the preference frame"):
        agreement(frame, truth="truth", axioms=["COV1"])
    with pytest.raises(TypeError, match="axiom column 'docno_a' must hold numbers"):
        agreement(frame, truth="truth", axioms=["docno_a"])
    with pytest.raises(ValueError, match="truth has 2 values for 6 preference rows"):
        agreement(frame, truth=np.array([1.0, 0.0]), axioms=["X"])


def test_empty_frames_give_rows_without_pairs():
    table = agreement(_frame().iloc[:0], truth="truth", axioms=["X"])
    assert table[["axiom", "pairs", "concordance_pairs"]].values.tolist() == [["X", 0, 0]]
    assert table[["decisiveness", "concordance", "accuracy"]].isna().all(axis=None)


def test_confidence_adds_a_bootstrap_interval_over_topics():
    rng = np.random.default_rng(0)
    truth = rng.choice([-1.0, 1.0], size=200)
    frame = pd.DataFrame(
        {
            "qid": np.repeat([f"t{topic}" for topic in range(10)], 20),
            "truth": truth,
            "perfect": truth,
            "noisy": np.where(rng.random(200) < 0.7, truth, -truth),
        }
    )
    table = agreement(frame, truth="truth", axioms=["perfect", "noisy"], confidence=0.95).set_index("axiom")
    assert list(table.columns[-2:]) == ["concordance_low", "concordance_high"]
    assert table.loc["perfect", "concordance_low"] == table.loc["perfect", "concordance_high"] == 1.0
    noisy = table.loc["noisy"]
    assert noisy["concordance_low"] < noisy["concordance"] < noisy["concordance_high"]
    assert 0.5 < noisy["concordance_low"] and noisy["concordance_high"] < 0.9
    again = agreement(frame, truth="truth", axioms=["noisy"], confidence=0.95)
    assert again["concordance_low"].iloc[0] == noisy["concordance_low"]  # the same seed, the same interval
    wider = agreement(frame, truth="truth", axioms=["noisy"], confidence=0.99).iloc[0]
    assert wider["concordance_low"] <= noisy["concordance_low"]
    assert wider["concordance_high"] >= noisy["concordance_high"]
    one_topic = agreement(frame.assign(qid="t"), truth="truth", axioms=["noisy"], confidence=0.95).iloc[0]
    assert np.isnan(one_topic["concordance_low"]) and np.isnan(one_topic["concordance_high"])
    assert list(agreement(frame, truth="truth", axioms=["noisy"]).columns) == AGREEMENT_COLUMNS
    with pytest.raises(ValueError, match="group column 'topic'"):
        agreement(frame, truth="truth", confidence=0.95, groups="topic")
    with pytest.raises(ValueError, match="confidence must lie in"):
        agreement(frame, truth="truth", confidence=95)


def test_calibration_tells_a_calibrated_model_from_an_overconfident_one():
    rng = np.random.default_rng(0)
    probability = rng.uniform(0.0, 1.0, 4000)
    truth = np.where(rng.uniform(0.0, 1.0, 4000) < probability, 1.0, -1.0)  # right as often as it says
    frame = pd.DataFrame({"truth": truth, "PreferenceModel_probability": probability})
    table = calibration(frame, truth="truth")
    assert list(table.columns) == CALIBRATION_COLUMNS and len(table) == 5
    assert table["pairs"].tolist() == [800] * 5
    assert (table["confidence_low"] <= table["mean_confidence"]).all()
    assert (table["mean_confidence"] <= table["confidence_high"]).all()
    assert table["confidence_high"].iloc[:-1].lt(table["confidence_low"].iloc[1:].to_numpy()).all()
    assert np.abs(table["concordance"] - table["mean_confidence"]).max() < 0.05
    # the same favoured responses, but surer: concordances stay, confidences rise
    frame["sure"] = np.where(probability > 0.5, 0.99, 0.01)
    overconfident = calibration(frame, truth="truth", probability="sure")
    assert overconfident["pairs"].tolist() == [4000]
    assert overconfident["mean_confidence"].iloc[0] == pytest.approx(0.99)
    assert overconfident["concordance"].iloc[0] < 0.8


def test_calibration_counts_only_pairs_both_decide():
    frame = pd.DataFrame(
        {
            "truth": [1.0, -1.0, 1.0, 0.0, NAN, 1.0, -1.0],
            "p": [0.9, 0.8, 0.5, 0.9, 0.9, NAN, 0.3],  # right, wrong, undecided, ..., right
        }
    )
    table = calibration(frame, truth="truth", probability="p", bins=2)
    assert table["pairs"].tolist() == [2, 1]
    assert table["concordance"].tolist() == [0.5, 1.0]  # 0.7 (right) and 0.8 (wrong); 0.9 (right)
    assert table["mean_confidence"].tolist() == pytest.approx([0.75, 0.9])
    assert calibration(frame.iloc[2:5], truth="truth", probability="p").empty
    assert calibration(frame.iloc[:0], truth="truth", probability="p")["pairs"].dtype == np.int64


def test_calibration_errors_name_the_column_and_row():
    frame = pd.DataFrame({"truth": [1.0, -1.0], "p": [0.2, 1.5], "text": ["x", "y"]})
    with pytest.raises(ValueError, match=r"calibration: the probability column 'p' holds 1\.5 in row 2"):
        calibration(frame, truth="truth", probability="p")
    with pytest.raises(ValueError, match="calibration: the probability column 'PreferenceModel_probability' is not"):
        calibration(frame, truth="truth")
    with pytest.raises(TypeError, match="calibration: the probability column 'text' must hold numbers"):
        calibration(frame, truth="truth", probability="text")
    with pytest.raises(ValueError, match="calibration: the truth column 'human' is not"):
        calibration(frame, truth="human", probability="p")
    with pytest.raises(ValueError, match="bins must be an integer >= 1, not 0"):
        calibration(frame, truth="truth", probability="p", bins=0)


def test_agreement_by_dimension_tabulates_one_measure():
    frame = _frame()
    table = agreement_by_dimension(frame, truths=["truth", "coverage_deep"], axioms=["X", "Y"])
    assert table.index.tolist() == ["X", "Y"] and table.columns.tolist() == ["truth", "coverage_deep"]
    np.testing.assert_allclose(table.to_numpy(), [[2 / 3, 1.0], [NAN, NAN]])
    accuracy = agreement_by_dimension(frame, truths=["truth", "coverage_deep"], axioms=["X"], measure="accuracy")
    np.testing.assert_allclose(accuracy.to_numpy(), [[3 / 5, 4 / 6]])
    # By default, the CrowdRAG-25 dimensions present are the truths; other preference columns the axioms.
    default = agreement_by_dimension(frame.drop(columns=["truth"]))
    assert default.columns.tolist() == ["coverage_deep"] and default.index.tolist() == ["X", "Y"]
    with pytest.raises(ValueError, match="measure must be one of"):
        agreement_by_dimension(frame, truths=["truth"], measure="kappa")
    with pytest.raises(ValueError, match="no truth columns"):
        agreement_by_dimension(frame.drop(columns=["coverage_deep"]))


def test_plot_agreement_draws_an_annotated_heatmap():
    import matplotlib.pyplot as plt

    table = agreement_by_dimension(_frame(), truths=["truth", "coverage_deep"], axioms=["X", "Y"])
    pairs = agreement_by_dimension(_frame(), truths=["truth", "coverage_deep"], axioms=["X", "Y"],
                                   measure="concordance_pairs")
    ax = plot_agreement(table, pairs=pairs, min_pairs=0, title="Concordance", label="concordance")
    try:
        image = ax.images[0]
        np.testing.assert_allclose(np.ma.filled(image.get_array(), np.nan), table.to_numpy())
        assert [label.get_text() for label in ax.get_xticklabels()] == ["truth", "coverage_deep"]
        assert [label.get_text() for label in ax.get_yticklabels()] == ["X", "Y"]
        assert sorted(text.get_text() for text in ax.texts) == ["0.67", "1.00"]  # NaN cells stay empty
        assert ax.get_title() == "Concordance"
        assert ax.figure.axes[-1].get_ylabel() == "concordance"  # the colour bar
    finally:
        plt.close(ax.figure)


def test_plot_agreement_greys_out_and_counts_a_cell_from_few_pairs():
    import matplotlib.pyplot as plt

    table = pd.DataFrame({"quality": [0.58, 0.78], "coverage": [0.61, 0.40]}, index=pd.Index(["COV1", "COV2"]))
    pairs = pd.DataFrame({"coverage": [150, 140], "quality": [158, 9]}, index=pd.Index(["COV2", "COV1"]))
    ax = plot_agreement(table, pairs=pairs)  # min_pairs=30; pairs in another order are matched by name
    try:
        shown = ax.images[0].get_array()
        assert shown.mask.tolist() == [[True, False], [False, False]]  # COV1/quality: 9 pairs, not coloured
        texts = sorted(text.get_text() for text in ax.texts)
        assert texts == sorted(["0.58\n(9)", "0.61", "0.78", "0.40"])
        assert "fewer than 30 pairs" in ax.get_xlabel()
    finally:
        plt.close(ax.figure)
    with pytest.warns(UserWarning, match="no pair counts"):
        plt.close(plot_agreement(table).figure)
    with pytest.raises(ValueError, match="pairs has no row or column for COV2"):
        plot_agreement(table, pairs=pairs.loc[["COV1"]])


def test_calibration_puts_p_and_one_minus_p_in_one_group():
    frame = pd.DataFrame({"p": [0.82, 0.82, 0.82, 0.18, 0.9], "T": [1.0, 1.0, 1.0, 1.0, 1.0]})
    table = calibration(frame, truth="T", probability="p", bins=np.int64(2))
    assert table["pairs"].tolist() == [4, 1]
    assert table["concordance"].tolist() == [0.75, 1.0]
