"""Pool axioms: values that depend on the other responses to a query, and the rules they still keep."""

import numpy as np
import pandas as pd
import pytest

import pyterrier_rag_axioms as rag
from pyterrier_rag_axioms.axioms.pool import POOL1, POOL2, POOL3, POOL4

POOL_AXIOMS = [POOL1, POOL2, POOL3, POOL4]

TOWER = "When was the Eiffel Tower built?"
TEA = "Is green tea healthy?"
TEXTS = {
    ("q1", "r1"): "The Eiffel Tower was built from 1887 to 1889. It was designed by Gustave Eiffel's company.",
    ("q1", "r2"): "Construction of the Eiffel Tower began in 1887 and ended in 1889 for the World's Fair.",
    ("q1", "r3"): "The Eiffel Tower was built between 1887 and 1889. It is 330 metres tall.",
    ("q1", "r4"): "Bananas are rich in potassium. Monkeys like them.",
    ("q1", "r5"): "The tower opened in 1889 for the Exposition Universelle, after two years of building.",
    ("q2", "t1"): "Green tea contains antioxidants called catechins. It may lower the risk of heart disease.",
    ("q2", "t2"): "Green tea is rich in catechins, which are antioxidants. Too much caffeine can disturb sleep.",
    ("q2", "t3"): "Drinking green tea may reduce the risk of heart disease, studies suggest.",
}


def frame(keys=None) -> pd.DataFrame:
    keys = list(TEXTS) if keys is None else keys
    return pd.DataFrame(
        {
            "qid": [qid for qid, _ in keys],
            "query": [TOWER if qid == "q1" else TEA for qid, _ in keys],
            "docno": [docno for _, docno in keys],
            "response": [TEXTS[key] for key in keys],
        }
    )


def values(axiom, responses: pd.DataFrame) -> pd.Series:
    out = axiom.values(responses)
    return out.set_index(["qid", "docno"])[f"{axiom.name}_value"]


@pytest.mark.parametrize("cls", POOL_AXIOMS)
def test_pool_axioms_disclose_the_pool(cls):
    axiom = cls()
    assert "pool=None" in repr(axiom) and "pool axiom" in cls.__doc__ and "Intuition" in cls.__doc__
    fixed = cls(pool=frame())
    assert "fixed pool of 8 responses, 2 qids" in repr(fixed)
    assert eval(repr(axiom), vars(rag)) == axiom  # the default pool evaluates back


@pytest.mark.parametrize("cls", POOL_AXIOMS)
def test_row_order_never_changes_a_value(cls):
    responses = frame()
    forward = values(cls(), responses)
    backward = values(cls(), responses.iloc[[5, 3, 0, 7, 1, 6, 4, 2]])
    pd.testing.assert_series_equal(forward.sort_index(), backward.sort_index())
    assert forward.notna().all()
    pairs = cls()(responses)  # and the preference frame: the same preferences in any row order
    shuffled = cls()(pairs.drop(columns=[cls.short_name]).sample(frac=1.0, random_state=3))
    merged = pairs.merge(shuffled, on=["qid", "docno_a", "docno_b"], suffixes=("", "_shuffled"))
    assert len(merged) == len(pairs)
    np.testing.assert_array_equal(merged[cls.short_name], merged[f"{cls.short_name}_shuffled"])


@pytest.mark.parametrize("cls", POOL_AXIOMS)
def test_a_fixed_pool_judges_a_subset_as_within_the_whole(cls):
    whole = frame()
    expected = values(cls(), whole)
    subset = frame([("q1", "r4"), ("q1", "r2"), ("q2", "t3")])
    fixed = values(cls(pool=whole), subset)
    pd.testing.assert_series_equal(fixed, expected.loc[fixed.index])
    alone = values(cls(), subset)  # the default pool is the subset: other values
    assert not np.allclose(alone.to_numpy(), fixed.to_numpy(), equal_nan=True)


def test_a_response_never_supports_itself():
    disjoint = frame([("q1", "r3"), ("q1", "r4")])  # nothing in common: no support, though each states its own units
    assert list(values(POOL1(), disjoint)) == [0.0, 0.0]
    assert list(values(POOL3(), disjoint)) == [0.0, 0.0]
    assert list(values(POOL4(), disjoint)) == [1.0, 1.0]
    # in a fixed pool, the member with the response's docno is left out; under another docno, the same text supports it
    pool = frame([("q1", "r3"), ("q1", "r4")])
    copy = pd.DataFrame({"qid": ["q1"], "query": [TOWER], "docno": ["copy"], "response": [TEXTS[("q1", "r3")]]})
    assert values(POOL1(pool=pool), frame([("q1", "r3")])).iloc[0] == 0.0
    assert values(POOL1(pool=pool), copy).iloc[0] > 0.0
    assert values(POOL3(pool=pool), copy).iloc[0] == 1.0  # both of its sentences, each stated by one of two others


@pytest.mark.parametrize("cls", POOL_AXIOMS)
def test_duplicates_within_one_group_count_once(cls):
    keys = [("q1", "r1"), ("q1", "r3"), ("q1", "r4")]
    base = frame(keys).assign(team=["a", "b", "c"])
    copies = [frame([("q1", "r3")]).assign(docno=docno, team="b") for docno in ("r3-v2", "r3-v3")]
    variants = pd.concat([base, *copies], ignore_index=True)  # r3's team submits two more copies of it
    grouped = values(cls(group="team"), variants)
    others = [("q1", "r1"), ("q1", "r4")]
    pd.testing.assert_series_equal(grouped.loc[others], values(cls(), base).loc[others])
    if cls in (POOL1, POOL3):  # sums: without groups, the copies outvote the rest (shares and ratios may not move)
        ungrouped = values(cls(), variants)
        assert ungrouped[("q1", "r1")] > grouped[("q1", "r1")]
    # the same from a fixed pool with the group column, and from a preference frame's team_a/team_b
    fixed = values(cls(pool=variants, group="team"), base.drop(columns=["team"]))
    pd.testing.assert_series_equal(fixed.loc[[("q1", "r1")]], grouped.loc[[("q1", "r1")]])
    pairs = cls(group="team")(variants)
    assert {"team_a", "team_b"} <= set(pairs.columns)
    again = cls(group="team")(pairs.drop(columns=[cls.short_name]))
    np.testing.assert_array_equal(again[cls.short_name], pairs[cls.short_name])
    with pytest.raises(ValueError, match="the group column 'team' is not in the input"):
        cls(group="team").values(base.drop(columns=["team"]))


@pytest.mark.parametrize("cls", POOL_AXIOMS)
def test_pairs_stay_antisymmetric(cls):
    forward = cls()(frame())
    swapped = forward.rename(
        columns={"docno_a": "docno_b", "docno_b": "docno_a", "response_a": "response_b", "response_b": "response_a",
                 "context_a": "context_b", "context_b": "context_a"}
    ).drop(columns=[cls.short_name])
    backward = cls()(swapped.iloc[::-1])
    np.testing.assert_array_equal(backward[cls.short_name].to_numpy()[::-1], -forward[cls.short_name].to_numpy())
    assert (forward[cls.short_name] != 0).any()


@pytest.mark.parametrize("cls", POOL_AXIOMS)
def test_a_pool_of_one_response_gives_nan_and_no_preference(cls):
    single = frame([("q1", "r1"), ("q2", "t1")])
    assert values(cls(), single).isna().all()
    assert values(cls(pool=frame([("q1", "r1"), ("q2", "t1")])), single).isna().all()
    pairs = cls(pool=frame([("q1", "r1")]))(frame([("q1", "r1"), ("q1", "r2")]))
    assert pairs[cls.short_name].tolist() == [0.0]  # r1 has no other response in its pool: NaN, no preference


@pytest.mark.parametrize("cls", POOL_AXIOMS)
def test_a_fixed_pool_without_a_qid_of_the_input_is_an_error_naming_it(cls):
    axiom = cls(pool=frame([("q1", "r1"), ("q1", "r2")]))
    with pytest.raises(ValueError, match="the fixed pool has no response for qid 'q2'"):
        axiom.values(frame())
    with pytest.raises(ValueError, match="qid 'q2'"):
        axiom(frame())


def test_pyramid_sum_and_score_by_hand():
    responses = frame([("q1", "r1"), ("q1", "r2"), ("q1", "r3")])
    pool1, pool2 = values(POOL1(), responses), values(POOL2(), responses)
    # r3's lemmas: eiffel, tower, 1887, 1889 (both others state them), build (r1), 330, metre, tall (none)
    assert pool1[("q1", "r3")] == pytest.approx((4 * 2 + 1) / 2)
    # its 8 units could at best reach 4 x 2 + 4 x 1 (any 4 of the units of r1 or r2 alone)
    assert pool2[("q1", "r3")] == pytest.approx(9 / 12)
    with pytest.raises(ValueError, match="units must be one of"):
        POOL1(units="words")
