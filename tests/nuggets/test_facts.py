"""Atomic facts (real spaCy): each rule of the splitter on hand-made texts, spans, determinism, and TREC's form."""

from __future__ import annotations

import pytest

from pyterrier_rag_axioms.nuggets.facts import (
    AtomicFact,
    atomic_facts,
    atomic_facts_of,
    in_trec_form,
    trec_form_problems,
)


def texts(text: str, **kwargs) -> list[str]:
    return [fact.text for fact in atomic_facts(text, **kwargs)]


def test_coordinated_clauses_give_one_fact_each_with_the_shared_subject():
    assert texts("The Eiffel Tower was completed in 1889 and is 330 metres tall.") == [
        "The Eiffel Tower was completed in 1889.",
        "The Eiffel Tower is 330 metres tall.",
    ]


def test_an_enumeration_gives_one_fact_per_item():
    assert texts("Exercise reduces stress, lowers blood pressure, and strengthens the heart.") == [
        "Exercise reduces stress.",
        "Exercise lowers blood pressure.",
        "Exercise strengthens the heart.",
    ]
    assert texts("Baking soda is used for cleaning, deodorizing, and baking.") == [
        "Baking soda is used for cleaning.",
        "Baking soda is used for deodorizing.",
        "Baking soda is used for baking.",
    ]


def test_asides_pairs_and_negated_lists():
    assert texts("Congress is revising the Toxic Substances Control Act, which regulates industrial chemicals.") == [
        "Congress is revising the Toxic Substances Control Act.",
        "The Toxic Substances Control Act regulates industrial chemicals.",
    ]
    assert texts("PETA funds research on alternatives, demonstrating that other ways exist.") == [
        "PETA funds research on alternatives."
    ]
    pair = "Teens ask friends and family to boycott cosmetics."
    assert texts(pair) == [pair]
    assert texts("The drug is neither safe nor effective.") == ["The drug is neither safe nor effective."]
    assert texts("Please check the provided context for details about animal testing.") == []
    assert texts("Understanding mood can provide factual information about the query.") == []
    assert texts("Terraforming would make Mars more Earth-like.") == ["Terraforming would make Mars more Earth-like."]


def test_a_list_item_is_completed_by_its_lead_in():
    text = "Benefits of exercise include:\n- better sleep\n- lower stress levels\n- Exercise strengthens the heart."
    assert texts(text) == [
        "Benefits of exercise include better sleep.",
        "Benefits of exercise include lower stress levels.",
        "Exercise strengthens the heart.",
    ]


def test_hedges_attributions_citations_source_notes_and_headings_come_off():
    assert texts("Studies suggest that regular exercise improves sleep quality [1].") == [
        "Regular exercise improves sleep quality."
    ]
    assert texts("According to experts, sunlight is scattered by air molecules [0, 2].") == [
        "Sunlight is scattered by air molecules."
    ]
    assert texts("Green tea contains catechins (Documents 1, 5).") == ["Green tea contains catechins."]
    assert texts("## Other Uses\nOther Uses: **Baking soda** softens water.") == ["Baking soda softens water."]
    assert texts("Some research has shown.") == []
    assert texts("However, it is important to note that the tower is tall [0,1].") == ["The tower is tall."]
    assert texts("- **Studies suggest that** regular exercise lowers blood pressure [2]") == [
        "Regular exercise lowers blood pressure."
    ]


def test_a_leading_pronoun_takes_the_subject_before_or_the_fact_is_dropped():
    text = "The Eiffel Tower stands in Paris. Its iron lattice weighs 7,300 tonnes. It was designed by Eiffel's firm."
    assert texts(text) == [
        "The Eiffel Tower stands in Paris.",
        "The Eiffel Tower's iron lattice weighs 7,300 tonnes.",
        "The Eiffel Tower was designed by Eiffel's firm.",
    ]
    assert texts("It was designed by Eiffel's firm. This made it famous.") == []


def test_what_only_restates_the_query_is_dropped():
    query = "Does mood affect buying things?"
    assert texts("Yes, your mood does have a significant effect on buying things.", query=query) == []
    assert texts("Why the daytime sky looks blue.", query="why is the daytime sky blue") == []
    assert texts("Rayleigh scattering makes the daytime sky blue.", query="why is the daytime sky blue") == [
        "Rayleigh scattering makes the daytime sky blue."
    ]


def test_clauses_joined_by_a_colon_are_parsed_apart():
    assert texts("The sky looks blue because of Rayleigh scattering: blue light scatters more than red light.") == [
        "The sky looks blue because of Rayleigh scattering.",
        "Blue light scatters more than red light.",
    ]


def test_spans_point_into_the_text_and_the_batch_agrees_with_single_texts():
    text = "Intro words here. Studies suggest that regular exercise improves sleep quality [1]."
    facts = atomic_facts(text)
    fact = facts[-1]
    assert isinstance(fact, AtomicFact)
    assert text[fact.start : fact.end] == "regular exercise improves sleep quality"
    assert fact.sentence == "Studies suggest that regular exercise improves sleep quality."
    other = "Green tea contains catechins and it tastes bitter."
    assert atomic_facts_of([text, other, text]) == [facts, atomic_facts(other), facts]
    assert atomic_facts_of([]) == []
    assert atomic_facts("  ") == []


def test_a_text_that_is_no_string_is_refused():
    with pytest.raises(TypeError, match="text 1 is a int"):
        atomic_facts_of(["fine", 3])


@pytest.mark.parametrize(
    ("nugget", "problems"),
    [
        ("Poor treatment of workers", []),
        ("Rayleigh scattering makes the sky blue.", []),
        ("Green tea contains catechins [1].", ["debris"]),
        ("Green tea contains catechins [0, 2].", ["debris"]),
        ("Green tea contains catechins ( ).", ["debris"]),
        ("Green tea contains catechins (Documents 1, 5).", ["debris"]),
        ("Green tea contains catechins,.", ["debris"]),
        ("- Green tea contains catechins.", ["debris"]),
        ("Green tea contains (catechins.", ["debris"]),
        ('Green tea is "healthy.', ["debris"]),
        ("Other Uses: green tea contains catechins.", ["heading prefix"]),
        ("The sky is blue.", ["restates the query"]),
        (" ".join(f"word{number}" for number in range(26)), ["too long"]),
    ],
)
def test_trec_form(nugget, problems):
    assert trec_form_problems(nugget, "why is the sky blue") == problems
    assert in_trec_form(nugget, "why is the sky blue") == (not problems)


def test_coordinated_verbs_keep_their_infinitive_and_their_objects():
    # which verb "encourage" continues is unsure: kept whole, never "Teens can refuse encourage ..."
    assert texts("Teens can refuse to buy products and encourage their friends to do the same.") == [
        "Teens can refuse to buy products and encourage their friends to do the same."
    ]
    assert texts("Exercise helps to reduce stress and to improve sleep.") == [
        "Exercise helps to reduce stress.",
        "Exercise helps to improve sleep.",
    ]
    # a complement of the last noun completes the list: never "... influence a person's ability."
    assert texts("Moods like anxiety can influence a person's ability and desire to search for information.") == [
        "Moods like anxiety can influence a person's ability and desire to search for information."
    ]
    # a preposition whose object is the next verb's: never "People search for."
    assert texts("People search for or receive information online.") == [
        "People search for or receive information online."
    ]


def test_the_sample_answers_give_facts_that_read_well():
    moods = (
        "Moods like anger, anxiety, or contentment can influence a person's ability and desire to search for or "
        "receive information, or seek and evaluate alternatives."
    )
    teens = (
        "Teens can refuse to buy products from these companies and encourage their friends and family to do the "
        "same, sharing their boycott on social media to amplify their message."
    )
    facts = texts(moods) + texts(teens)
    assert "Moods like anxiety can influence a person's ability." not in facts
    assert not any("refuse encourage" in fact or fact.endswith(" ability.") for fact in facts), facts
    assert all(
        fact.endswith(" ability and desire to search for or receive information, or seek and evaluate alternatives.")
        for fact in texts(moods)
    )
    assert all("refuse to buy products from these companies and encourage" in fact for fact in texts(teens))


def test_a_lone_surrogate_is_read_as_a_replacement_and_left_out_of_the_fact():
    text = "Air molecules scatter blue light \ud800 more than red light."
    (fact,) = atomic_facts(text)
    assert fact.text == "Air molecules scatter blue light more than red light."
    assert text[fact.start : fact.end] == text[:-1]  # from the first word to the last
    assert atomic_facts("\udc80") == [] and atomic_facts("\ud83d\ude00") == []  # a pair of lone halves, too


def test_text_without_word_separators_gives_its_sentences():
    text = "天空是蓝色的，因为空气分子散射蓝光。瑞利散射使天空呈现蓝色。"
    facts = atomic_facts(text, query="为什么天空是蓝色的？")
    assert [fact.text for fact in facts] == ["天空是蓝色的，因为空气分子散射蓝光。", "瑞利散射使天空呈现蓝色。"]
    assert [text[fact.start : fact.end] for fact in facts] == [fact.text for fact in facts]
    assert texts("東京は日本の首都です") == ["東京は日本の首都です"]


def test_table_cells_and_emoji_are_no_part_of_a_fact():
    text = (
        "| Planet | Moons |\n|---|:---:|\n| Mars has two moons | Phobos and Deimos orbit Mars |\n\n"
        "Exercise lowers blood pressure 💪. 🌍🌍 Sunlight is scattered by air molecules 🌞. 👍🏽\n"
    )
    facts = atomic_facts(text)
    assert [fact.text for fact in facts] == [
        "Mars has two moons.",
        "Phobos and Deimos orbit Mars.",
        "Exercise lowers blood pressure.",
        "Sunlight is scattered by air molecules.",
    ]
    assert not any("|" in fact.text or "-" in fact.text for fact in facts)
    assert [text[fact.start : fact.end] for fact in facts[:2]] == ["Mars has two moons", "Phobos and Deimos orbit Mars"]
