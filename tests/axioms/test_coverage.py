"""The coverage axioms (COV1-COV7) with real spaCy and sentence-transformers models, on obvious cases."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import prefer, value

import pyterrier_rag_axioms as pra
from pyterrier_rag_axioms.axioms.coverage import is_non_answer, states


def test_cov1_prefers_more_distinct_aspects():
    rich = "Paris has the Louvre, the Eiffel Tower, many cafes and a large river."
    poor = "Paris is nice. Paris is nice."
    assert prefer(pra.COV1(), rich, poor) == 1.0
    assert prefer(pra.COV1(), poor, poor + " ") == 0.0


def test_cov2_prefers_less_redundant_aspects():
    diverse = "The volcano erupted. Bank interest rates rose. A violinist played Mozart."
    redundant = "The dog barked at the dogs. Another dog chased the puppy."
    assert prefer(pra.COV2(), diverse, redundant) == 1.0


def test_cov3_prefers_sentences_on_the_query_aspects():
    query = "What are the health benefits of green tea?"
    on_topic = "Green tea contains antioxidants. Drinking green tea may benefit heart health. It can improve focus."
    off_topic = "The stock market fell today. Football is popular in Brazil."
    assert prefer(pra.COV3(), on_topic, off_topic, query=query) == 1.0


def test_entities_as_aspects():
    axiom = pra.COV1(aspects="entities")
    with_entities = "Barack Obama met Angela Merkel in Berlin."
    without = "The man met the woman in the city."
    assert prefer(axiom, with_entities, without) == 1.0
    assert prefer(pra.COV1(), with_entities, without) == 0.0
    with pytest.raises(ValueError, match="aspects"):
        pra.COV1(aspects="keywords")


def test_cov4_prefers_sentences_that_do_not_repeat_each_other():
    varied = "Paris is the capital of France. The Seine flows through the city. Museums attract tourists."
    repetitive = "Paris is the capital of France. The capital of France is Paris. France has Paris as capital."
    assert value(pra.COV4(), varied) < value(pra.COV4(), repetitive)
    assert prefer(pra.COV4(), varied, repetitive) == 1.0
    assert np.isnan(value(pra.COV4(), "One sentence only."))


def test_cov5_prefers_responses_that_address_the_query_aspects():
    query = "What causes the blue color of the sky?"
    on_topic = "The blue color of the sky comes from the scattering of sunlight by air molecules."
    off_topic = "The Eiffel Tower was completed in 1889. Paris has many museums."
    assert prefer(pra.COV5(), on_topic, off_topic, query=query) == 1.0
    # the best sentence per aspect counts: adding a sentence never lowers the value (unlike a mean)
    # (up to float32 noise: a sentence encoded in another batch differs in the last digits)
    longer = value(pra.COV5(), on_topic + " Paris has many museums.", query=query)
    shorter = value(pra.COV5(), on_topic, query=query)
    assert longer >= shorter or longer == pytest.approx(shorter, abs=1e-6)


@pytest.mark.parametrize(
    "sentence",
    [
        "The provided context does not mention any actions taken by teenagers.",
        "The documents provided do not contain enough information to answer this.",
        "According to Doc 3, there is no specific mention of teens.",
        "According to the context, yes, your mood affects buying.",
        "Based on the provided references, here is an answer.",
        "Teen Vogue is not mentioned in the text.",
        "I'll do my best to answer the question.",
        "I was unable to find sufficient information on the bill.",
        "Unfortunately, I cannot answer that.",
        "Note: these sentences are relevant to the query.",
    ],
)
def test_a_sentence_that_declines_or_talks_about_the_sources_is_a_non_answer(sentence):
    assert is_non_answer(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "The NEA argues that the law does not provide adequate funding for schools [4].",
        "The Supreme Court ruled that the law did not violate the First Amendment.",
        "There is no evidence that vaccines cause autism.",
        "According to a 2020 survey, 52 percent of shoppers use retail therapy.",
        "Moods such as anger or anxiety can alter the buying decision process.",
        "Philosophers still debate the question of whether free will exists.",
    ],
)
def test_a_sentence_about_the_topic_is_an_answer(sentence):
    assert not is_non_answer(sentence)


def test_cov6_prefers_the_response_that_answers():
    answer = "Teens have started petitions against animal testing. Many joined campaigns by the Humane Society."
    refusal = "The provided context does not mention what teens have done. I cannot answer the question."
    assert value(pra.COV6(), answer) == 0.0
    assert value(pra.COV6(), refusal) == 1.0
    assert value(pra.COV6(), "According to Doc 2, teens started petitions. Many joined campaigns.") == 0.5
    assert prefer(pra.COV6(), answer, refusal) == 1.0
    assert np.isnan(value(pra.COV6(), ""))


def test_cov7_counts_aspects_of_on_topic_sentences_only():
    query = "Why is the sky blue?"
    on_topic = "The sky is blue because air molecules scatter blue sunlight. Scattering is strongest for short waves."
    off_topic = "The Eiffel Tower attracts many tourists. Paris has famous museums and long boulevards."
    assert value(pra.COV7(), on_topic, query=query) > value(pra.COV7(), off_topic, query=query)
    assert prefer(pra.COV7(), on_topic, off_topic, query=query) == 1.0
    # aspects of an off-topic sentence add far less than their number (COV1 counts each as 1)
    mixed = value(pra.COV7(), on_topic + " " + off_topic, query=query)
    assert mixed - value(pra.COV7(), on_topic, query=query) < 0.5 * (
        value(pra.COV1(), on_topic + " " + off_topic) - value(pra.COV1(), on_topic)
    )
    assert value(pra.COV7(), "", query=query) == 0.0  # a sum over no aspects


def test_an_aspect_is_stated_as_whole_words():
    assert states("the sky is blue", "the sky") and states("blue sky", "sky") and states("sky.", "sky")
    assert not states("the skyline is blue", "sky") and not states("blue_sky", "sky")
    assert states("the u.s. senate and the senate", "senate") and states("in the u.s.", "u.s.")
