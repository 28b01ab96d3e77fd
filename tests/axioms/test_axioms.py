"""What every axiom keeps: the margin rule, NaN values, documented defaults, keyword-only
constructors, exposed values, one analysis per text, and the contract of the axioms beyond the paper."""

from __future__ import annotations

import numpy as np
import pyterrier as pt
import pytest
from conftest import prefer

import pyterrier_rag_axioms as pra
from pyterrier_rag_axioms import EXTRA_AXIOMS, RAG_AXIOMS
from pyterrier_rag_axioms.tools.embeddings import SentenceSimilarity
from pyterrier_rag_axioms.tools.text import TextAnalyzer

OFFLINE_AXIOMS = [name for name in RAG_AXIOMS if name != "CLAR1"]


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
    aspect_tools = {**tools, "encoder": similarity}
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
