"""Combinators: truth tables, NaN and ties, columns and axioms as members, errors, real axioms."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyterrier as pt
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from pyterrier_rag_axioms import COH1, CORR1, COV1
from pyterrier_rag_axioms.aggregation import Cascade, Combinator, Conjunction, MajorityVote, WeightedSum
from pyterrier_rag_axioms.frames import PAIR_COLUMNS, ResponseTable, preference_frame
from pyterrier_rag_axioms.registry import COMBINATORS

NAN = float("nan")


# --- truth tables of the pure functions -------------------------------------------------------

MAJORITY = [
    # (member preferences, min_decisive_share, expected)
    ([1, 1, 1], 0.5, 1.0),
    ([-1, -1, 1], 0.5, -1.0),
    ([1, -1, 0], 0.5, 0.0),  # a tie of votes
    ([1, 0, 0], 0.5, 0.0),  # 1 of 3 decisive: below the share
    ([1, 0, 0], 0.0, 1.0),  # relative majority counts any vote
    ([1, 1, 0], 0.5, 1.0),
    ([1, 1, 0], 1.0, 0.0),  # consensus of all members needed
    ([1, 1, 1], 1.0, 1.0),
    ([0, 0, 0], 0.0, 0.0),  # all tie
    ([NAN, NAN, NAN], 0.0, 0.0),  # all missing
    ([NAN, 1, 1], 0.5, 1.0),  # NaN abstains
    ([NAN, 1, 0], 0.5, 0.0),  # NaN is not decisive
    ([0.3, -2.0, -0.5], 0.5, -1.0),  # graded values vote by their sign
]


@pytest.mark.parametrize(("votes", "share", "expected"), MAJORITY)
def test_majority_vote_truth_table(votes, share, expected):
    vote = MajorityVote("A", "B", "C", min_decisive_share=share)
    assert vote.combine([votes]).tolist() == [expected]


def test_majority_vote_share_is_inclusive():
    vote = MajorityVote("A", "B", "C", "D", min_decisive_share=0.5)
    assert vote.combine([[1, 1, 0, 0], [1, 0, 0, 0]]).tolist() == [1.0, 0.0]


CASCADE = [
    ([1, -1, -1], 1.0),
    ([0, -1, 1], -1.0),
    ([NAN, 0, 1], 1.0),
    ([0, 0, 0], 0.0),
    ([NAN, NAN, NAN], 0.0),
    ([0, 0.25, -1], 1.0),
]


@pytest.mark.parametrize(("votes", "expected"), CASCADE)
def test_cascade_truth_table(votes, expected):
    assert Cascade("A", "B", "C").combine([votes]).tolist() == [expected]


CONJUNCTION = [
    ([1, 1, 1], 1.0),
    ([1, 0, 1], 1.0),  # ties abstain
    ([NAN, -1, 0], -1.0),  # so does NaN
    ([1, -1, 1], 0.0),  # disagreement
    ([0, 0, 0], 0.0),
    ([NAN, NAN, NAN], 0.0),
]


@pytest.mark.parametrize(("votes", "expected"), CONJUNCTION)
def test_conjunction_truth_table(votes, expected):
    assert Conjunction("A", "B", "C").combine([votes]).tolist() == [expected]


WEIGHTED = [
    ([1, 1, -1], [1, 1, 1], 1.0),
    ([1, -1, -1], [3, 1, 1], 1.0),  # a heavy member outweighs two light ones
    ([1, -1, -1], [2, 1, 1], 0.0),  # exact balance is a tie
    ([1, -1, 0], [1, 1, 5], 0.0),
    ([1, NAN, -1], [1, 9, 2], -1.0),  # NaN counts as 0
    ([0.1, 0.2, -1], [1, 1, 0.3], 0.0),  # 0.1 + 0.2 - 0.3 is a tie despite rounding
    ([0.5, -0.25, 0], [1, 1, 1], 1.0),  # graded values keep their strength
    ([1, 1, 1], [-1, 0, 0], -1.0),  # a negative weight turns a member around
    ([0, 0, 0], [1, 1, 1], 0.0),
]


@pytest.mark.parametrize(("votes", "weights", "expected"), WEIGHTED)
def test_weighted_sum_truth_table(votes, weights, expected):
    assert WeightedSum("A", "B", "C", weights=weights).combine([votes]).tolist() == [expected]


def test_combine_is_vectorised_over_rows():
    matrix = np.array([votes for votes, share, _ in MAJORITY if share == 0.5], dtype=float)
    expected = [result for _, share, result in MAJORITY if share == 0.5]
    assert MajorityVote("A", "B", "C").combine(matrix).tolist() == expected
    assert Cascade("A", "B", "C").combine(np.empty((0, 3))).tolist() == []


def test_combine_checks_the_matrix_shape():
    with pytest.raises(ValueError, match=r"MajorityVote.*one column per member \(3\)"):
        MajorityVote("A", "B", "C").combine([[1, 1]])


def _combinators(members: int) -> list[Combinator]:
    names = [f"m{i}" for i in range(members)]
    return [
        MajorityVote(*names, min_decisive_share=0.0),
        MajorityVote(*names),
        MajorityVote(*names, min_decisive_share=1.0),
        Cascade(*names),
        Conjunction(*names),
        WeightedSum(*names, weights=[0.5 + i for i in range(members)]),
    ]


preference_values = st.sampled_from([-1.0, 0.0, 1.0, NAN, 0.5, -0.5])


@given(arrays(float, st.tuples(st.integers(0, 6), st.integers(1, 4)), elements=preference_values))
def test_every_combinator_is_antisymmetric_and_returns_signs(matrix):
    for combinator in _combinators(matrix.shape[1]):
        result = combinator.combine(matrix)
        assert set(result.tolist()) <= {-1.0, 0.0, 1.0}
        assert (combinator.combine(-matrix) == -result).all()
        assert not np.signbit(result[result == 0]).any()  # no -0.0


@given(arrays(float, st.tuples(st.integers(1, 5), st.integers(1, 4)), elements=st.sampled_from([-1.0, 0.0, 1.0])))
def test_one_decisive_member_decides_alone(matrix):
    """Where exactly one member is decisive, cascade, conjunction and relative majority agree with it."""
    single = np.count_nonzero(matrix, axis=1) == 1
    names = [f"m{i}" for i in range(matrix.shape[1])]
    expected = matrix.sum(axis=1)[single]
    for combinator in (Cascade(*names), Conjunction(*names), MajorityVote(*names, min_decisive_share=0.0)):
        assert (combinator.combine(matrix)[single] == expected).all()


# --- as transformers over preference columns ---------------------------------------------------


def _pairs() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "qid": ["1", "1", "1"],
            "query": ["q"] * 3,
            "docno_a": ["a", "a", "b"],
            "docno_b": ["b", "c", "c"],
            "response_a": ["A.", "A.", "B."],
            "response_b": ["B.", "C.", "C."],
            "X": [1.0, 0.0, NAN],
            "Y": [1.0, -1.0, 1.0],
            "Z": [-1.0, -1.0, 0.0],
        }
    )


def test_combinators_add_their_named_column_over_existing_columns():
    pairs = _pairs()
    before = pairs.copy()
    out = MajorityVote("X", "Y", "Z")(pairs)
    pd.testing.assert_frame_equal(pairs, before)  # the caller's frame is untouched
    assert set(out.columns) == {*PAIR_COLUMNS, "X", "Y", "Z", "MajorityVote(X,Y,Z)"}
    assert out.columns[-1] == "MajorityVote(X,Y,Z)"
    assert out["MajorityVote(X,Y,Z)"].tolist() == [1.0, -1.0, 0.0]
    assert Cascade("X", "Y", "Z")(pairs)["Cascade(X,Y,Z)"].tolist() == [1.0, -1.0, 1.0]
    assert Conjunction("X", "Y", "Z", name="all")(pairs)["all"].tolist() == [0.0, -1.0, 1.0]
    weighted = WeightedSum("X", "Y", "Z", weights=[1, 1, 3], name="w")(pairs)
    assert weighted["w"].tolist() == [-1.0, -1.0, 1.0]


def test_combinators_chain_in_a_pipeline():
    pipeline = MajorityVote("X", "Y", "Z", name="vote") >> Cascade("vote", "X", name="final")
    out = pipeline(_pairs())
    assert out["final"].tolist() == [1.0, -1.0, 0.0]


def test_missing_member_column_names_the_combinator_and_the_column():
    with pytest.raises(pt.validate.InputValidationError, match=r"(?s)MajorityVote\('X', 'W'.*missing_columns=\['W'\]"):
        MajorityVote("X", "W")(_pairs())


def test_non_numeric_member_column_is_rejected():
    pairs = _pairs().assign(X=["yes", "no", "maybe"])
    with pytest.raises(TypeError, match=r"Cascade\('X', 'Y'\): preference column 'X' must hold numbers"):
        Cascade("X", "Y")(pairs)


def test_empty_input_gives_empty_output_with_all_columns():
    out = MajorityVote("X", COV1())(_pairs().iloc[:0])
    assert list(out.columns) == [*PAIR_COLUMNS, "X", "Y", "Z", "COV1", "MajorityVote(X,COV1)"]
    assert len(out) == 0
    assert out["MajorityVote(X,COV1)"].dtype == float


def test_inspect_reports_the_output_columns():
    columns = ["qid", "query", "response"]
    assert pt.inspect.transformer_outputs(Cascade(CORR1(), COH1()), columns) == [
        *PAIR_COLUMNS, "CORR1", "COH1", "Cascade(CORR1,COH1)",
    ]


# --- with real axioms ---------------------------------------------------------------------------


def test_axiom_members_run_on_a_response_frame(sample_responses):
    frame = sample_responses[sample_responses["qid"].isin(["q1", "q2"])]
    vote = MajorityVote(COV1(), CORR1(), COH1())
    out = vote(frame)
    separate = (COV1() >> CORR1() >> COH1())(frame)
    for name in ("COV1", "CORR1", "COH1"):
        assert out[name].tolist() == separate[name].tolist()
    expected = vote.combine(separate[["COV1", "CORR1", "COH1"]].to_numpy())
    assert out["MajorityVote(COV1,CORR1,COH1)"].tolist() == expected.tolist()
    assert len(set(expected.tolist())) > 1  # the sample gives decisive preferences both ways


def test_axiom_member_is_not_run_where_its_column_is_present(sample_responses):
    frame = sample_responses[sample_responses["qid"] == "q1"]
    pairs = COV1()(frame)
    flipped = pairs.assign(COV1=-pairs["COV1"])  # a column the axiom would never compute
    out = Cascade(COV1(), name="c")(flipped)
    assert out["c"].tolist() == (-pairs["COV1"]).tolist()
    assert out["COV1"].tolist() == flipped["COV1"].tolist()


def test_nested_combinators_run_their_members(sample_responses):
    frame = sample_responses[sample_responses["qid"] == "q3"]
    inner = Conjunction(CORR1(), COV1(), name="inner")
    outer = Cascade(inner, COH1(), name="outer")
    out = outer(frame)
    assert list(out.columns) == [*PAIR_COLUMNS, "CORR1", "COV1", "inner", "COH1", "outer"]
    expected = outer.combine(np.column_stack([inner.combine(out[["CORR1", "COV1"]].to_numpy()), out["COH1"]]))
    assert out["outer"].tolist() == expected.tolist()
    table = ResponseTable.from_pairs(preference_frame(frame))
    assert outer.preferences(table).tolist() == expected.tolist()


def test_preferences_from_a_table_need_runnable_members():
    table = ResponseTable.from_pairs(preference_frame(_pairs()))
    with pytest.raises(ValueError, match=r"members \['X'\] are preference column names"):
        MajorityVote("X", CORR1()).preferences(table)


# --- construction -------------------------------------------------------------------------------


def test_constructor_errors():
    with pytest.raises(ValueError, match="MajorityVote: needs at least one member"):
        MajorityVote()
    with pytest.raises(TypeError, match="Cascade: a member must be .* not int 3"):
        Cascade("X", 3)
    with pytest.raises(ValueError, match=r"distinct names, but \['COV1'\]"):
        Conjunction("COV1", COV1())
    with pytest.raises(ValueError, match="min_decisive_share must be a number from 0 to 1"):
        MajorityVote("X", min_decisive_share=1.5)
    with pytest.raises(ValueError, match="2 weights for 3 members"):
        WeightedSum("X", "Y", "Z", weights=[1, 2])
    with pytest.raises(ValueError, match="weights must be finite"):
        WeightedSum("X", weights=[float("inf")])
    with pytest.raises(ValueError, match="is also the name of a member"):
        Cascade("X", "Y", name="X")


def test_repr_shows_members_and_options():
    assert repr(MajorityVote("X", CORR1())) == "MajorityVote('X', CORR1(margin_fraction=0.1), min_decisive_share=0.5)"
    weighted = WeightedSum("X", "Y", weights=[2, 1], name="w")
    assert repr(weighted) == "WeightedSum('X', 'Y', weights=(2.0, 1.0), name='w')"
    assert repr(Cascade("X")) == "Cascade('X')"
    assert set(COMBINATORS) == {"majority", "cascade", "conjunction", "weighted"}


def test_verbose_shows_progress_over_members(capsys):
    Cascade("X", "Y", verbose=True)(_pairs())
    assert "Cascade(X,Y)" in capsys.readouterr().err
    Cascade("X", "Y")(_pairs())
    assert capsys.readouterr().err == ""
