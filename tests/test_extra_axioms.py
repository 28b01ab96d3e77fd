"""The axioms beyond the paper (LEN1, COH3, COH4, COV4, COV5, COV6, COV7, CORR2, CORR3, CORR4, CORR5) on obvious
cases."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyterrier as pt
import pytest
from conftest import prefer

import pyterrier_rag_axioms as pra
from pyterrier_rag_axioms import EXTRA_AXIOMS
from pyterrier_rag_axioms.axioms.correctness import REFERENCE_PATTERN
from pyterrier_rag_axioms.axioms.coverage import is_non_answer, states
from pyterrier_rag_axioms.tools.lexical import cited_numbers, content_words

PASSAGES = [
    "Rayleigh scattering of sunlight by air molecules makes the sky appear blue.",
    "The Eiffel Tower in Paris was completed in 1889 for the World's Fair.",
]


def value(axiom: pra.FeatureAxiom, text: str, *, query: str = "a question", context=None) -> float:
    frame = pd.DataFrame({"qid": ["q"], "query": [query], "docno": ["a"], "response": [text], "context": [context]})
    return float(axiom.values(frame)[f"{axiom.name}_value"].iloc[0])


def test_len1_prefers_the_longer_response_and_ignores_citation_markers():
    assert prefer(pra.LEN1(), "Paris is the capital of France and its largest city.", "Paris.") == 1.0
    assert value(pra.LEN1(), "Coffee helps [0,1,2]. It is tasty [3].") == 5.0
    assert prefer(pra.LEN1(), "one two three four five six seven eight nine ten", "one two three four five six "
                  "seven eight nine ten eleven") == 0.0  # within the 10 % margin


def test_corr2_prefers_citations_the_cited_passage_supports():
    supported = "The sky appears blue because air molecules scatter sunlight [0]."
    unsupported = "The sky appears blue because the ocean reflects it [1]."
    assert prefer(pra.CORR2(), supported, unsupported, context=PASSAGES) == 1.0
    assert value(pra.CORR2(), "The tower was completed in 1889 [1].", context=PASSAGES) == 1.0
    assert np.isnan(value(pra.CORR2(), "No citation here.", context=PASSAGES))
    assert np.isnan(value(pra.CORR2(), supported))  # no context


def test_corr3_prefers_citations_of_passages_that_exist():
    assert prefer(pra.CORR3(), "Blue sky [0]. Tower [1].", "Blue sky [0]. Tower [7].", context=PASSAGES) == 1.0
    assert value(pra.CORR3(), "Blue sky [0-3].", context=PASSAGES) == 0.5
    assert value(pra.CORR3(first_index=1), "Blue sky [1]. Tower [2].", context=PASSAGES) == 1.0
    assert np.isnan(value(pra.CORR3(), "No citations.", context=PASSAGES))
    with pytest.raises(ValueError, match="first_index"):
        pra.CORR3(first_index=-1)


@pytest.mark.parametrize(
    "reference",
    ["(see https://example.org/sky)", "(Source: NASA)", "[Source 2]", "[^1]", "\u00b9", "(Smith et al., 2020)",
     "[3]", "www.nasa.gov/sky"],
)
def test_corr4_recognises_references_in_other_formats(reference):
    assert REFERENCE_PATTERN.search(f"The sky is blue {reference}.")
    assert not REFERENCE_PATTERN.search("The sky is blue (mostly) since 2020 [citation needed].")


def test_corr4_prefers_more_sentences_with_a_reference():
    cited = "The sky is blue, see https://example.org/sky for details. It scatters light."
    assert value(pra.CORR4(), cited) == 0.5
    assert prefer(pra.CORR4(), cited, "The sky is blue. It scatters light.") == 1.0


def test_coh3_prefers_a_steady_tense():
    steady = "The tower stands in Paris. It attracts many visitors. It is made of iron."
    switching = "The tower stood in Paris. It attracts many visitors. It was made of iron."
    assert value(pra.COH3(), steady) == 0.0
    assert value(pra.COH3(), switching) == 1.0
    assert prefer(pra.COH3(), steady, switching) == 1.0
    assert np.isnan(value(pra.COH3(), "Paris."))


def test_coh4_prefers_explicit_connectives():
    connected = "Prices rose because demand grew. However, supply stayed flat. For example, oil was scarce."
    bare = "Prices rose. Demand grew. Supply stayed flat. Oil was scarce."
    assert value(pra.COH4(), connected) == 1.0
    assert value(pra.COH4(), bare) == 0.0
    assert prefer(pra.COH4(), connected, bare) == 1.0


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


def test_corr5_prefers_the_response_that_opens_with_the_answer():
    query = "Why is the sky blue?"
    direct = "The sky is blue because air molecules scatter blue sunlight more than red. Paris is in France."
    indirect = "Paris is in France. The sky is blue because air molecules scatter blue sunlight more than red."
    assert value(pra.CORR5(), direct, query=query) > value(pra.CORR5(), indirect, query=query) + 0.3
    assert prefer(pra.CORR5(), direct, indirect, query=query) == 1.0
    # only the opening counts: what follows it changes nothing
    assert value(pra.CORR5(), direct, query=query) == pytest.approx(
        value(pra.CORR5(), direct.split(". ")[0] + ".", query=query), abs=1e-6
    )
    assert np.isnan(value(pra.CORR5(), "", query=query))


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


def test_lexical_primitives():
    assert cited_numbers("A [0,2]. B [4-6]. C [1; 3].") == [0, 2, 4, 5, 6, 1, 3]
    assert content_words("The kidneys[10] of the patient, 15,000 cells") == ["kidneys", "patient", "15", "000", "cells"]


@pytest.mark.parametrize("name", list(EXTRA_AXIOMS))
def test_contract_names_inspect_and_antisymmetry(name, sample_responses):
    axiom = EXTRA_AXIOMS[name]()
    assert getattr(pra, type(axiom).__name__) is getattr(pra, name)
    assert type(axiom).__doc__ and "Intuition" in type(axiom).__doc__
    assert pt.inspect.transformer_outputs(axiom, ["qid", "query", "response"])[-1] == name
    frame = sample_responses[sample_responses["qid"].isin(["q1", "q6"])]
    forward = axiom(frame)
    swapped = forward.rename(
        columns={"docno_a": "docno_b", "docno_b": "docno_a", "response_a": "response_b", "response_b": "response_a"}
    ).drop(columns=[name])
    np.testing.assert_array_equal(axiom(swapped)[name].to_numpy(), -forward[name].to_numpy())
    assert set(forward[name].unique()) <= {-1.0, 0.0, 1.0}
    empty = axiom(frame.iloc[:0])
    assert len(empty) == 0 and name in empty.columns
