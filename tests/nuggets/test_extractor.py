"""NuggetExtractor: nuggets drawn from hand-made topics, order and split independence, no self-credit, the
nugget file's round trip and review table (real spaCy and MiniLM)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from pyterrier_rag_axioms import NuggetExtractor as TopLevelExtractor
from pyterrier_rag_axioms.declaration import replaced
from pyterrier_rag_axioms.judgments import nugget_scores
from pyterrier_rag_axioms.nuggets import EXTRACTED_COLUMNS, NuggetAssigner, NuggetExtractor, load_nuggets
from pyterrier_rag_axioms.nuggets.facts import in_trec_form
from pyterrier_rag_axioms.nuggets.review import review_table, save_nuggets

TOWER = "What should I know about the Eiffel Tower?"
PASSAGE = "The Eiffel Tower was completed in 1889 as the World's Fair entrance arch."
TOWER_ANSWERS = {
    "a": "The Eiffel Tower is 330 metres tall. Tickets can be bought online. "
    "The tower was finished in 1889 for the World's Fair.",
    "b": "Standing 330 metres tall, the Eiffel Tower dominates Paris [1]. The tower has a restaurant on its second "
    "level. The tower was completed in 1889 for the World's Fair.",
    "c": "The Eiffel Tower is about 330 metres high and it attracts nearly seven million visitors every year.",
    "d": "At 330 metres, the Eiffel Tower is the tallest structure in Paris. Its lifts were renewed in the 1980s.",
    "e": "Paris has many museums, such as the Louvre and the Musee d'Orsay.",
}
SKY = "why is the daytime sky blue"
TEA = "Is green tea good for you?"
TEA_ANSWERS = {
    "p": "Green tea contains antioxidants called catechins. Some people drink it before exercise.",
    "q": "Green tea is rich in catechins, which are antioxidants. It tastes slightly bitter.",
    "r": "Catechins, the antioxidants in green tea, may protect cells. Japanese green tea is often steamed.",
}


def topic(qid: str, query: str, answers: dict[str, str], context: list[str] | None = None) -> pd.DataFrame:
    frame = pd.DataFrame({"qid": qid, "query": query, "docno": list(answers), "response": list(answers.values())})
    return frame.assign(context=[context] * len(frame))


@pytest.fixture(scope="module")
def responses() -> pd.DataFrame:
    tower = topic("tower", TOWER, TOWER_ANSWERS, context=[PASSAGE])
    return pd.concat([tower, topic("tea", TEA, TEA_ANSWERS)], ignore_index=True)


@pytest.fixture(scope="module")
def extracted(responses) -> pd.DataFrame:
    return NuggetExtractor()(responses)


def nuggets_of(frame: pd.DataFrame, qid: str) -> pd.DataFrame:
    return frame[frame["qid"] == qid].reset_index(drop=True)


def test_output_is_a_nugget_frame_with_provenance(extracted):
    assert list(extracted.columns) == EXTRACTED_COLUMNS
    assert list(extracted["qid"].drop_duplicates()) == ["tea", "tower"]  # topics in order of qid
    assert set(extracted["importance"]) <= {"vital", "okay"}
    loaded = load_nuggets(extracted)
    assert list(loaded["nugget"]) == list(extracted["nugget"])
    assert list(loaded["drawn_from"]) == list(extracted["drawn_from"])


def test_what_most_answers_state_becomes_the_first_nugget(extracted):
    tower = nuggets_of(extracted, "tower")
    first = tower.iloc[0]
    assert "330" in first["nugget"] and first["importance"] == "vital"
    assert first["sources"] == ["a", "b", "c", "d"] and first["support"] == 4
    assert len(first["drawn_from"]) == 1 and first["drawn_from"][0] in first["sources"]
    assert first["passages"][0] in " ".join(TOWER_ANSWERS.values())
    # what one answer alone says is no nugget
    for alone in ("Tickets", "restaurant", "museums", "lifts", "bitter", "steamed"):
        assert not extracted["nugget"].str.contains(alone).any(), alone


def test_the_same_facts_in_twice_the_words_score_no_higher(responses, extracted):
    tower = responses[responses["qid"] == "tower"]
    doubled = tower.assign(docno=tower["docno"] + "-twice", response=tower["response"] + " " + tower["response"])
    assigned = NuggetAssigner(nuggets=extracted)(pd.concat([tower, doubled], ignore_index=True))
    scores = nugget_scores(assigned.assign(counted=True)).set_index("docno")["score"]
    for docno in tower["docno"]:
        assert scores[f"{docno}-twice"] <= scores[docno], docno


def test_an_answer_restating_the_question_is_no_nugget():
    answers = {
        docno: f"There are many things to know about the Eiffel Tower. {fact}"
        for docno, fact in zip("xyz", ["It is in Paris.", "Tickets are sold online.", "It has lifts."])
    }
    assert NuggetExtractor()(topic("tower", TOWER, answers)).empty


def test_what_the_passages_say_and_several_answers_repeat_becomes_a_nugget(extracted):
    nuggets = nuggets_of(extracted, "tower")
    from_passage = nuggets[nuggets["nugget"] == PASSAGE]
    assert len(from_passage) == 1
    assert from_passage["drawn_from"].iloc[0] == []  # the passage's words are no answer's own
    assert from_passage["sources"].iloc[0] == ["a", "b"]
    assert from_passage["support"].iloc[0] == 2
    without = NuggetExtractor()(topic("tower", TOWER, TOWER_ANSWERS))
    # without the passage, the two answers' own words: five answers are a small topic, where two that agree suffice
    built = without[without["nugget"].str.contains("1889")]
    assert list(built["sources"].iloc[0]) == ["a", "b"] and built["drawn_from"].iloc[0] in (["a"], ["b"])
    # in a larger topic, a fact needs two other answers: the same two answers among nine no longer suffice
    others = {f"x{n}": f"Paris has {n + 2} famous bridges over the Seine." for n in range(4)}
    larger = NuggetExtractor()(topic("tower", TOWER, {**TOWER_ANSWERS, **others}))
    assert not larger["nugget"].str.contains("1889").any()


def test_what_most_answers_state_becomes_a_nugget_on_a_topic_with_passages():
    answers = {
        "a": "The daytime sky is blue because sunlight is scattered by the molecules of the air. "
        "Blue light scatters more than red light.",
        "b": "Rayleigh scattering makes the sky blue: air molecules scatter short blue wavelengths of sunlight "
        "more strongly than long red ones.",
        "c": "Sunlight is scattered by air molecules, and blue light is scattered the most, so the sky looks blue [1].",
        "d": "The sky is blue. It is a nice colour for a sunny day.",
    }
    passage = (
        "Why the daytime sky looks blue. Sunlight reaching the atmosphere is scattered by gas molecules; shorter "
        "blue wavelengths are scattered more than longer red wavelengths (Rayleigh scattering)."
    )
    nuggets = NuggetExtractor()(topic("sky", SKY, answers, context=[passage]))
    assert nuggets["nugget"].str.contains("scatter").any()
    assert not nuggets["nugget"].str.contains("Why|looks blue").any()  # no nugget restates the question
    assert nuggets["nugget"].map(lambda text: in_trec_form(text, SKY)).all()


def test_the_nuggets_are_atomic_and_in_trec_form(extracted, responses):
    queries = dict(zip(responses["qid"], responses["query"]))
    for qid, nugget in zip(extracted["qid"], extracted["nugget"]):
        assert in_trec_form(nugget, queries[qid]), nugget
        assert len(nugget.split()) <= 15, nugget


def test_shuffled_rows_and_split_topics_give_the_same_nuggets(responses, extracted):
    shuffled = NuggetExtractor()(responses.sample(frac=1.0, random_state=7))
    pd.testing.assert_frame_equal(shuffled, extracted)
    split = pd.concat(
        [NuggetExtractor()(responses[responses["qid"] == qid]) for qid in ["tea", "tower"]], ignore_index=True
    )
    pd.testing.assert_frame_equal(split, extracted)


def test_extraction_is_deterministic(responses, extracted):
    again = NuggetExtractor()(responses.copy())
    pd.testing.assert_frame_equal(again, extracted)


def test_the_caller_frame_is_not_changed(responses):
    before = responses.copy()
    NuggetExtractor(max_nuggets=1)(responses)
    pd.testing.assert_frame_equal(responses, before)


def test_the_cap_and_the_support_floor_limit_the_nuggets(responses):
    capped = NuggetExtractor(max_nuggets=1)(responses)
    assert capped.groupby("qid").size().to_dict() == {"tea": 1, "tower": 1}
    assert NuggetExtractor(min_support=3)(responses)["qid"].tolist() == ["tower"]


def test_identical_answers_count_once():
    answers = {**TEA_ANSWERS, "p2": TEA_ANSWERS["p"]}
    nuggets = NuggetExtractor()(topic("tea", TEA, answers))
    first = nuggets.iloc[0]
    assert first["support"] == 3  # p and p2 are one voice
    assert {"p", "p2"} <= set(first["sources"])


def test_no_self_credit(responses, extracted):
    assigned = NuggetAssigner(nuggets=extracted)(responses)
    assert "counted" in assigned.columns
    own = assigned.apply(
        lambda row: (
            row["docno"] in extracted.set_index(["qid", "nugget_id"]).loc[(row["qid"], row["nugget_id"]), "drawn_from"]
        ),
        axis=1,
    )
    assert (assigned["counted"] == ~own).all() and own.any()
    scores = nugget_scores(assigned).set_index("docno")["score"]
    for docno, rows in assigned.groupby("docno"):
        counted = rows[rows["counted"]]
        expected = (counted["assignment"] == "support").mean() if len(counted) else 0.0  # none counted: 0
        assert scores[docno] == pytest.approx(expected)
    # without the provenance, the answer the nugget came from is credited for its own words
    plain = NuggetAssigner(nuggets=extracted[["qid", "nugget_id", "nugget", "importance"]])(responses)
    assert "counted" not in plain.columns


def test_one_answer_per_topic_is_refused():
    with pytest.raises(ValueError, match=r"NuggetExtractor: topic 'tea' has one answer"):
        NuggetExtractor()(topic("tea", TEA, {"p": TEA_ANSWERS["p"]}))


def test_an_empty_frame_gives_an_empty_nugget_frame():
    empty = NuggetExtractor()(pd.DataFrame(columns=["qid", "query", "docno", "response"]))
    assert empty.empty and list(empty.columns) == EXTRACTED_COLUMNS


@pytest.mark.parametrize("argument", [{"similarity": 1.5}, {"max_nuggets": 0}, {"min_support": True}])
def test_bad_parameters_are_refused(argument):
    with pytest.raises(ValueError, match=f"NuggetExtractor: {next(iter(argument))}"):
        NuggetExtractor(**argument)


def test_parameters_are_keyword_only_and_shown():
    with pytest.raises(TypeError):
        NuggetExtractor(0.7)  # type: ignore[misc]
    assert repr(NuggetExtractor(max_nuggets=5)) == "NuggetExtractor(max_nuggets=5)"
    extractor = NuggetExtractor(similarity=0.8, merge_similarity=0.9, encoder="all-MiniLM-L6-v2")
    again = eval(repr(extractor))
    assert repr(again) == repr(extractor) and again.encoder is extractor.encoder
    assert replaced(extractor, max_words=12).max_words == 12
    assert TopLevelExtractor is NuggetExtractor


def test_the_file_round_trip_and_a_persons_edits(tmp_path, extracted, responses):
    path = tmp_path / "nuggets.jsonl"
    save_nuggets(extracted, path)
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [line["qid"] for line in lines] == ["tea", "tower"]
    assert lines[1]["query"] == TOWER
    first = lines[1]["nuggets"][0]
    assert {"text", "importance", "nugget_id", "support", "sources", "drawn_from", "passages"} <= set(first)
    loaded = load_nuggets(path)
    pd.testing.assert_frame_equal(loaded, load_nuggets(extracted))
    # a person deletes a nugget, rewords one and makes a vital one okay
    lines[1]["nuggets"][0].update(text="The Eiffel Tower is 330 m tall.", importance="okay")
    assert len(lines[1]["nuggets"]) >= 2
    del lines[1]["nuggets"][-1]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    edited = load_nuggets(path)
    assert len(edited) == len(extracted) - 1
    tower = edited[edited["qid"] == "tower"].iloc[0]
    assert (tower["nugget"], tower["importance"]) == ("The Eiffel Tower is 330 m tall.", "okay")
    assigned = NuggetAssigner(nuggets=path)(responses)
    assert assigned["counted"].dtype == bool and not assigned["counted"].all()


def test_the_review_table_shows_support_and_sources(extracted):
    table = review_table(extracted, "tower")
    assert list(table.columns) == ["nugget_id", "nugget", "importance", "support", "source"]
    assert table["support"].iloc[0] == 4
    assert "330" in table["source"].iloc[0] and table["source"].iloc[0].count("\n") == 1
    with pytest.raises(ValueError, match="review_table: no nuggets for qid 'moon'"):
        review_table(extracted, "moon")
