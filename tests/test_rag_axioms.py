"""The eleven RAG axioms with real spaCy and sentence-transformers models, on obvious cases."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import prefer

import pyterrier_rag_axioms as pra
from pyterrier_rag_axioms import RAG_AXIOMS
from pyterrier_rag_axioms.tools.embeddings.similarity import SentenceSimilarity
from pyterrier_rag_axioms.tools.text import TextAnalyzer

OFFLINE_AXIOMS = [name for name in RAG_AXIOMS if name != "CLAR1"]


def test_coh1_prefers_uniform_word_lengths():
    uniform = "The cat sat on the mat. The dog ran to the car. The bird saw the sun."
    mixed = "Go to it. Extraordinarily sophisticated international negotiations necessitate considerable preparation."
    assert prefer(pra.COH1(), uniform, mixed) == 1.0
    assert prefer(pra.COH1(), mixed, uniform) == -1.0


def test_coh2_prefers_subjects_close_to_their_verbs():
    close = "The committee approved the budget. The minister signed the law."
    far = (
        "The committee, which after many long and heated debates over several weeks finally met, approved the budget."
    )
    assert prefer(pra.COH2(), close, far) == 1.0


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


def test_cons1_prefers_sentences_on_the_context_aspects_not_the_query():
    query = "Tell me something."
    context = ["Marie Curie discovered polonium and radium.", "She won the Nobel Prize in physics and chemistry."]
    grounded = "Marie Curie discovered radium. She won Nobel Prizes in physics and chemistry. Polonium was her find."
    ungrounded = "Tell me something. Something is here."
    assert prefer(pra.CONS1(), grounded, ungrounded, query=query, context=context) == 1.0
    # the same responses without any context: no preference
    assert prefer(pra.CONS1(), grounded, ungrounded, query=query) == 0.0


def test_cons2_prefers_overlap_with_the_context():
    context = ["The Eiffel Tower was completed in 1889 for the World's Fair.", "It is 330 metres tall."]
    copying = "The Eiffel Tower was completed in 1889 for the World's Fair. It is 330 metres tall."
    unrelated = "Bananas are rich in potassium and grow in the tropics."
    assert prefer(pra.CONS2(), copying, unrelated, context=context) == 1.0
    assert prefer(pra.CONS2(), copying, unrelated, context=None) == 0.0
    assert prefer(pra.CONS2(), copying, unrelated, context="It is 330 metres tall.") == 1.0


def test_cons3_penalises_entities_both_negated_and_not():
    consistent = "Barack Obama visited Germany. Angela Merkel met him in Berlin."
    contradictory = "Barack Obama visited Germany. Barack Obama did not visit Germany."
    assert prefer(pra.CONS3(), consistent, contradictory) == 1.0
    frame = pd.DataFrame({"qid": ["q", "q"], "query": ["x", "x"], "response": [consistent, contradictory]})
    values = pra.CONS3().values(frame)["CONS3_value"].tolist()
    assert values[0] == 0.0 and values[1] > 0.0


@pytest.mark.parametrize("citation", ["[1]", "[0,1,2]", "[1-3]", "[1][2]", "[1, 2]"])
def test_corr1_counts_every_citation_format(citation):
    cited = f"Water boils at 100 degrees {citation}. It freezes at zero degrees {citation}."
    uncited = f"Water boils at 100 degrees {citation}. It freezes at zero degrees."
    assert prefer(pra.CORR1(), cited, uncited) == 1.0
    assert prefer(pra.CORR1(), uncited, cited) == -1.0


def test_citation_only_sentences_join_the_previous_sentence():
    analysis = TextAnalyzer().analyse(["Water boils at 100 degrees [1]. It freezes [2][3]. Ice floats [0, 1]."])[0]
    assert analysis.sentence_texts == ["Water boils at 100 degrees [1].", "It freezes [2][3].", "Ice floats [0, 1]."]
    values = pra.CORR1().values(pd.DataFrame({"qid": ["q"], "query": ["x"], "response": [analysis.doc.text]}))
    assert values["CORR1_value"].iloc[0] == 1.0
    exclaiming = TextAnalyzer().analyse(["Boiling water is hot [0]! Is ice cold [1]? It is."])[0]
    assert exclaiming.sentence_texts == ["Boiling water is hot [0]!", "Is ice cold [1]?", "It is."]


def test_clar2_prefers_easier_text_and_can_reproduce_the_paper():
    easy = "The cat sat. The dog ran. We had fun."
    hard = (
        "Notwithstanding considerable institutional heterogeneity, comprehensive intergovernmental "
        "coordination remains."
    )
    assert prefer(pra.CLAR2(), easy, hard) == 1.0
    assert prefer(pra.CLAR2(paper_direction=True), easy, hard) == -1.0


def test_flesch_reading_ease_follows_the_formula():
    from pyterrier_rag_axioms.tools.readability import flesch_reading_ease, syllable_count

    analysis = TextAnalyzer().analyse(["The cat sat on the mat."])[0]
    words = ["The", "cat", "sat", "on", "the", "mat"]
    syllables = sum(syllable_count(word) for word in words)
    assert syllables == 6
    assert flesch_reading_ease(analysis) == pytest.approx(206.835 - 1.015 * 6 - 84.6 * syllables / 6)


def test_nan_values_give_no_preference():
    # no words at all: COH1, CORR1 and CLAR2 cannot be computed
    for axiom in (pra.COH1(), pra.CORR1(), pra.CLAR2(), pra.COV2(), pra.CONS3()):
        assert prefer(axiom, "", "The cat sat on the mat [1].") == 0.0, axiom


def test_margin_turns_small_differences_into_ties():
    one_of_two = "Water boils at 100 degrees [1]. It freezes at zero degrees."
    two_of_three = "Water boils [1]. Ice melts [2]. It is wet."
    assert prefer(pra.CORR1(margin_fraction=0.0), two_of_three, one_of_two) == 1.0
    assert prefer(pra.CORR1(margin_fraction=0.5), two_of_three, one_of_two) == 0.0


@pytest.mark.parametrize(
    ("name", "margin"),
    [("COH1", 0.0), ("COH2", 0.1), ("COV1", 0.0), ("COV2", 0.2), ("COV3", 0.5), ("CONS1", 0.5), ("CONS2", 0.1),
     ("CONS3", 0.2), ("CORR1", 0.1), ("CLAR1", 0.1), ("CLAR2", 0.0)],
)
def test_documented_default_margins(name, margin):
    assert RAG_AXIOMS[name]().margin_fraction == margin


def test_constructors_are_keyword_only():
    with pytest.raises(TypeError):
        pra.COV1(0.5)


def test_entities_as_aspects():
    axiom = pra.COV1(aspects="entities")
    with_entities = "Barack Obama met Angela Merkel in Berlin."
    without = "The man met the woman in the city."
    assert prefer(axiom, with_entities, without) == 1.0
    assert prefer(pra.COV1(), with_entities, without) == 0.0
    with pytest.raises(ValueError, match="aspects"):
        pra.COV1(aspects="keywords")


def test_feature_values_are_exposed(sample_responses):
    values = pra.CORR1().values(sample_responses)
    assert len(values) == len(sample_responses)
    assert values.set_index("docno").loc["q1-r1", "CORR1_value"] == pytest.approx(1.0)
    assert values.set_index("docno").loc["q1-r3", "CORR1_value"] == pytest.approx(0.0)


def test_one_chain_analyses_each_distinct_text_once(sample_responses):
    analyzer = TextAnalyzer()
    similarity = SentenceSimilarity()
    pipe_calls: list[int] = []
    nlp = analyzer.nlp
    original_pipe = nlp.pipe

    def counting_pipe(texts, **kwargs):
        texts = list(texts)
        pipe_calls.append(len(texts))
        return original_pipe(texts, **kwargs)

    nlp.pipe = counting_pipe
    tools = {"text_analyzer": analyzer}
    aspect_tools = {**tools, "sentence_similarity": similarity}
    chain = (
        pra.COH1(**tools) >> pra.COH2(**tools) >> pra.COV1(**aspect_tools) >> pra.COV2(**aspect_tools)
        >> pra.COV3(**aspect_tools) >> pra.CONS1(**aspect_tools) >> pra.CONS2(**tools) >> pra.CONS3(**tools)
        >> pra.CORR1(**tools) >> pra.CLAR2(**tools)
    )
    out = chain(sample_responses)
    assert len(out) == 8 * 6
    assert list(out.columns[-10:]) == OFFLINE_AXIOMS
    passages = {p for context in sample_responses["context"] for p in context}
    distinct = set(sample_responses["response"]) | set(sample_responses["query"]) | passages
    assert len(analyzer) == len(distinct)
    assert sum(pipe_calls) == len(distinct)  # no text was parsed twice
    encoded = len(similarity)
    chain(sample_responses)
    assert sum(pipe_calls) == len(distinct) and len(similarity) == encoded  # a rerun parses and encodes nothing


def test_response_frame_and_preference_frame_give_the_same_preferences(sample_responses):
    axiom = pra.COV3()
    from_responses = axiom(sample_responses)
    from_pairs = axiom(from_responses.drop(columns=["COV3"]).iloc[::-1])
    merged = from_responses.merge(from_pairs, on=["qid", "docno_a", "docno_b"], suffixes=("", "_again"))
    np.testing.assert_array_equal(merged["COV3"], merged["COV3_again"])
