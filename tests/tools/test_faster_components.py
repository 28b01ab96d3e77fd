"""The faster attribute ruler and lemmatizer give spaCy's own annotations."""

from __future__ import annotations

import json

import pytest

from pyterrier_rag_axioms.tools.text import faster_components, spacy_model
from pyterrier_rag_axioms.tools.text.faster_components import (
    IndexedAttributeRules,
    UnreadablePattern,
    index_attribute_ruler,
)

#: Texts that reach the ruler's rarer patterns: two-token ones ("ai n't", "gon na"), regular
#: expressions ("nothin'", "y'"), spaces, auxiliaries, objects and determiners.
RARE = [
    "I ain't gonna do it, y' know, nothin' is what it is.",
    "  \n\n  Spaces   here \t and there.\n- A list item\n\n## A heading",
    "Don't! It's not that I'd have had it; whether or not, I've done it. Give it to me and you.",
    "That which was, were and is; this one did, those have. Has he? They do.",
    "",
]


@pytest.fixture(scope="module")
def pipelines():
    """The pipeline as the analyzer loads it, and one with spaCy's own components."""
    return spacy_model.load_spacy_model(), spacy_model.load_spacy_model(speed_up=False)


def _texts(sample_responses) -> list[str]:
    from conftest import PROJECT_ROOT

    shipped = json.loads((PROJECT_ROOT / "data" / "llm_texts.json").read_text(encoding="utf-8"))["texts"]
    return [*RARE, *(case["text"] for case in shipped), *sample_responses["response"], *sample_responses["query"]]


def _annotations(nlp, texts):
    return [[(token.tag_, token.pos_, str(token.morph), token.dep_, token.lemma_) for token in doc]
            for doc in nlp.pipe(texts)]


def test_the_loaded_pipeline_uses_the_faster_components(pipelines):
    faster, own = pipelines
    assert faster.get_pipe("attribute_ruler").match != own.get_pipe("attribute_ruler").match
    assert faster.get_pipe("lemmatizer").lemmatize != own.get_pipe("lemmatizer").lemmatize
    index = faster.get_pipe("lemmatizer").lookups.get_table("lemma_index")
    assert index and all(isinstance(words, faster_components.WordList) for words in index.values())
    assert not any(isinstance(words, faster_components.WordList)
                   for words in own.get_pipe("lemmatizer").lookups.get_table("lemma_index").values())


def test_the_annotations_are_spacys_own(pipelines, sample_responses):
    faster, own = pipelines
    texts = _texts(sample_responses)
    assert _annotations(faster, texts) == _annotations(own, texts)
    # twice: the second pass reads what the first one kept
    assert _annotations(faster, texts[:6]) == _annotations(own, texts[:6])


def test_the_pipeline_still_pickles_with_the_same_annotations(pipelines):
    import pickle

    faster, _ = pipelines
    copy = pickle.loads(pickle.dumps(faster))
    assert _annotations(copy, RARE) == _annotations(faster, RARE)


def test_the_matches_are_the_matchers(pipelines, sample_responses):
    _, own = pipelines
    ruler = own.get_pipe("attribute_ruler")
    indexed = IndexedAttributeRules(ruler)
    docs = list(own.pipe(_texts(sample_responses), disable=["attribute_ruler", "lemmatizer", "ner", "negex"]))
    assert [indexed.match(doc) for doc in docs] == [ruler.match(doc) for doc in docs]
    assert any(end - start == 2 for *_, start, end in indexed.match(docs[0])), "a two-token pattern is reached"


@pytest.mark.parametrize("pattern", [
    [{"TAG": "NN", "OP": "+"}],
    [{"LEMMA": "be"}],
    [{"LOWER": {"FUZZY": "word"}}],
    [{"IS_SPACE": "yes"}],
])
def test_a_ruler_with_a_pattern_it_cannot_read_is_left_to_spacy(pattern):
    import spacy

    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("attribute_ruler")
    ruler.add([[{"TAG": "NN"}], pattern], {"POS": "NOUN"})
    with pytest.raises(UnreadablePattern):
        IndexedAttributeRules(ruler)
    assert not index_attribute_ruler(nlp)
    assert "match" not in vars(ruler)


def test_a_lemmatizer_in_lookup_mode_is_left_as_it_is():
    import spacy

    nlp = spacy.blank("en")
    lemmatizer = nlp.add_pipe("lemmatizer", config={"mode": "lookup"})
    assert not faster_components.memoize_lemmatizer(nlp)
    assert "lemmatize" not in vars(lemmatizer) or lemmatizer.lemmatize == lemmatizer.lookup_lemmatize
