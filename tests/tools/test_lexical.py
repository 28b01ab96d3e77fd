"""The lexical primitives: words, content words, stems and cited numbers, with one rule for content words
and one stemmer (:mod:`pyterrier_rag_axioms.tools.text.vocabulary`) for the axioms and TREC's form check."""

from __future__ import annotations

import pytest

from pyterrier_rag_axioms.nuggets.facts import trec_form_problems
from pyterrier_rag_axioms.tools import lexical
from pyterrier_rag_axioms.tools.lexical import cited_numbers, content_words
from pyterrier_rag_axioms.tools.text import vocabulary
from pyterrier_rag_axioms.tools.text.vocabulary import stem, stop_words

TEXT = "The café in Zürich[2] was 5'11 tall in the 1990’s, it's said"


def test_lexical_primitives():
    assert cited_numbers("A [0,2]. B [4-6]. C [1; 3].") == [0, 2, 4, 5, 6, 1, 3]
    assert content_words("The kidneys[10] of the patient, 15,000 cells") == ["kidneys", "patient", "15", "000", "cells"]


def test_one_content_word_function_for_the_axioms_and_the_form_check():
    assert lexical.content_words is vocabulary.content_words
    # the axioms' words: any script, citation markers left out
    assert content_words(TEXT) == ["café", "zürich", "5'11", "tall", "1990’s", "it's", "said"]
    # TREC's form check counts ASCII words of the text as it is, as it always did
    assert content_words(TEXT, rule="ascii") == ["caf", "z", "rich", "2", "5", "11", "tall", "1990’s", "it's", "said"]
    assert {"the", "in", "was"} <= stop_words()
    with pytest.raises(ValueError, match="rule must be"):
        content_words(TEXT, rule="latin")


def test_one_stemmer_with_the_porter_and_the_suffix_rule():
    assert [stem(word) for word in ("buying", "studies", "running")] == ["bui", "studi", "run"]
    assert [stem(word, rule="suffixes") for word in ("buying", "studies", "Mother’s", "running", "is")] == [
        "buy", "study", "mother", "runn", "is"]
    with pytest.raises(ValueError, match="rule must be"):
        stem("buying", rule="lemma")


def test_the_form_check_compares_stems_of_content_words():
    # "buying" restates "buy" (one new word left): the nugget restates the query
    assert trec_form_problems("Buying houses.", "Why buy a house?") == ["restates the query"]
    assert trec_form_problems("Buying houses in Zürich.", "Why buy a house?") == []  # "z" and "rich"


def test_parsed_tokens_follow_the_same_stop_word_rule():
    import pathlib

    import pyterrier_rag_axioms
    from pyterrier_rag_axioms.tools.text import TextAnalyzer
    from pyterrier_rag_axioms.tools.text.vocabulary import is_stop_word
    from pyterrier_rag_axioms.tools.text.words import content_lemma

    analysis = TextAnalyzer().analyse(["The kidneys of the patients were never checked, and three were not."])[0]
    assert analysis.terms == ["kidney", "patient", "check"]
    assert [content_lemma(token) for token in analysis.lemmatized][:3] == ["", "kidney", ""]
    assert is_stop_word("The") and is_stop_word("three") and not is_stop_word("kidneys")
    # one rule: no module's code (its strings and comments aside) reads spaCy's own stop-word flag
    package = pathlib.Path(pyterrier_rag_axioms.__file__).parent
    assert not [path.name for path in package.rglob("*.py") if _reads_attribute(path, "is_stop")]


def _reads_attribute(path, name: str) -> bool:
    """Whether a module's code reads ``.name`` of some object."""
    import io
    import tokenize

    tokens = [token for token in tokenize.generate_tokens(io.StringIO(path.read_text()).readline)
              if token.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE)]
    return any(before.string == "." and token.type == tokenize.NAME and token.string == name
               for before, token in zip(tokens, tokens[1:]))
