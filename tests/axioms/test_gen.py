"""The 21 adapted retrieval axioms (GEN_*) with real spaCy and sentence-transformers models."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyterrier as pt
import pytest
from conftest import prefer

import pyterrier_rag_axioms as pra
from pyterrier_rag_axioms import GEN_AXIOMS
from pyterrier_rag_axioms.axioms.gen import (
    LENGTH_MARGIN_FRACTION,
    GenerativeRetrievalAxiom,
    compare,
    similar_lengths,
)
from pyterrier_rag_axioms.tools.embeddings import SentenceSimilarity
from pyterrier_rag_axioms.tools.term_similarity import EmbeddingTermSimilarity, FunctionTermSimilarity
from pyterrier_rag_axioms.tools.terms import TermExtractor, term_extractor
from pyterrier_rag_axioms.tools.text import TextAnalyzer

LENGTH_CONSTRAINED = [name for name, axiom in GEN_AXIOMS.items() if axiom.length_precondition]


def both_ways(axiom: pt.Transformer, better: str, worse: str, *, query: str) -> tuple[float, float]:
    """The preferences for (better, worse) and for (worse, better)."""
    return prefer(axiom, better, worse, query=query), prefer(axiom, worse, better, query=query)


def length(text: str) -> int:
    return len(term_extractor().terms(text))


# --- term frequency and length normalisation ---------------------------------------------------


def test_tfc1_prefers_more_query_term_occurrences_at_similar_length():
    query = "solar wind"
    more = "Solar wind and more solar wind reach Earth's magnetic field."
    fewer = "Charged particles from the Sun reach Earth's magnetic field quickly."
    assert abs(length(more) - length(fewer)) <= LENGTH_MARGIN_FRACTION * max(length(more), length(fewer))
    assert both_ways(pra.GEN_TFC1(), more, fewer, query=query) == (1.0, -1.0)


def test_tfc1_length_precondition_blocks_responses_of_different_length():
    query = "solar wind"
    short = "Solar wind and solar wind."
    long = short + " Charged particles from the Sun reach the magnetic field of Earth every day."
    assert length(long) > 1.1 * length(short)
    assert both_ways(pra.GEN_TFC1(), long, short, query=query) == (0.0, 0.0)


def test_tfc1_margin_ties_close_counts():
    query = "aurora"
    three = "Aurora aurora aurora glows over northern Norway in cold winter nights."
    four = "Aurora aurora aurora aurora glows over northern Norway in winter nights."
    assert length(three) == length(four)
    assert both_ways(pra.GEN_TFC1(), four, three, query=query) == (1.0, -1.0)  # |4 - 3| > 0.1 * 4
    assert both_ways(pra.GEN_TFC1(margin_fraction=0.3), four, three, query=query) == (0.0, 0.0)  # |4 - 3| <= 0.3 * 4


def test_lnc1_prefers_the_shorter_response_with_the_same_query_terms():
    query = "solar wind"
    short = "Solar wind reaches Earth."
    long = "Solar wind reaches Earth after travelling through interplanetary space for days."
    assert both_ways(pra.GEN_LNC1(), short, long, query=query) == (1.0, -1.0)
    different = "Solar wind, solar wind, solar wind reaches Earth after travelling through space."
    assert prefer(pra.GEN_LNC1(), short, different, query=query) == 0.0  # query-term frequencies differ


def test_tf_lnc_prefers_the_response_that_only_adds_query_term_occurrences():
    query = "solar wind"
    base = "Solar wind hits the magnetic field."
    more = "Solar wind hits the solar magnetic field."
    assert length(more) == length(base) + 1
    assert both_ways(pra.GEN_TF_LNC(), more, base, query=query) == (1.0, -1.0)
    other = "Solar wind hits the strong magnetic field."  # longer by a non-query term instead
    assert prefer(pra.GEN_TF_LNC(), more, other, query=query) == 0.0


# --- query aspects -----------------------------------------------------------------------------


def test_reg_prefers_the_least_redundant_query_term_and_anti_reg_the_most_redundant():
    query = "cars automobiles bananas"
    more_banana = "Banana banana car automobile banana."
    more_car = "Car automobile car automobile banana."
    assert length(more_banana) == length(more_car) == 5
    assert both_ways(pra.GEN_REG(), more_banana, more_car, query=query) == (1.0, -1.0)
    assert both_ways(pra.GEN_ANTI_REG(), more_car, more_banana, query=query) == (1.0, -1.0)


def test_and_prefers_responses_with_all_query_terms_and_len_and_needs_similar_lengths():
    query = "solar wind aurora"
    all_terms = "The solar wind causes the aurora."
    some_terms = "The solar flare causes the glow."
    assert both_ways(pra.GEN_AND(), all_terms, some_terms, query=query) == (1.0, -1.0)
    assert both_ways(pra.GEN_LEN_AND(), all_terms, some_terms, query=query) == (1.0, -1.0)
    long_some = some_terms + " It happens every night in the far north during the long polar winter."
    assert prefer(pra.GEN_AND(), all_terms, long_some, query=query) == 1.0
    assert prefer(pra.GEN_LEN_AND(), all_terms, long_some, query=query) == 0.0


def test_m_and_counts_distinct_query_terms():
    query = "solar wind aurora"
    two = "The solar wind glows."
    one = "The solar flare glows."
    assert both_ways(pra.GEN_M_AND(), two, one, query=query) == (1.0, -1.0)
    assert prefer(pra.GEN_M_AND(), "Solar solar solar flare.", one, query=query) == 0.0  # repetitions do not count


def test_div_prefers_less_vocabulary_overlap_and_len_div_needs_similar_lengths():
    query = "solar wind"
    diverse = "Solar particles stream outward and light up polar skies."
    echo = "Solar wind is solar wind and wind from solar activity."
    assert both_ways(pra.GEN_DIV(), diverse, echo, query=query) == (1.0, -1.0)
    values = pra.GEN_DIV().values(
        pd.DataFrame({"qid": ["q"], "query": [query], "response": ["Solar wind blows."]})
    )["GEN_DIV_value"]
    assert values.iloc[0] == pytest.approx(2 / 3)  # {solar, wind} against {solar, wind, blow}
    long_echo = "Solar wind is solar wind. It is wind from solar activity, as solar wind always is, everywhere."
    assert prefer(pra.GEN_DIV(), diverse, long_echo, query=query) == 1.0
    assert prefer(pra.GEN_LEN_DIV(), diverse, long_echo, query=query) == 0.0


# --- semantic term matching --------------------------------------------------------------------


def test_stmc1_prefers_terms_similar_to_the_query():
    query = "dog"
    related = "The puppy barked at the kennel."
    unrelated = "Tax rates rose in the fiscal quarter."
    assert both_ways(pra.GEN_STMC1(), related, unrelated, query=query) == (1.0, -1.0)


def test_stmc2_prefers_the_query_term_over_an_equally_frequent_similar_term():
    query = "car"
    exact = "The car drove on the road."
    similar = "The automobile drove on the road."
    assert both_ways(pra.GEN_STMC2(), exact, similar, query=query) == (1.0, -1.0)
    # a similar term twice as dense as the query term: no preference
    dense = "Automobile, automobile drove."
    assert prefer(pra.GEN_STMC2(), exact, dense, query=query) == 0.0


def test_term_similarity_is_pluggable():
    def same_first_letter(term1: str, term2: str) -> float:
        return float(term1[0] == term2[0])

    similarity = FunctionTermSimilarity(same_first_letter)
    axiom = pra.GEN_STMC1(term_similarity=similarity)
    assert "same_first_letter" in repr(axiom)
    # by first letters "dog" matches "desk" and "door", not "puppy" or "kennel"
    assert prefer(axiom, "Desk door.", "Puppy kennel.", query="dog") == 1.0
    assert prefer(pra.GEN_STMC1(), "Desk door.", "Puppy kennel.", query="dog") == -1.0
    assert similarity.similarities(["dog"], ["desk", "cat"]).tolist() == [[1.0, 0.0]]


def test_embedding_average_similarity_is_the_mean_of_all_cosines():
    similarity = EmbeddingTermSimilarity()
    terms_a, terms_b = ["dog", "cat", "tax"], ["puppy", "kennel"]
    assert similarity.average_similarity(terms_a, terms_b) == pytest.approx(
        similarity.similarities(terms_a, terms_b).mean(), abs=1e-6
    )
    assert np.isnan(similarity.average_similarity([], terms_b))


# --- proximity ---------------------------------------------------------------------------------


def test_prox1_prefers_query_terms_closer_together():
    query = "solar wind"
    close = "Solar wind reaches Earth."
    apart = "Solar flares send particles that eventually form a wind."
    assert both_ways(pra.GEN_PROX1(), close, apart, query=query) == (1.0, -1.0)
    only_one = "Solar flares send particles."
    assert prefer(pra.GEN_PROX1(), close, only_one, query=query) == 0.0  # different query-term subsets


def test_prox2_prefers_query_terms_appearing_earlier():
    query = "solar wind"
    early = "Solar wind reaches Earth after two days."
    late = "After two days, the solar wind reaches Earth."
    assert both_ways(pra.GEN_PROX2(), early, late, query=query) == (1.0, -1.0)


def test_prox3_prefers_the_query_phrase_earlier_and_any_phrase_over_none():
    query = "solar wind"
    early = "Solar wind reaches Earth after two days."
    late = "After two days, the solar wind reaches Earth."
    scattered = "Wind from solar storms reaches Earth."
    assert both_ways(pra.GEN_PROX3(), early, late, query=query) == (1.0, -1.0)
    assert both_ways(pra.GEN_PROX3(), late, scattered, query=query) == (1.0, -1.0)
    assert prefer(pra.GEN_PROX3(), scattered, "Wind and solar storms.", query=query) == 0.0


def test_prox4_prefers_fewer_other_terms_in_the_closest_grouping_then_more_groupings():
    query = "solar wind"
    tight = "Solar wind reaches Earth."
    loose = "Solar storms blow strong wind."
    assert both_ways(pra.GEN_PROX4(), tight, loose, query=query) == (1.0, -1.0)
    twice = "Solar wind reaches Earth, and solar wind returns."
    assert both_ways(pra.GEN_PROX4(), twice, tight, query=query) == (1.0, -1.0)
    assert prefer(pra.GEN_PROX4(), tight, "Solar storms.", query=query) == 0.0  # needs all query terms in both


def test_prox5_prefers_smaller_average_spans():
    query = "solar wind"
    tight = "Solar wind reaches Earth."
    loose = "Solar storms blow strong wind."
    assert both_ways(pra.GEN_PROX5(), tight, loose, query=query) == (1.0, -1.0)
    values = pra.GEN_PROX5().values(pd.DataFrame({"qid": ["q"] * 2, "query": [query] * 2, "response": [tight, loose]}))
    assert values["GEN_PROX5_value"].tolist() == [2.0, 5.0]  # groupings span two and five terms


# --- argumentative axioms ----------------------------------------------------------------------


def test_arguc_prefers_more_argument_units():
    query = "Why do auroras glow?"
    argued = "Auroras glow because particles hit the air. Therefore auroras look green."
    plain = "Auroras glow when particles hit the air. Auroras look green."
    assert abs(length(argued) - length(plain)) <= 0.1 * max(length(argued), length(plain))
    assert both_ways(pra.GEN_ArgUC(), argued, plain, query=query) == (1.0, -1.0)
    values = pra.GEN_ArgUC().values(pd.DataFrame({"qid": ["q"] * 2, "query": [query] * 2, "response": [argued, plain]}))
    assert values["GEN_ArgUC_value"].tolist() == [3.0, 0.0]  # claim + premise, claim


def test_qtarg_prefers_query_terms_inside_argument_units():
    query = "aurora glow"
    inside = "Auroras glow because particles hit the air. The sky looks green."
    outside = "The sky looks green because particles hit air. Auroras glow."
    assert length(inside) == length(outside)
    assert both_ways(pra.GEN_QTArg(), inside, outside, query=query) == (1.0, -1.0)


def test_qtparg_prefers_query_terms_early_in_argument_units():
    query = "particles"
    early = "Particles matter because they hit the air. Skies look green at night."
    late = "Skies look green at night. Particles matter because they hit the air."
    assert length(early) == length(late)
    assert both_ways(pra.GEN_QTPArg(), early, late, query=query) == (1.0, -1.0)


def test_asl_prefers_average_sentence_lengths_of_12_to_20_words():
    query = "solar wind"
    good = "The solar wind carries charged particles far away from the Sun until they reach the field of Earth."
    choppy = "The solar wind carries charged particles. They go far away from the Sun. They reach the field of Earth."
    assert abs(length(good) - length(choppy)) <= 0.1 * max(length(good), length(choppy))
    assert both_ways(pra.GEN_aSL(), good, choppy, query=query) == (1.0, -1.0)
    assert prefer(pra.GEN_aSL(min_sentence_length=4, max_sentence_length=8), good, choppy, query=query) == -1.0
    with pytest.raises(ValueError, match="GenerativeAverageSentenceLengthAxiom"):
        pra.GEN_aSL(min_sentence_length=20, max_sentence_length=12)


# --- behaviour every GEN axiom keeps -----------------------------------------------------------


def test_the_length_precondition_is_lengths_within_ten_percent():
    assert similar_lengths(np.array([10, 10, 0, 100]), np.array([9, 8, 0, 112])).tolist() == [True, False, True, False]
    assert set(LENGTH_CONSTRAINED) == {
        "GEN_TFC1", "GEN_REG", "GEN_ANTI_REG", "GEN_LEN_AND", "GEN_LEN_DIV", "GEN_ArgUC", "GEN_QTArg", "GEN_QTPArg",
        "GEN_aSL",
    }


@pytest.mark.parametrize("name", LENGTH_CONSTRAINED)
def test_length_constrained_axioms_give_no_preference_for_different_lengths(name, sample_responses):
    axiom = GEN_AXIOMS[name]()
    out = axiom(sample_responses)
    lengths = {text: length(text) for text in sample_responses["response"]}
    similar = similar_lengths(out["response_a"].map(lengths).to_numpy(), out["response_b"].map(lengths).to_numpy())
    assert (out.loc[~similar, name] == 0.0).all()
    assert (~similar).sum() > 0


def test_compare_treats_infinity_as_beyond_any_finite_value():
    a = np.array([np.inf, 1.0, np.inf, np.nan, 2.0])
    b = np.array([3.0, np.inf, np.inf, np.inf, 1.0])
    assert compare(a, b, margin_fraction=0.0, prefer_higher=False).tolist() == [-1.0, 1.0, 0.0, 0.0, -1.0]
    assert compare(a, b, margin_fraction=0.5).tolist() == [1.0, -1.0, 0.0, 0.0, 0.0]


@pytest.mark.parametrize("name", list(GEN_AXIOMS))
def test_empty_texts_give_no_preference(name):
    axiom = GEN_AXIOMS[name]()
    response = "Solar wind reaches Earth because the Sun is active."
    for empty in ("", "   ", "It is what it is."):  # no text, whitespace, only stop words
        assert prefer(axiom, empty, response, query="solar wind") == 0.0
        assert prefer(axiom, response, empty, query="solar wind") == 0.0
    if axiom.uses_query:  # a request without terms
        assert prefer(axiom, response, "The solar wind.", query="What is it?") == 0.0
    if isinstance(axiom, pra.FeatureAxiom):
        values = axiom.values(pd.DataFrame({"qid": ["q"], "query": ["solar wind"], "response": [""]}))
        assert np.isnan(values[f"{name}_value"].iloc[0])




def test_every_gen_axiom_is_a_generative_retrieval_axiom():
    assert all(isinstance(axiom(), GenerativeRetrievalAxiom) for axiom in GEN_AXIOMS.values())


@pytest.mark.parametrize(
    ("name", "margin"), [("GEN_TFC1", 0.1), ("GEN_LNC1", 0.1), ("GEN_STMC2", 0.2), ("GEN_DIV", 0.0), ("GEN_aSL", 0.0)]
)
def test_documented_default_margins(name, margin):
    assert GEN_AXIOMS[name]().margin_fraction == margin


def test_only_the_request_plays_the_query_not_the_context():
    frame = pd.DataFrame(
        {"qid": ["q", "q"], "query": ["solar wind"] * 2, "docno": ["a", "b"],
         "response": ["Solar wind reaches Earth.", "Auroras glow green."],
         "context": [["Auroras glow green at night."]] * 2}
    )
    assert pra.GEN_M_AND()(frame)["GEN_M_AND"].iloc[0] == 1.0


def test_porter_stems_and_custom_stop_words():
    assert term_extractor(stemmer="porter").terms("Northern lights are caused by particles.") == (
        "northern", "light", "caus", "particl",
    )
    assert TermExtractor(stop_words=False).terms("It is the Sun [1].") == ("it", "be", "the", "sun")
    assert TermExtractor(stop_words={"sun"}).terms("It is the Sun.") == ("it", "be", "the")
    axiom = pra.GEN_M_AND(stemmer="porter")
    assert "stemmer='porter'" in repr(axiom)
    assert prefer(axiom, "Causing auroras.", "Glowing skies.", query="Auroras cause what?") == 1.0
    with pytest.raises(ValueError, match="GenerativeModifiedAndAxiom"):
        pra.GEN_M_AND(term_extractor=TermExtractor(), stemmer="porter")
    with pytest.raises(ValueError, match="stemmer"):
        TermExtractor(stemmer="krovetz")


def test_axioms_share_one_term_extractor_by_default():
    assert pra.GEN_TFC1().term_extractor is pra.GEN_PROX1().term_extractor is term_extractor()
    assert pra.GEN_TFC1(stemmer="porter").term_extractor is term_extractor(stemmer="porter")
    assert pra.GEN_TFC1().term_extractor.text_analyzer is pra.COH1().text_analyzer


def test_verbose_shows_progress(capsys):
    frame = pd.DataFrame(
        {"qid": ["q", "q"], "query": ["car"] * 2, "response": ["The car drove far.", "The automobile drove far."]}
    )
    out = (pra.GEN_STMC2(verbose=True) >> pra.GEN_ArgUC(verbose=True))(frame)
    assert out["GEN_STMC2"].tolist() == [1.0]
    assert "GEN_STMC2" in capsys.readouterr().err


def test_term_profiles_drop_citations_and_keep_positions():
    profile = term_extractor().profiles(["Solar wind [0] reaches Earth [1, 2]. Wind blows."])[0]
    assert profile.terms == ("solar", "wind", "reach", "earth", "wind", "blow")
    assert profile.positions["wind"].tolist() == [1, 4]
    assert profile.sentence_lengths == (4, 2)
    assert len(profile) == 6 and profile.counts["wind"] == 2


def test_feature_values_are_exposed(sample_responses):
    values = pra.GEN_TFC1().values(sample_responses).set_index("docno")["GEN_TFC1_value"]
    # "What causes the northern lights?" -> cause, northern, light
    assert values["q1-r1"] == 5.0  # northern, light, cause(d), light, light
    assert values["q1-r2"] == 2.0  # northern, light


def test_one_chain_of_all_21_analyses_each_distinct_text_once(sample_responses):
    analyzer = TextAnalyzer()
    similarity = EmbeddingTermSimilarity(SentenceSimilarity())
    parsed: list[str] = []
    nlp = analyzer.nlp
    original_pipe = nlp.pipe

    def counting_pipe(texts, **kwargs):
        texts = list(texts)
        parsed.extend(texts)
        return original_pipe(texts, **kwargs)

    nlp.pipe = counting_pipe
    extractor = TermExtractor(analyzer)
    chain = None
    for name, axiom in GEN_AXIOMS.items():
        tools = {"term_extractor": extractor}
        if name in {"GEN_REG", "GEN_ANTI_REG", "GEN_STMC1", "GEN_STMC2"}:
            tools["term_similarity"] = similarity
        chain = axiom(**tools) if chain is None else chain >> axiom(**tools)
    out = chain(sample_responses)
    assert len(out) == 8 * 6
    assert list(out.columns[-21:]) == list(GEN_AXIOMS)
    distinct = set(sample_responses["response"]) | set(sample_responses["query"])
    assert len(parsed) == len(set(parsed)) == len(distinct)  # each distinct text parsed once; contexts never
    assert len(analyzer) == len(extractor) == len(distinct)
    embedded = len(similarity.encoder)
    assert embedded == len({term for text in distinct for term in extractor.terms(text)})  # each term embedded once
    again = chain(sample_responses)
    assert len(parsed) == len(distinct) and len(similarity.encoder) == embedded
    pd.testing.assert_frame_equal(again, out)


def test_kwiksort_computes_each_gen_feature_value_once(sample_responses):
    class CountingModifiedAnd(pra.GEN_M_AND):
        def __init__(self):
            super().__init__()
            self.valued: list[str] = []

        def response_values(self, table):
            self.valued.extend(table.responses["docno"])
            return super().response_values(table)

    axiom = CountingModifiedAnd()
    frame = sample_responses[sample_responses["qid"] == "q1"]
    pra.KwikSort(axiom, pivot="first")(frame)
    assert sorted(axiom.valued) == sorted(frame["docno"])  # once per response, for all rounds
