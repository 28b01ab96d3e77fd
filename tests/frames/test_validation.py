"""Validated once, at the edge: the first transformer that receives a user's frame validates it and
turns every context into a tuple of passages (or None); a frame this package returned passes to the
next stage without being validated again, unless it was changed in place since."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import two_systems

import pyterrier_rag_axioms as pra
from pyterrier_rag_axioms.frames import FrameError, _checks, preference_frame, response_frame


@pytest.fixture
def counted(monkeypatch) -> list[str]:
    """The names of the columns whose text is checked, one entry per check."""
    checked: list[str] = []
    original = _checks._check_text_column

    def check(frame, column, transformer, **kwargs):
        checked.append(column)
        return original(frame, column, transformer, **kwargs)

    for module in ("pyterrier_rag_axioms.frames._checks", "pyterrier_rag_axioms.frames.contract"):
        monkeypatch.setattr(f"{module}._check_text_column", check)
    return checked


def test_a_pipeline_validates_the_users_frame_once(counted):
    frame = two_systems()
    frame["context"] = [" One passage. ", ["First passage.", "  ", {"docno": "d", "text": "Second passage."}]]
    ranking = (pra.COH1() >> pra.CONS2() >> pra.KwikSort(pra.MajorityVote("COH1", "CONS2")))(frame)
    assert counted == ["query", "response"]  # the response frame, by COH1; not again by CONS2 or KwikSort
    assert ranking["context"].tolist() in (
        [(" One passage. ",), ("First passage.", "Second passage.")],
        [("First passage.", "Second passage."), (" One passage. ",)],
    )


def test_every_frame_the_package_returns_holds_contexts_as_tuples():
    frame = two_systems().assign(context=["one passage", None])
    assert response_frame(frame)["context"].tolist() == [("one passage",), None]
    pairs = pra.CONS2()(frame)
    assert pairs["context_a"].tolist() == [("one passage",)] and pairs["context_b"].tolist() == [None]
    assert frame["context"].iloc[0] == "one passage"  # the caller's frame is not changed


def test_a_returned_frame_is_copied_not_changed_by_the_next_stage():
    pairs = pra.COH1()(two_systems())
    more = pra.CONS2()(pairs)
    assert "CONS2" in more.columns and "CONS2" not in pairs.columns


def test_a_hand_built_preference_frame_is_validated(counted):
    pairs = pd.DataFrame(preference_frame(two_systems()).to_dict("list"))  # built by hand: a new frame
    pairs["COH1"] = [1.0]
    counted.clear()
    pra.KwikSort("COH1")(pairs)
    assert counted == ["query", "response_a", "response_b"]


def test_a_returned_frame_changed_in_place_is_validated_again():
    pairs = preference_frame(two_systems())
    pairs.loc[0, "docno_b"] = "A"  # the same object, one cell changed
    with pytest.raises(FrameError, match="docno_a and docno_b are the same response 'A'"):
        pra.CORR1()(pairs)
    pairs = preference_frame(two_systems())
    pairs.loc[0, "response_a"] = pairs.loc[0, "response_a"][:-1] + "."  # an equal text, another object
    pra.CORR1()(pairs)
