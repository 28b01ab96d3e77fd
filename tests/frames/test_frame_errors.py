"""One request, one response per docno: bad ids, two query texts for one qid, one docno with two
texts and self-pairs are errors that name the row."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import OCEAN, SKY, two_systems

import pyterrier_rag_axioms as pra
from pyterrier_rag_axioms.frames import FrameError, preference_frame


def test_two_query_texts_for_one_qid_is_an_error():
    frame = two_systems().assign(query=["Why is the sky blue?", "Why is the sea salty?"])
    with pytest.raises(FrameError, match=r"row 1: qid '1' has two query texts: 'Why is the sky blue\?' and "
                       r"'Why is the sea salty\?'.*\(first in row 0\)"):
        pra.COV3()(frame)
    with pytest.raises(ValueError, match="qid '1' has two query texts"):
        pra.CORR1().values(frame)
    pairs = preference_frame(pd.concat([two_systems(), two_systems().assign(docno=["C", "D"])]))
    pairs.loc[3, "query"] = "another question"
    with pytest.raises(FrameError, match="row 3: qid '1' has two query texts: 'q' and 'another question'.*row 0"):
        pra.CORR1()(pairs)


def test_one_docno_with_two_texts_in_a_preference_frame_is_an_error():
    pairs = preference_frame(pd.concat([two_systems(), two_systems().assign(docno=["C", "D"])]))
    pairs.loc[pairs["docno_b"] == "B", "response_b"] = "A different text for B."
    with pytest.raises(FrameError, match=r"docno 'B' of qid '1' has two response texts: 'The ocean is deep"):
        pra.CORR1()(pairs)
    pairs = preference_frame(two_systems())
    extra = pairs.assign(docno_a="B", docno_b="C", response_a=OCEAN)
    extra["context_a"] = pd.Series([["Another passage."]], dtype=object)
    with pytest.raises(FrameError, match="docno 'B' of qid '1' has two contexts"):
        pra.CONS2()(pd.concat([pairs, extra], ignore_index=True))


def test_a_pair_of_a_response_with_itself_is_an_error():
    pairs = preference_frame(two_systems()).assign(docno_b="A", response_b=SKY)
    with pytest.raises(FrameError, match="docno_a and docno_b are the same response 'A'"):
        pra.CORR1()(pairs)


@pytest.mark.parametrize("missing", [None, np.nan, pd.NA, ""])
@pytest.mark.parametrize("column", ["qid", "docno"])
def test_missing_ids_are_errors_naming_the_row(column, missing):
    frame = two_systems().astype({column: object})
    frame.loc[1, column] = missing
    with pytest.raises(FrameError, match=rf"row 1: {column} is (missing|empty)"):
        pra.CORR1()(frame)


def test_missing_ids_in_a_preference_frame_are_errors_naming_the_row():
    pairs = preference_frame(two_systems()).astype({"docno_b": object})
    pairs.loc[0, "docno_b"] = None
    with pytest.raises(FrameError, match=r"row 0: docno_b is missing \(None\)"):
        pra.CORR1()(pairs)
