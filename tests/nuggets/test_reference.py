"""Nuggets from reference answers, the graded score against them and the RefNuggets measure (real spaCy and
MiniLM, the shipped sample's reference answers)."""

from __future__ import annotations

import pandas as pd
import pyterrier as pt
import pytest
from conftest import PROJECT_ROOT

from pyterrier_rag_axioms.measures import RefNuggets
from pyterrier_rag_axioms.nuggets import load_nuggets, reference_nuggets, reference_score
from pyterrier_rag_axioms.nuggets.facts.splitting import atomic_facts

ANSWERS = PROJECT_ROOT / "data" / "sample" / "answers.jsonl"
AURORA = "What causes the northern lights?"
REFERENCE = ("Charged particles from the Sun collide with gases in Earth's upper atmosphere, and Earth's magnetic "
             "field guides them toward the poles.")


@pytest.fixture(scope="module")
def sample_answers() -> pd.DataFrame:
    return pd.read_json(ANSWERS, lines=True, dtype={"qid": str})


def test_reference_nuggets_are_the_atomic_facts_of_each_answer(sample_answers):
    nuggets = reference_nuggets(sample_answers)
    assert list(nuggets.columns) == ["qid", "query", "nugget_id", "nugget", "importance", "answer"]
    assert set(nuggets["qid"]) == set(sample_answers["qid"]) and (nuggets["importance"] == "vital").all()
    for qid, query, answer in zip(sample_answers["qid"], sample_answers["query"], sample_answers["gold_answer"]):
        facts = [fact.text for fact in atomic_facts(answer, query=query)] or [answer]
        topic = nuggets[nuggets["qid"] == qid]
        assert list(topic["nugget"]) == facts
        assert list(topic["nugget_id"]) == [f"0-{number}" for number in range(len(facts))]
    assert nuggets["qid"].value_counts().max() > 1  # some answer gives several facts
    loaded = load_nuggets(nuggets)  # a nugget frame the assigner reads
    assert list(loaded["nugget_id"]) == list(nuggets["nugget_id"])


def test_a_list_of_answers_and_short_answers():
    answers = pd.DataFrame({"qid": ["capital", "landing"], "gold_answer": [["Paris", "the City of Paris"], "1969"]})
    nuggets = reference_nuggets(answers)
    assert "query" not in nuggets.columns
    assert nuggets[nuggets["qid"] == "capital"]["answer"].tolist() == [0, 1]
    assert nuggets[nuggets["qid"] == "capital"]["nugget"].tolist()[0] == "Paris"
    assert nuggets[nuggets["qid"] == "landing"]["nugget"].tolist() == ["1969"]


def test_bad_reference_answers_are_named():
    with pytest.raises(ValueError, match=r"reference_nuggets: row 1 \(qid 'b'\): gold_answer must be a string"):
        reference_nuggets(pd.DataFrame({"qid": ["a", "b"], "gold_answer": ["Paris", 3]}))
    blank = reference_nuggets(pd.DataFrame({"qid": ["a", "b", "c"], "gold_answer": ["  ", None, "Paris"]}))
    assert blank["qid"].tolist() == ["c"]  # a blank or missing gold answer is no reference, as the model reads it
    with pytest.raises(pt.validate.InputValidationError, match="gold_answer"):
        reference_nuggets(pd.DataFrame({"qid": ["a"], "answer": ["Paris"]}))


def test_reference_score_is_graded_and_takes_the_best_answer():
    responses = pd.DataFrame({
        "qid": "q1", "query": AURORA, "docno": ["copy", "close", "vague", "off"],
        "response": [REFERENCE,
                     "The northern lights come from charged solar particles hitting gases high in the atmosphere.",
                     "Northern lights happen because of the Sun. They are pretty.",
                     "Paris has many museums, such as the Louvre."],
    })
    answers = pd.DataFrame({"qid": ["q1"], "query": [AURORA], "gold_answer": [[REFERENCE, "Solar wind."]]})
    scored = reference_score(responses, answers).set_index("docno")
    score = scored["reference_score"]
    assert score["copy"] > score["close"] > score["vague"] > score["off"]
    assert score.nunique() == 4
    assert scored.loc["copy", "rouge_l"] == pytest.approx(1.0)
    assert (scored["reference_score"] == scored["nugget_recall"] + scored["rouge_l"]).all()
    assert ((scored["nugget_recall"] >= 0) & (scored["nugget_recall"] <= 1)).all()


def test_ref_nuggets_measure_in_pt_experiment(sample_answers, sample_responses):
    topics = sample_responses[["qid", "query"]].drop_duplicates()

    def system(rank: int) -> pt.Transformer:
        answers = sample_responses.groupby("qid", sort=False).nth(rank)[["qid", "response"]]
        return pt.apply.generic(lambda frame: frame.merge(answers.rename(columns={"response": "qanswer"}), on="qid"))

    result = pt.Experiment([system(0), system(1)], topics, sample_answers[["qid", "gold_answer"]], [RefNuggets],
                           names=["first", "second"])
    assert list(result["name"]) == ["first", "second"]
    assert result["RefNuggets"].between(0, 2).all()
    assert result["RefNuggets"].iloc[0] > result["RefNuggets"].iloc[1]


def test_a_blank_gold_answer_is_no_reference_and_aborts_nothing(sample_answers, sample_responses):
    topics = sample_responses[["qid", "query"]].drop_duplicates()
    first = sample_responses.groupby("qid", sort=False).nth(0)[["qid", "response"]]
    system = pt.apply.generic(lambda frame: frame.merge(first.rename(columns={"response": "qanswer"}), on="qid"))
    blank_qid = sample_answers["qid"].iloc[0]
    blanked = sample_answers[["qid", "gold_answer"]].assign(
        gold_answer=["  " if qid == blank_qid else answer for qid, answer in zip(sample_answers["qid"],
                                                                                  sample_answers["gold_answer"])])
    per_query = pt.Experiment([system], topics, blanked, [RefNuggets], perquery=True).set_index("qid")["value"]
    whole = pt.Experiment([system], topics, sample_answers[["qid", "gold_answer"]], [RefNuggets], perquery=True)
    others = whole[whole["qid"] != blank_qid].set_index("qid")["value"]
    assert per_query.drop(blank_qid).to_dict() == pytest.approx(others.to_dict())
    assert per_query[blank_qid] == 0.0  # no value: ir_measures counts a query of the qrels without one as 0
    without = blanked[blanked["qid"] != blank_qid]  # no row at all: not scored, as a query without qrels
    mean = pt.Experiment([system], topics, without, [RefNuggets])["RefNuggets"].iloc[0]
    assert mean == pytest.approx(others.mean())
    responses = sample_responses[sample_responses["qid"].isin([blank_qid, sample_answers["qid"].iloc[1]])]
    scored = reference_score(responses, blanked)
    assert scored[scored["qid"] == blank_qid]["reference_score"].isna().all()
    assert scored[scored["qid"] != blank_qid]["reference_score"].notna().all()
    assert reference_score(responses, blanked[blanked["qid"] == blank_qid])["reference_score"].isna().all()
