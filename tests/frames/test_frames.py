"""Response and preference frames: validation, aliases, pairs, no mutation, empty input."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyterrier as pt
import pytest

from pyterrier_rag_axioms import CORR1, compare_with_margin
from pyterrier_rag_axioms.frames import PAIR_COLUMNS, ResponseTable, normalize_context, preference_frame


def _responses() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "qid": ["1", "1", "1", "2", "2"],
            "query": ["q one"] * 3 + ["q two"] * 2,
            "docno": ["a", "b", "c", "x", "y"],
            "response": ["One [1].", "Two.", "Three [2]. Four.", "Five [1].", "Six."],
        }
    )


def test_pairs_are_all_unordered_pairs_in_input_order():
    pairs = preference_frame(_responses())
    assert list(pairs.columns) == PAIR_COLUMNS
    assert list(zip(pairs["qid"], pairs["docno_a"], pairs["docno_b"])) == [
        ("1", "a", "b"), ("1", "a", "c"), ("1", "b", "c"), ("2", "x", "y"),
    ]
    assert pairs["context_a"].isna().all() and pairs["context_b"].isna().all()


def test_pyterrier_rag_column_names_are_accepted():
    frame = _responses().rename(columns={"response": "qanswer", "query": "query_0"})
    frame["qcontext"] = [["passage"]] * len(frame)
    out = CORR1()(frame)
    assert out["query"].iloc[0] == "q one"
    assert out["response_a"].iloc[0] == "One [1]."
    assert out["context_a"].iloc[0] == ("passage",) and out["context_b"].iloc[0] == ("passage",)


def test_missing_docno_numbers_responses_per_query():
    out = CORR1()(_responses().drop(columns="docno"))
    assert list(zip(out["docno_a"], out["docno_b"])) == [("0", "1"), ("0", "2"), ("1", "2"), ("0", "1")]


def test_missing_column_raises_validation_error_naming_transformer():
    with pytest.raises(pt.validate.InputValidationError, match="CORR1"):
        CORR1()(_responses().drop(columns="response"))


def test_non_text_response_names_transformer_column_and_row():
    frame = _responses().astype({"response": object})
    frame.loc[3, "response"] = 42
    with pytest.raises(TypeError, match=r"CORR1.*: row 3: column 'response' must hold text, not int 42 \(qid '2'\)"):
        CORR1()(frame)
    frame.loc[3, "response"] = None
    with pytest.raises(TypeError, match=r"row 3: column .response. must hold text, not a missing value \(None or"):
        CORR1()(frame)


def test_duplicate_docno_within_query_is_an_error():
    frame = _responses()
    frame.loc[1, "docno"] = "a"
    with pytest.raises(ValueError, match="docno 'a' occurs more than once for qid '1'"):
        CORR1()(frame)


def test_malformed_context_is_an_error():
    frame = _responses()
    frame["context"] = [["ok"], 3, None, None, None]
    with pytest.raises(TypeError, match="row 1: column 'context' .*not int 3"):
        CORR1()(frame)


def test_caller_frame_is_not_mutated():
    frame = _responses().rename(columns={"response": "qanswer"})
    before = frame.copy(deep=True)
    pairs = CORR1()(frame)
    CORR1(name="again")(pairs.copy())
    pd.testing.assert_frame_equal(frame, before)


def test_given_pairs_are_filled_exactly():
    pairs = preference_frame(_responses()).iloc[[2, 0]].reset_index(drop=True)
    before = pairs.copy(deep=True)
    out = CORR1()(pairs)
    assert list(zip(out["docno_a"], out["docno_b"])) == [("b", "c"), ("a", "b")]
    assert out["CORR1"].tolist() == [-1.0, 1.0]
    pd.testing.assert_frame_equal(pairs, before)


def test_empty_frames_give_empty_frames_with_columns():
    out = CORR1()(pd.DataFrame(columns=["qid", "query", "response"]))
    assert len(out) == 0 and list(out.columns) == [*PAIR_COLUMNS, "CORR1"]
    out = CORR1()(pd.DataFrame(columns=PAIR_COLUMNS))
    assert len(out) == 0 and "CORR1" in out.columns


def test_single_response_per_query_gives_no_pairs():
    out = CORR1()(_responses().iloc[[0, 3]])
    assert len(out) == 0 and "CORR1" in out.columns


def test_pairs_refer_to_one_text_per_response_instead_of_copies():
    # n responses per query make n(n-1)/2 pairs: a copy of each text per pair would grow quadratically
    pairs = preference_frame(_responses())
    first_of_query = pairs[pairs["qid"] == "1"]
    assert first_of_query["response_a"].iloc[0] is first_of_query["response_a"].iloc[1]  # response a, twice
    assert first_of_query["query"].iloc[0] is first_of_query["query"].iloc[1]
    assert pairs["response_b"].tolist() == ["Two.", "Three [2]. Four.", "Three [2]. Four.", "Six."]


def test_response_table_from_shuffled_pairs_keeps_each_response_once():
    pairs = preference_frame(_responses()).sample(frac=1, random_state=3)
    table = ResponseTable.from_pairs(pairs)
    texts = table.responses["response"].to_numpy()
    assert sorted(table.responses["docno"]) == ["a", "b", "c", "x", "y"]
    assert texts[table.a].tolist() == pairs["response_a"].tolist()
    assert texts[table.b].tolist() == pairs["response_b"].tolist()


def test_response_table_maps_pairs_to_distinct_responses():
    pairs = preference_frame(_responses())
    table = ResponseTable.from_pairs(pairs)
    assert len(table) == 5
    assert sorted(table.responses["docno"]) == ["a", "b", "c", "x", "y"]
    assert table.responses["docno"].to_numpy()[table.a].tolist() == pairs["docno_a"].tolist()
    assert table.responses["docno"].to_numpy()[table.b].tolist() == pairs["docno_b"].tolist()
    assert table.responses["response"].to_numpy()[table.b].tolist() == pairs["response_b"].tolist()


@pytest.mark.parametrize(
    ("value", "expected"),
    [(None, None), (float("nan"), None), ("one", ("one",)), ("  ", None), (["a", "b"], ("a", "b")),
     (np.array(["a"]), ("a",)), ([], None)],
)
def test_context_normalisation(value, expected):
    assert normalize_context(value) == expected


def test_margin_comparison():
    a = np.array([1.0, 1.0, 1.0, 1.0, np.nan, 0.0, -2.0])
    b = np.array([1.0, 0.95, 0.5, 1.2, 1.0, 0.0, -1.0])
    assert compare_with_margin(a, b, margin_fraction=0.1).tolist() == [0.0, 0.0, 1.0, -1.0, 0.0, 0.0, -1.0]
    assert compare_with_margin(a, b, margin_fraction=0.0).tolist() == [0.0, 1.0, 1.0, -1.0, 0.0, 0.0, -1.0]
    lower = compare_with_margin(a, b, margin_fraction=0.0, prefer_higher=False)
    assert lower.tolist() == [0.0, -1.0, -1.0, 1.0, 0.0, 0.0, 1.0]
    assert not np.signbit(lower[lower == 0]).any()  # no negative zeros


def test_margin_boundary_is_a_tie():
    # |1.0 - 0.8| = 0.2 = 0.2 * max(1.0, 0.8): within the margin
    assert compare_with_margin(np.array([1.0]), np.array([0.8]), margin_fraction=0.2).tolist() == [0.0]
    assert compare_with_margin(np.array([1.0]), np.array([0.79]), margin_fraction=0.2).tolist() == [1.0]


def test_negative_margin_is_rejected():
    with pytest.raises(ValueError, match="margin_fraction"):
        CORR1(margin_fraction=-0.1)
