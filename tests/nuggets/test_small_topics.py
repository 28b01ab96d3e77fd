"""NuggetExtractor on topics of 2, 4 and 44 answers: a fact that two answers state is a nugget in a small topic,
a topic without a shared fact says so in one line, its saved file loads back, and large topics keep their nuggets
(real spaCy and the static encoder; the 44 answers from the shared TREC 2024 RAG development data)."""

from __future__ import annotations

import json
import warnings

import pandas as pd
import pytest

from pyterrier_rag_axioms.judgments import load_nugget_assignments, nugget_scores
from pyterrier_rag_axioms.nuggets import NuggetAssigner, NuggetExtractor, load_nuggets
from pyterrier_rag_axioms.nuggets.extractor import NoNuggetsWarning
from pyterrier_rag_axioms.nuggets.review import save_nuggets

SKY = "Why is the sky blue?"
SCATTERING = {
    "a": "The sky is blue because air molecules scatter blue light.",
    "b": "Air molecules scatter blue light more than red light.",
    "c": "Blue light is scattered by air molecules more than other colours.",
    "d": "The sea looks blue too, and sunsets are red.",
}
PASSAGE = "Air molecules scatter blue light more than other colours, a process called Rayleigh scattering."
UNSHARED = {
    "x": "Air molecules scatter blue light.",
    "y": "The ocean reflects the colour of the sky.",
    "z": "Sunsets look red because of dust.",
}


def topic(qid: str, answers: dict[str, str], context: list[str] | None = None) -> pd.DataFrame:
    frame = pd.DataFrame({"qid": qid, "query": SKY, "docno": list(answers), "response": list(answers.values())})
    return frame.assign(context=[context] * len(frame))


def drawn(frame: pd.DataFrame) -> pd.DataFrame:
    with warnings.catch_warnings():
        warnings.simplefilter("error", NoNuggetsWarning)  # a topic with a shared fact warns of nothing
        return NuggetExtractor()(frame)


@pytest.mark.parametrize("context", [None, [PASSAGE]], ids=["answers", "with-passages"])
def test_four_answers_three_of_which_share_a_fact_give_that_nugget(context):
    nuggets = drawn(topic("sky", SCATTERING, context))
    assert len(nuggets) >= 1
    first = nuggets.iloc[0]
    assert "scatter" in first["nugget"] and "blue light" in first["nugget"]
    assert first["sources"] == ["a", "b", "c"] and first["support"] == 3 and first["importance"] == "vital"
    assert not nuggets["nugget"].str.contains("sunset|sea", case=False).any()  # what one answer says is none


def test_two_answers_that_state_one_fact_give_that_nugget():
    nuggets = drawn(
        topic("two", {"a": SCATTERING["b"], "b": "Blue light is scattered more by the molecules in the air."})
    )
    assert len(nuggets) == 1
    assert nuggets["support"].iloc[0] == 2 and nuggets["sources"].iloc[0] == ["a", "b"]
    assert len(nuggets["drawn_from"].iloc[0]) == 1  # the other answer is credited for it, not its source


def test_in_a_small_topic_a_statement_too_long_to_be_a_nugget_restates_one():
    answers = {
        "a": "The sky is blue because air molecules scatter blue light more than red light.",
        "b": "Air molecules scatter blue sunlight much more strongly than other colours, so the sky looks blue.",
        "c": "The ocean reflects the sky, which is why the sea looks blue.",
    }
    nuggets = drawn(topic("long", answers))
    assert nuggets["nugget"].tolist() == ["Air molecules scatter blue light more than red light."]
    assert nuggets["sources"].iloc[0] == ["a", "b"] and nuggets["drawn_from"].iloc[0] == ["a"]


def test_a_passage_needs_two_answers_that_state_it():
    one = topic("one", {**UNSHARED}, [PASSAGE])  # only x states the passage's fact
    with pytest.warns(NoNuggetsWarning):
        assert NuggetExtractor()(one).empty


def test_a_topic_without_a_shared_fact_says_so_in_one_line_naming_it():
    with pytest.warns(NoNuggetsWarning) as caught:
        nuggets = NuggetExtractor()(pd.concat([topic("lonely", UNSHARED), topic("sky", SCATTERING)]))
    assert list(nuggets["qid"].unique()) == ["sky"]
    (warning,) = caught
    assert str(warning.message) == (
        "NuggetExtractor: no two answers of topic 'lonely' (3 distinct answers) state one fact, so it has no nuggets"
    )
    with pytest.warns(NoNuggetsWarning, match=r"in 2 topics \('lonely', 'other'\), so they have no nuggets"):
        NuggetExtractor()(pd.concat([topic("lonely", UNSHARED), topic("other", UNSHARED)]))


def test_the_least_support_grows_with_the_topic_up_to_min_support():
    extractor = NuggetExtractor()
    assert [extractor.least_support(answers) for answers in (2, 4, 6, 7, 8, 44)] == [1, 1, 1, 2, 2, 2]
    assert NuggetExtractor(min_support=3).least_support(4) == 3  # given: as given


def test_a_file_with_topics_without_nuggets_loads_back_and_the_assigner_leaves_them_out(tmp_path):
    responses = pd.concat([topic("lonely", UNSHARED), topic("sky", SCATTERING)], ignore_index=True)
    with pytest.warns(NoNuggetsWarning):
        nuggets = NuggetExtractor()(responses)
    path = tmp_path / "nuggets.jsonl"
    save_nuggets(nuggets, path, topics={"lonely": SKY, "sky": SKY})
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [(line["qid"], line["query"], len(line["nuggets"]) > 0) for line in lines] == [
        ("lonely", SKY, False),
        ("sky", SKY, True),
    ]
    loaded = load_nuggets(path)
    assert set(loaded["qid"]) == {"sky"} and loaded.attrs["topics_without_nuggets"] == ["lonely"]
    with pytest.warns(UserWarning, match=r"NuggetAssigner: 1 topic of the responses \('lonely'\) has no nuggets"):
        assigned = NuggetAssigner(nuggets=path)(responses)
    assert set(assigned["qid"]) == {"sky"}
    assert set(nugget_scores(assigned)["docno"]) == set(SCATTERING)


def test_a_file_whose_topics_all_have_no_nuggets_loads_as_an_empty_frame(tmp_path):
    with pytest.warns(NoNuggetsWarning):
        nuggets = NuggetExtractor()(topic("lonely", UNSHARED))
    assert nuggets.empty
    path = tmp_path / "nuggets.jsonl"
    save_nuggets(nuggets, path, topics={"lonely": SKY})
    assert json.loads(path.read_text(encoding="utf-8")) == {"qid": "lonely", "query": SKY, "nuggets": []}
    loaded = load_nuggets(path)
    assert loaded.empty and list(loaded.columns) == ["qid", "nugget_id", "nugget", "importance"]
    assert loaded.attrs["topics_without_nuggets"] == ["lonely"]
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(ValueError, match=r"empty.jsonl:1: no topic and no nugget in the file"):
        load_nuggets(empty)


def test_a_large_topic_keeps_its_nuggets(shared_data):
    path = shared_data / "trec-rag-2024" / "nugget_assignment.dev.jsonl"
    if not path.is_file():
        pytest.skip(f"no development assignments at {path}")
    answers = load_nugget_assignments(path)[["qid", "query", "docno", "response"]]
    large = answers[answers["qid"] == sorted(answers["qid"].unique())[0]]
    assert len(large) == 44
    default = NuggetExtractor(processes=1)(large)
    pd.testing.assert_frame_equal(default, NuggetExtractor(min_support=2, processes=1)(large))
    assert len(default) >= 5 and (default["support"] >= 3).all()  # two other answers restate each


def test_a_topic_of_one_answer_among_others_has_no_nuggets_and_is_named():
    alone = topic("alone", {"a": SCATTERING["a"]})
    with pytest.warns(NoNuggetsWarning, match=r"topic 'alone' \(1 distinct answer\) state one fact"):
        nuggets = NuggetExtractor()(pd.concat([alone, topic("sky", SCATTERING)], ignore_index=True))
    assert set(nuggets["qid"]) == {"sky"}
    with pytest.raises(ValueError, match=r"NuggetExtractor: topic 'alone' has one answer"):
        NuggetExtractor()(alone)  # every topic one answer: the wrong frame, most likely
