"""Reading responses as language models write them: segments, citations, words, terms, aspects, syllables."""

from __future__ import annotations

import json
import math
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pyterrier_rag_axioms import CLAR2, COH1, COH2, CONS1, CONS2, CORR1, CORR4, COV1, COV3
from pyterrier_rag_axioms.axioms._syllables import syllable_count
from pyterrier_rag_axioms.axioms._triples import subject_verb_object_triples
from pyterrier_rag_axioms.tools.terms import term_extractor
from pyterrier_rag_axioms.tools.text import NounChunkAspects, resolve_aspects, text_analyzer
from pyterrier_rag_axioms.tools.text.long_texts import split_text
from pyterrier_rag_axioms.tools.text.segmentation import (
    citation_spans,
    link_spans,
    markup_spans,
    segment_starts,
    segments,
)

SHIPPED_PATH = Path(__file__).resolve().parents[2] / "data" / "llm_texts.json"
SHIPPED = json.loads(SHIPPED_PATH.read_text(encoding="utf-8"))["texts"]


def analysis(text: str):
    return text_analyzer().analyse([text])[0]


@pytest.mark.parametrize("case", SHIPPED, ids=[case["name"] for case in SHIPPED])
def test_shipped_llm_texts_give_the_expected_sentences_words_terms_and_aspects(case):
    found = analysis(case["text"])
    assert found.sentence_texts == case["sentences"]
    assert [token.text for token in found.words] == case["words"]
    assert found.terms == case["terms"]
    assert list(found.noun_chunks) == case["aspects"]
    assert list(term_extractor().profiles([case["text"]])[0].terms) == case["terms"]


def test_a_citation_after_the_full_stop_closes_its_sentence():
    assert analysis("The tower was built in 1889. [2] It is tall.").sentence_texts == [
        "The tower was built in 1889. [2]",
        "It is tall.",
    ]
    assert analysis("It is old.[1][2] Next one follows.").sentence_texts == ["It is old.[1][2]", "Next one follows."]
    assert analysis('He said "no." [3] Then he left.').sentence_texts == ['He said "no." [3]', "Then he left."]
    # CORR1 still sees the marker: one of two sentences cites
    tower = "The tower was built in 1889. [2] It is tall."
    frame = pd.DataFrame({"qid": ["q"], "query": ["tower"], "response": [tower]})
    assert CORR1().values(frame)["CORR1_value"].tolist() == [0.5]


def test_citation_markers_are_no_words_terms_or_aspects():
    coffee = analysis("Coffee helps [0,1,2].")
    assert [token.text for token in coffee.words] == ["Coffee", "helps"]
    kidneys = analysis("In high doses it can damage the kidneys[10].")
    assert "kidney" in kidneys.terms and "kidneys" in [token.text for token in kidneys.words]
    assert "the kidneys" in kidneys.noun_chunks
    assert "kidney" in term_extractor().terms("In high doses it can damage the kidneys[10].")
    assert all("[" not in aspect and "]" not in aspect for aspect in analysis("Tea [1, 2] and milk [3].").noun_chunks)


def test_lines_bullets_numbered_steps_and_headings_are_sentences():
    bullets = "\n".join(f"- Point {number} is short and clear" for number in range(1, 9))
    assert len(analysis(bullets).sentences) == 8
    assert analysis(bullets).sentence_texts[0] == "Point 1 is short and clear"
    assert term_extractor().profiles([bullets])[0].sentence_lengths == (6,) * 8  # what GEN_aSL averages
    steps = "## Steps\n1. Boil the water\n2) Add coffee\n(3) Wait"
    assert analysis(steps).sentence_texts == ["Steps", "Boil the water", "Add coffee", "Wait"]
    assert [token.text for token in analysis(steps).words] == ["Steps", "Boil", "the", "water", "Add", "coffee", "Wait"]
    table = analysis("| Drug | Dose |\n|---|---|\n| Aspirin | 100 mg |")
    assert table.sentence_texts == ["| Drug | Dose |", "| Aspirin | 100 mg |"]  # the rule line has no words
    assert [token.text for token in table.words] == ["Drug", "Dose", "Aspirin", "100", "mg"]
    # a wrapped line (starting in lower case) continues its sentence
    assert len(analysis("Regular exercise can lower\nblood pressure in most adults.").sentences) == 1


def test_segments_and_markers_from_the_raw_text():
    text = "# Title\n- first item\n  wrapped on\n\n2. second item\n> quoted line\nPlain [3] text."
    assert segments(text) == [
        "# Title", "- first item\n  wrapped on", "2. second item", "> quoted line", "Plain [3] text.",
    ]
    assert [text[start:end] for start, end in markup_spans(text)] == ["#", "-", "2.", ">"]
    assert [text[start:end] for start, end in citation_spans(text)] == ["[3]"]
    assert segment_starts("") == [] and segments(" \n ") == []
    # a hyphen or number that does not open a list item is no marker
    assert markup_spans("-5 degrees\n1.5 litres\n**Bold**") == []


def test_aspects_leave_out_pronouns_unless_asked():
    query = "is it dangerous to have wbc over 15,000 without treatment?"
    assert "it" not in analysis(query).noun_chunks
    with_pronouns = NounChunkAspects(pronouns=True)
    assert "it" in with_pronouns(analysis(query))
    assert resolve_aspects("noun_chunks_with_pronouns").pronouns
    frame = pd.DataFrame({"qid": ["q", "q"], "query": ["coffee"] * 2, "response": ["It helps.", "Coffee helps."]})
    assert COV1().values(frame)["COV1_value"].tolist() == [0.0, 1.0]
    assert COV1(aspects="noun_chunks_with_pronouns").values(frame)["COV1_value"].tolist() == [1.0, 1.0]


@pytest.mark.parametrize(
    "word, syllables",
    [("area", 3), ("idea", 3), ("WBC", 5), ("WBCs", 5), ("DNA", 3), ("15,000", 4), ("1889", 5), ("3.5", 3),
     ("2nd", 2), ("100", 3), ("the", 1), ("'s", 0), ("%", 0)],
)
def test_syllables_are_counted_as_spoken(word, syllables):
    assert syllable_count(word) == syllables


def test_a_number_of_thousands_of_digits_is_read_digit_by_digit():
    assert syllable_count("5" * 5000) == 5000  # "five" each: Python reads no int of over 4,300 digits
    assert syllable_count("7" * 40 + "th") == 80  # "seven" each


def test_words_the_dictionary_does_not_know_fall_back_to_pyphen():
    import pyphen

    word = "leukocytosisx"
    assert syllable_count(word) == len(pyphen.Pyphen(lang="en_US").positions(word)) + 1


def test_a_readable_list_reads_as_easy_text():
    """A title and eight short bullets without full stops: nine sentences, not one of 20 words, and
    no bullet split in two ("- better sleep")."""
    bullets = "Benefits of walking:\n" + "\n".join(
        f"- {item}" for item in ["better sleep", "lower blood pressure", "stronger bones", "less stress",
                                 "more energy", "a healthier heart", "weight control", "a brighter mood"]
    )
    assert analysis(bullets).sentence_texts[:3] == ["Benefits of walking:", "better sleep", "lower blood pressure"]
    assert len(analysis(bullets).sentences) == 9
    frame = pd.DataFrame({"qid": ["q"], "query": ["walking"], "response": [bullets]})
    assert CLAR2().values(frame)["CLAR2_value"].iloc[0] > 65  # one sentence of 20 words would give about 58


def test_coh2_reads_triples_as_the_reference_defines_them_or_by_broader_rules():
    copular = analysis("Coffee is a popular drink.")
    assert subject_verb_object_triples(copular.sentences) == []
    assert len(subject_verb_object_triples(copular.sentences, rules="broad")) == 1
    chased = analysis("The old dog has chased the cat.")
    (triple,) = subject_verb_object_triples(chased.sentences)
    assert [token.text for token in triple.subjects] == ["dog"]
    assert [token.text for token in triple.verbs] == ["has", "chased"]
    assert triple.distance == 2  # "dog" to "chased" (the auxiliary "has" is nearer)
    (broad,) = subject_verb_object_triples(chased.sentences, rules="broad")
    assert broad.distance == 2
    frame = pd.DataFrame({"qid": ["q"], "query": ["coffee"], "response": ["Coffee is a popular drink."]})
    assert math.isnan(COH2().values(frame)["COH2_value"].iloc[0])
    assert COH2(triples="broad").values(frame)["COH2_value"].iloc[0] == 1.0
    assert "triples='broad'" in repr(COH2(triples="broad"))
    with pytest.raises(ValueError, match="COH2: triples must be one of"):
        COH2(triples="textacy")


def test_one_sentence_has_no_word_length_deviation():
    texts = ["One short sentence.", "A cat sat. Extraordinary circumstances accumulated."]
    frame = pd.DataFrame({"qid": ["q", "q"], "query": ["x"] * 2, "response": texts})
    values = COH1().values(frame)["COH1_value"].tolist()
    assert math.isnan(values[0]) and values[1] > 0
    assert COH1()(frame)["COH1"].tolist() == [0.0]


def test_an_empty_response_covers_nothing_in_every_coverage_and_consistency_sum():
    """Counts and sums over an empty response are 0, so it loses on COV1, COV3, CONS1 and CONS2 alike."""
    context = [["Coffee contains caffeine, which improves alertness."]] * 2
    frame = pd.DataFrame({
        "qid": ["q", "q"], "query": ["Does coffee improve alertness?"] * 2, "docno": ["full", "empty"],
        "response": ["Coffee improves alertness because of caffeine.", ""], "context": context,
    })
    for axiom in (COV1(), COV3(), CONS1(), CONS2()):
        values = axiom.values(frame)[f"{axiom.name}_value"].to_numpy()
        assert values[1] == 0.0 and values[0] > 0, axiom.name
        assert axiom(frame)[axiom.name].tolist() == [1.0], axiom.name
    # means and shares over nothing are undefined: no preference
    for axiom in (CORR1(), CLAR2(), COH1()):
        assert np.isnan(axiom.values(frame)[f"{axiom.name}_value"].iloc[1]), axiom.name


def test_web_addresses_are_references_not_words():
    bare = analysis("It scatters, see https://en.wikipedia.org/wiki/Rayleigh_scattering. Next one.")
    assert bare.sentence_texts == ["It scatters, see https://en.wikipedia.org/wiki/Rayleigh_scattering.", "Next one."]
    assert not any("http" in word.text for word in bare.words) and "https" not in " ".join(bare.noun_chunks)
    linked = analysis("Blue light scatters [Rayleigh scattering](https://example.com/a/b).")
    assert [token.text for token in linked.doc][5:8] == ["scattering", "](", "https://example.com"]
    assert [word.text for word in linked.words] == ["Blue", "light", "scatters", "Rayleigh", "scattering"]
    assert link_spans("See www.example.org, or (https://a.org/x).") == [(4, 19), (25, 40)]
    # an address does not make a sentence, nor a citing one
    listed = pd.DataFrame({"qid": "1", "query": "q", "docno": ["a", "b"],
                           "response": ["Water is good [1].", "Water is good [1].\n\n[1]: https://example.com/x"]})
    assert CORR1().values(listed)["CORR1_value"].tolist() == [1.0, 1.0]
    first, second = COV1().values(listed)["COV1_value"].tolist()
    assert first == second


def test_email_addresses_are_neither_words_nor_aspects():
    text = "For questions, write to info@example.org or mailto:help@who.int. The clinic is open daily."
    read = analysis(text)
    assert [word.text for word in read.words] == ["For", "questions", "write", "to", "or", "The", "clinic", "is",
                                                   "open", "daily"]
    assert read.noun_chunks == ("questions", "the clinic")
    assert link_spans("Mail a.b+c@mail.example.co.uk, not @handle or 3@5.") == [(5, 29)]


@pytest.mark.parametrize("text", ["Use Python for this [1].", "Doctors recommend these [2].", "We use those [0,1]."])
def test_a_citation_marker_does_not_turn_a_pronoun_into_an_aspect(text):
    plain = analysis(text.replace(" [1]", "").replace(" [2]", "").replace(" [0,1]", ""))
    assert analysis(text).noun_chunks == plain.noun_chunks
    assert not {"this", "these", "those"} & set(analysis(text).noun_chunks)


#: LLM-style text beyond plain prose: (text, sentences, words, aspects).
FORMATTED = [
    ("**Caffeine** is a stimulant found in coffee.",
     ["**Caffeine** is a stimulant found in coffee."],
     ["Caffeine", "is", "a", "stimulant", "found", "in", "coffee"], ("caffeine", "coffee")),
    ("- **Caffeine:** a stimulant found in coffee.\n- **Theanine:** an amino acid in tea.",
     ["**Caffeine:** a stimulant found in coffee.", "**Theanine:** an amino acid in tea."],
     ["Caffeine", "a", "stimulant", "found", "in", "coffee", "Theanine", "an", "amino", "acid", "in", "tea"],
     ("caffeine", "coffee", "theanine", "an amino acid", "tea")),
    ("Caffeine is a _stimulant_ found in coffee.", ["Caffeine is a _stimulant_ found in coffee."],
     ["Caffeine", "is", "a", "stimulant", "found", "in", "coffee"], ("caffeine", "a stimulant", "coffee")),
    ("**Coffee is healthy.** It helps focus.", ["**Coffee is healthy.**", "It helps focus."],
     ["Coffee", "is", "healthy", "It", "helps", "focus"], ("coffee",)),
    ("It can damage the kidneys.[1, 2] Tea is fine.", ["It can damage the kidneys.[1, 2]", "Tea is fine."],
     ["It", "can", "damage", "the", "kidneys", "Tea", "is", "fine"], ("the kidneys", "tea")),
    ("It damages the kidneys[1; 4]. It is bad.", ["It damages the kidneys[1; 4].", "It is bad."],
     ["It", "damages", "the", "kidneys", "It", "is", "bad"], ("the kidneys",)),
    ("Coffee helps.[^1] Tea calms.[^2]", ["Coffee helps.[^1]", "Tea calms.[^2]"],
     ["Coffee", "helps", "Tea", "calms"], ("coffee",)),
    ("Coffee helps¹². Tea helps².", ["Coffee helps¹².", "Tea helps²."], ["Coffee", "helps", "Tea", "helps"],
     ("coffee", "tea")),
    ("Coffee helps<sup>1</sup>.", ["Coffee helps<sup>1</sup>."], ["Coffee", "helps"], ("coffee",)),
    ("Coffee helps¹. Tea is good.", ["Coffee helps¹.", "Tea is good."], ["Coffee", "helps", "Tea", "is", "good"],
     None),
    ("Coffee helps focus【4:0†source】. Tea calms [2†source].", ["Coffee helps focus【4:0†source】.",
                                                              "Tea calms [2†source]."],
     ["Coffee", "helps", "focus", "Tea", "calms"], None),
    ("Coffee helps.[Source 1] Tea calms [doc2].", ["Coffee helps.[Source 1]", "Tea calms [doc2]."],
     ["Coffee", "helps", "Tea", "calms"], None),
    ("2. Add coffee\na. Grind the beans\nb. Weigh them", ["Add coffee", "Grind the beans", "Weigh them"],
     ["Add", "coffee", "Grind", "the", "beans", "Weigh", "them"], None),
    ("i. First point\nii. second point\niii. third point", ["First point", "second point", "third point"],
     ["First", "point", "second", "point", "third", "point"], None),
    ("A) Grind the beans\nB) Weigh them", ["Grind the beans", "Weigh them"],
     ["Grind", "the", "beans", "Weigh", "them"], None),
    ("### 1. Introduction\nCoffee is popular.", ["Introduction", "Coffee is popular."],
     ["Introduction", "Coffee", "is", "popular"], ("introduction", "coffee")),
    ("**1. Boil the water**\nUse fresh water.", ["Boil the water**", "Use fresh water."],
     ["Boil", "the", "water", "Use", "fresh", "water"], ("the water", "fresh water")),
    ("|Drug|Dose|\n|:--|--:|\n|Aspirin|100 mg|", ["|Drug|Dose|", "|Aspirin|100 mg|"],
     ["Drug", "Dose", "Aspirin", "100", "mg"], ("drug", "dose", "aspirin", "mg")),
    ("Here is an example:\n\n```bash\npip install numpy\npython -m pytest\n```\n\nThis installs numpy.",
     ["Here is an example:", "This installs numpy."], ["Here", "is", "an", "example", "This", "installs", "numpy"],
     ("an example",)),
    ("Coffee is healthy.<br>It helps focus.", ["Coffee is healthy.<br>", "It helps focus."],
     ["Coffee", "is", "healthy", "It", "helps", "focus"], ("coffee",)),
    ("Coffee &amp; tea are drinks&nbsp;with caffeine.", ["Coffee &amp; tea are drinks&nbsp;with caffeine."],
     ["Coffee", "tea", "are", "drinks", "with", "caffeine"], None),
    ("Use snake_case names and 2*3 math.", ["Use snake_case names and 2*3 math."],
     ["Use", "snake_case", "names", "and", "2", "3", "math"], None),
    ("```ls``` lists the files.\nCoffee is good. Tea is better.",
     ["```ls``` lists the files.", "Coffee is good.", "Tea is better."], None, None),  # inline code, no fence
    ("**Green** tea is healthy.", ["**Green** tea is healthy."], ["Green", "tea", "is", "healthy"],
     ("green tea",)),
    ("Green tea[1] leaves are dried.", ["Green tea[1] leaves are dried."], None, ("green tea leaves",)),
    ("E. coli can cause illness.\nB. cereus too.", ["E. coli can cause illness.", "B. cereus too."], None,
     ("e. coli", "illness", "b. cereus")),
    ("II. Methods\nIII. Results", ["Methods", "Results"], ["Methods", "Results"], None),
    ("Coffee is good.[^1] **Tea** is better.", ["Coffee is good.[^1]", "**Tea** is better."], None, None),
    ("Coffee is good.<b>Tea</b> is better.", ["Coffee is good.", "<b>Tea</b> is better."], None, None),
    ("About 10⁶ cells fit in 50 m² of tissue.", ["About 10⁶ cells fit in 50 m² of tissue."],
     ["About", "10⁶", "cells", "fit", "in", "50", "m²", "of", "tissue"], None),
    ("Coffee helps [1].Tea too [2].", ["Coffee helps [1].", "Tea too [2]."], ["Coffee", "helps", "Tea", "too"], None),
    ("Use List<String> here.", ["Use List<String> here."], None, None),
]


@pytest.mark.parametrize(("text", "sentences", "words", "aspects"), FORMATTED, ids=[case[0][:30] for case in FORMATTED])
def test_emphasis_footnotes_lists_tables_code_and_html_are_read_as_layout(text, sentences, words, aspects):
    read = analysis(text)
    assert read.sentence_texts == sentences
    if words is not None:
        assert [word.text for word in read.words] == words
    if aspects is not None:
        assert read.noun_chunks == aspects


def test_footnotes_close_sentences_but_number_no_passage():
    frame = pd.DataFrame({"qid": "1", "query": "q", "docno": ["a", "b"],
                          "response": ["Coffee helps.[^1] Tea calms.", "Coffee helps.[1] Tea calms."]})
    assert CORR1().values(frame)["CORR1_value"].tolist() == [0.0, 0.5]  # CORR1 counts [n] citations only
    assert CORR4().values(frame)["CORR4_value"].tolist() == [0.5, 0.5]  # CORR4 counts every form


def test_a_long_text_is_cut_at_a_line_break_and_after_the_markers_that_close_a_sentence():
    listed = "\n".join(f"- Item number {i} is about coffee [1]" for i in range(700))
    assert all(piece.endswith("\n") for piece in split_text(listed)[:-1])
    wrapped = textwrap.fill("Coffee improves alertness in most adults because caffeine blocks adenosine. " * 300, 72)
    assert all(piece.endswith(". ") or piece.endswith(".\n") for piece in split_text(wrapped)[:-1])
    prose = "Coffee improves alertness in most adults. [2] Tea calms. " * 400
    assert all(piece.endswith("[2] ") or piece.endswith("calms. ") for piece in split_text(prose)[:-1])


def test_plural_nouns_that_the_lemmatizer_gets_wrong_have_their_own_lemma():
    read = analysis("High doses of caffeine have many uses and dull the senses; taxes on coffee rise.")
    assert {"dose", "use", "sense", "tax"} <= set(read.terms)
    assert not {"dos", "us", "sens", "taxis"} & set(read.terms)
    profile = term_extractor().profiles(["High doses of caffeine."])[0]
    assert "dose" in profile.terms


def test_a_closing_tag_after_the_full_stop_ends_the_sentence_and_entities_separate_aspects():
    assert analysis("Tea is good.</b> It helps.").sentence_texts == ["Tea is good.</b>", "It helps."]
    assert any("green tea" in aspect for aspect in analysis("We drink green&nbsp;tea daily.").noun_chunks)


def test_html_tags_are_the_known_ones():
    read = analysis("Use List<String> here.<br>Then <b>bold</b> text.")
    assert "String" in [word.text for word in read.words] and "b" not in [word.text for word in read.words]


def test_every_aspect_name_resolves_and_an_unknown_one_lists_them():
    from typing import get_args

    from pyterrier_rag_axioms.tools.text.aspects import ASPECT_NAMES, AspectName, EntityAspects

    assert ASPECT_NAMES == get_args(AspectName)  # the type hint names what resolves
    assert [type(resolve_aspects(name)) for name in ASPECT_NAMES] == [NounChunkAspects, NounChunkAspects, EntityAspects]
    assert resolve_aspects("noun_chunks") is not resolve_aspects("noun_chunks")  # made anew each time
    expected = "aspects must be 'noun_chunks', 'noun_chunks_with_pronouns', 'entities' or an AspectExtraction"
    with pytest.raises(ValueError, match=expected):
        resolve_aspects("verbs")
