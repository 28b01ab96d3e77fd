"""Each response is judged on its own context: preference frames carry ``context_a`` and
``context_b``, so row order and other responses never change a preference, and contexts that are
not passages of text are errors that name the row."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from conftest import OCEAN, SKY, two_systems
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyterrier_rag_axioms as pra
from pyterrier_rag_axioms.frames import FrameError, preference_frame
from pyterrier_rag_axioms.reranking import KwikSort


def _preference_of(frame: pd.DataFrame, column: str, a: str, b: str) -> float:
    """The preference for ``a`` over ``b`` in a preference frame, whichever orientation it lists."""
    forward = frame[(frame["docno_a"] == a) & (frame["docno_b"] == b)]
    if len(forward):
        return float(forward[column].iloc[0])
    return -float(frame[(frame["docno_a"] == b) & (frame["docno_b"] == a)][column].iloc[0])


# Small vocabulary, so that the shared analyzer parses each text once across examples.
_SENTENCES = (
    "The aurora glows green.",
    "Charged particles from the Sun hit the atmosphere.",
    "Oxygen emits green light at night.",
    "The Moon has no aurora.",
    "Solar wind carries charged particles.",
    "Nitrogen gives a purple glow.",
)


_texts = st.lists(st.sampled_from(_SENTENCES), min_size=1, max_size=2, unique=True).map(" ".join)


_responses = st.tuples(_texts, st.lists(_texts, min_size=1, max_size=2, unique=True))


def _frame(responses: list[tuple[str, list[str]]], docnos: list[str]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "qid": "q",
            "query": "Why does the aurora glow?",
            "docno": docnos,
            "response": [response for response, _ in responses],
            "context": [context for _, context in responses],
        }
    )


def test_pairs_carry_each_responses_own_context():
    pairs = preference_frame(two_systems())
    assert pairs["context_a"].iloc[0] == tuple(two_systems()["context"].iloc[0])  # one shape: a tuple
    assert pairs["context_b"].iloc[0] == tuple(two_systems()["context"].iloc[1])
    assert "context" not in pairs.columns


@pytest.mark.parametrize("axiom", [pra.CONS1, pra.CONS2], ids=["CONS1", "CONS2"])
def test_context_axioms_do_not_depend_on_row_order(axiom):
    frame = two_systems()
    forward = axiom()(frame)
    backward = axiom()(frame.iloc[::-1])
    assert _preference_of(forward, axiom.short_name, "A", "B") == _preference_of(backward, axiom.short_name, "A", "B")
    values = axiom().values(frame)[f"{axiom.short_name}_value"].to_numpy()
    expected = pra.compare_with_margin(values[:1], values[1:], margin_fraction=axiom.default_margin_fraction)[0]
    assert _preference_of(forward, axiom.short_name, "A", "B") == expected


def test_cons2_judges_each_response_against_its_own_passages():
    # each response copies its own passages: both overlap fully, so neither is preferred
    frame = two_systems().assign(context=[[SKY], [OCEAN]])
    assert pra.CONS2()(frame)["CONS2"].tolist() == [0.0]
    assert pra.CONS2().values(frame)["CONS2_value"].tolist() == pytest.approx([1.0, 1.0])


def test_kwiksort_reads_each_responses_own_context():
    # A repeats its one passage; B repeats one of its three passages: A overlaps more with its own
    frame = two_systems()
    frame["context"] = [[SKY], [OCEAN, "Fish live in the ocean.", "Whales too."]]
    for order in (frame, frame.iloc[::-1]):
        assert KwikSort(pra.CONS2(), pivot="first")(order)["docno"].tolist() == ["A", "B"]
        pairs = pra.CONS2()(order)
        assert KwikSort("CONS2", pivot="first")(pairs)["docno"].tolist() == ["A", "B"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(_responses, min_size=2, max_size=5),
    st.lists(_responses, min_size=0, max_size=2),
    st.randoms(use_true_random=False),
    st.integers(0, 1000),
)
def test_preferences_depend_only_on_the_pair(responses, added, random, seed):
    axiom = pra.CONS2(margin_fraction=0.0)
    docnos = [f"d{i}" for i in range(len(responses))]
    frame = _frame(responses, docnos)
    pairs = axiom(frame)
    values = dict(zip(docnos, axiom.values(frame)["CONS2_value"]))

    shuffled = frame.sample(frac=1.0, random_state=random.randint(0, 2**31))
    more = pd.concat([shuffled, _frame(added, [f"e{i}" for i in range(len(added))])], ignore_index=True)
    more = more.sample(frac=1.0, random_state=random.randint(0, 2**31))
    other = axiom(more)
    for a, b in zip(pairs["docno_a"], pairs["docno_b"]):
        preference = _preference_of(pairs, "CONS2", a, b)
        assert _preference_of(other, "CONS2", a, b) == preference
        expected = pra.compare_with_margin(np.array([values[a]]), np.array([values[b]]), margin_fraction=0.0)[0]
        assert preference == expected

    # with margin 0 the values form a weak order, which KwikSort sorts, from responses or from pairs
    ranking = KwikSort(axiom, seed=seed)(frame)
    ranked_values = [values[docno] for docno in ranking["docno"]]
    assert ranked_values == sorted(ranked_values, reverse=True)
    assert KwikSort("CONS2", seed=seed)(pairs)["docno"].tolist() == ranking["docno"].tolist()


def test_preference_frame_with_one_context_column_is_an_error():
    pairs = preference_frame(two_systems()).drop(columns=["context_b"])
    with pytest.raises(FrameError, match="has column 'context_a' but not 'context_b'"):
        pra.CONS2()(pairs)
    old = pairs.drop(columns=["context_a"])
    old["context"] = pd.Series([["passage"]], dtype=object)
    with pytest.raises(FrameError, match="not one column 'context'"):
        pra.CONS2()(old)


@pytest.mark.parametrize(
    ("context", "message"),
    [(["ok", None], "context passage 1 must be a string, not NoneType"), (["ok", 3], "passage 1 .* not int 3"),
     ([np.nan], "passage 0 must be a string, not float nan"), ({"a": 1}, "not dict")],
)
def test_context_entries_that_are_not_strings_are_errors(context, message):
    frame = two_systems()
    frame["context"] = [["fine"], context]
    with pytest.raises(TypeError, match=rf"row 1: column 'context' \(qid '1'\): .*{message}"):
        pra.CONS2()(frame)


def test_passage_records_are_read_by_their_text():
    frame = two_systems()
    frame["context"] = [["Paris is the capital of France."], ["Paris is the capital of France."]]
    records = frame.assign(context=[[{"docno": "d1", "text": "Paris is the capital of France."}]] * 2)
    assert pra.CONS2()(records)["CONS2"].tolist() == pra.CONS2()(frame)["CONS2"].tolist()
    assert pra.CONS2()(records)["context_a"].iloc[0] == ("Paris is the capital of France.",)
    with pytest.raises(TypeError, match="passage 0 must be a string, not dict"):
        pra.CONS2()(frame.assign(context=[[{"docno": "d1"}]] * 2))


def test_citation_axioms_warn_where_a_context_is_one_string_of_several_lines():
    frame = pd.DataFrame({"qid": "1", "query": "capital of France", "docno": ["a", "b"],
                          "response": ["Paris is the capital [1].", "It is Paris [0]."],
                          "context": ["Paris is the capital.\nFrance is in Europe.", "One passage only."]})
    with pytest.warns(UserWarning, match=r"CORR3 read a citation \[k\] as the k-th passage of the context, but 1 "
                                         r"response has a context of one passage of several lines"):
        pra.CORR3()(frame)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pra.CORR3()(frame.assign(context=[["Paris is the capital.", "France is in Europe."], ["One passage only."]]))
        pra.CONS2()(frame)  # CONS2 reads the context as text: one string is fine


def test_na_context_is_no_context():
    frame = two_systems()
    frame["context"] = pd.array([pd.NA, pd.NA], dtype=object)
    pairs = pra.CONS2()(frame)
    assert pairs["CONS2"].tolist() == [0.0] and pairs["context_a"].iloc[0] is None
