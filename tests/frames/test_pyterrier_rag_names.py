"""pyterrier-rag's column names and extra columns survive axioms and rankers; warnings name the qids.

No pyterrier-rag needed: the frames here have the shape its readers give (``qid, query_0,
prompt, qanswer``), with a ``qcontext`` list per answer as ``MultiGenerator`` gives it.
"""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

from pyterrier_rag_axioms import CONS2, CORR1, CORR2, CORR3, COV1, KwikSort, MajorityVote, PreferenceCountReranker
from pyterrier_rag_axioms.pipelines import BestOfN

PASSAGES = [
    "The aurora borealis is caused by charged particles from the Sun colliding with gases in the upper atmosphere.",
    "Oxygen emits green and red light in auroras, while nitrogen produces blue and purple hues.",
]


@pytest.fixture
def answers() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "qid": ["q1", "q1", "q1", "q2", "q2"],
            "query_0": ["What causes the northern lights?"] * 3 + ["Why is the sky blue?"] * 2,
            "prompt": [f"prompt {i}" for i in range(5)],
            "qanswer": [
                "Charged particles from the Sun collide with gases in the upper atmosphere [0].",
                "Northern lights are pretty.",
                "Oxygen emits green and red light [1], and nitrogen emits blue and purple light [1].",
                "Blue light is scattered more than red light [0].",
                "The sky reflects the ocean.",
            ],
            "qcontext": [PASSAGES, PASSAGES[:1], PASSAGES, None, None],  # q2: no passages
        }
    )


RAG_COLUMNS = {"qanswer", "qcontext", "query_0", "prompt"}


def test_kwiksort_of_a_response_frame_keeps_the_names_and_columns(answers):
    ranking = KwikSort(MajorityVote(COV1(), CORR1()))(answers)
    assert RAG_COLUMNS <= set(ranking.columns)
    assert not {"response", "context", "query"} & set(ranking.columns)
    by_docno = ranking.set_index(["qid", "docno"])
    assert by_docno.loc[("q1", "2"), "prompt"] == "prompt 2"
    assert by_docno.loc[("q1", "1"), "qcontext"] == tuple(PASSAGES[:1])


def test_rankers_of_a_preference_frame_keep_the_names_and_columns(answers):
    preferences = (COV1() >> CORR1())(answers)
    assert {"prompt_a", "prompt_b"} <= set(preferences.columns)
    for ranker in (KwikSort("COV1"), PreferenceCountReranker(MajorityVote("COV1", "CORR1"))):
        ranking = ranker(preferences)
        assert RAG_COLUMNS <= set(ranking.columns), ranker
        assert not {"response", "context"} & set(ranking.columns)
        by_docno = ranking.set_index(["qid", "docno"])
        for position, row in answers.iterrows():
            docno = str(position if row["qid"] == "q1" else position - 3)
            assert by_docno.loc[(row["qid"], docno), "prompt"] == row["prompt"]
            assert by_docno.loc[(row["qid"], docno), "qanswer"] == row["qanswer"]


def test_empty_input_keeps_the_names(answers):
    ranking = KwikSort(COV1())(answers.iloc[:0])
    assert RAG_COLUMNS <= set(ranking.columns) and len(ranking) == 0
    ranking = KwikSort("COV1")((COV1())(answers).iloc[:0])
    assert {"qanswer", "prompt"} <= set(ranking.columns)


def test_a_chain_warns_once_naming_the_queries_with_one_response(answers):
    single = answers.iloc[[0, 3]]  # one answer for each of q1 and q2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        preferences = (COV1() >> CORR1())(single)
    messages = [str(w.message) for w in caught if "fewer than two responses" in str(w.message)]
    assert len(messages) == 1 and "2 of 2 queries" in messages[0] and "'q1', 'q2'" in messages[0]
    assert len(preferences) == 0
    with pytest.warns(UserWarning, match=r"1 of 2 queries have fewer than two responses.*\(qids 'q2'\)"):
        KwikSort(COV1())(answers.iloc[[0, 1, 3]])


def test_context_axioms_warn_once_naming_the_queries_without_context(answers):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        preferences = (CONS2() >> COV1())(answers)
    messages = [str(w.message) for w in caught if "read the retrieved context" in str(w.message)]
    assert len(messages) == 1 and "CONS2" in messages[0] and "(qids 'q2')" in messages[0]
    assert preferences.loc[preferences["qid"] == "q2", "CONS2"].tolist() == [0.0]
    with pytest.warns(UserWarning, match=r"CONS2 read the retrieved context.*qids 'q2'"):
        KwikSort(MajorityVote(CONS2(), COV1()))(answers)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        COV1()(answers)  # COV1 does not read the context: no warning
    for cited in (CORR2(), CORR3()):  # the citation axioms read the passages their markers point to
        with pytest.warns(UserWarning, match=rf"{cited.name} read the retrieved context.*qids 'q2'"):
            cited(answers)


def test_best_of_n_returns_one_qanswer_per_query(answers):
    ranking = KwikSort(MajorityVote(COV1(), CORR1()))(answers)
    best = BestOfN()(ranking)
    assert best["qid"].tolist() == ["q1", "q2"]
    assert list(best.columns) == ["qid", "query_0", "docno", "qanswer", "qcontext", "prompt"]
    assert best["qanswer"].tolist() == ranking.loc[ranking["rank"] == 0, "qanswer"].tolist()
    assert not {"rank", "score"} & set(best.columns)
    # our own names become pyterrier-rag's: one answer per query, as its measures read it
    ours = ranking.rename(columns={"qanswer": "response", "qcontext": "context"})
    assert BestOfN()(ours)["qanswer"].tolist() == best["qanswer"].tolist()
    # without rank, the highest score wins; ties keep the input order
    scored = ours.drop(columns=["rank"]).iloc[::-1]
    assert BestOfN()(scored)["qanswer"].tolist() == list(reversed(best["qanswer"].tolist()))
    assert len(BestOfN()(ranking.iloc[:0])) == 0


def test_feature_values_keep_the_names(answers):
    values = CORR1().values(answers)
    assert RAG_COLUMNS <= set(values.columns) and "CORR1_value" in values.columns
    assert not {"response", "context", "query"} & set(values.columns)


def test_errors_name_the_callers_own_columns(answers):
    import pyterrier as pt

    with pytest.raises(TypeError, match=r"row 1: column 'qanswer' must hold text, not a missing value"):
        COV1()(answers.assign(qanswer=[answers["qanswer"][0], None, *answers["qanswer"][2:]]))
    with pytest.raises(TypeError, match=r"row 0: column 'qcontext' \(qid 'q1'\): context passage 0 must be a string"):
        CONS2()(answers.assign(qcontext=[[1]] * 5))
    renamed = answers.rename(columns={"qanswer": "answer"})
    for transformer in (COV1(), KwikSort(COV1())):
        with pytest.raises(pt.validate.InputValidationError) as raised:
            transformer(renamed)
        assert "'query_0', 'prompt', 'answer', 'qcontext'" in str(raised.value)  # not our renamed columns
        assert "'qanswer' for 'response'" in str(raised.value)
        assert ["response"] in [mode.missing_columns for mode in raised.value.modes]  # query_0 stands for query


def test_best_of_n_gives_its_columns_in_one_order_empty_or_not(answers):
    import pyterrier as pt

    ranking = KwikSort(COV1())(answers)
    ranking = ranking[[c for c in ranking.columns if c != "qcontext"] + ["qcontext"]]  # prompt before qcontext
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        chosen = BestOfN()(ranking)
    assert pt.inspect.transformer_outputs(BestOfN(), list(ranking.columns)) == list(chosen.columns)
    assert list(chosen.columns[:5]) == ["qid", "query_0", "docno", "qanswer", "qcontext"]


def test_rankings_of_responses_and_of_pairs_give_their_columns_in_one_order(answers):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from_responses = KwikSort(COV1())(answers)
        from_pairs = KwikSort("COV1")(COV1()(answers))
    assert list(from_responses.columns) == list(from_pairs.columns)
    assert list(from_responses.columns[:7]) == ["qid", "query_0", "docno", "qanswer", "score", "rank", "qcontext"]
