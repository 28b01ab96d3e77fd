"""Long texts are cut into pieces at paragraphs, then sentences, then whitespace, and analysed as
the whole text would be."""

from __future__ import annotations

import pytest

from pyterrier_rag_axioms.tools.text import TextAnalysis, TextAnalyzer
from pyterrier_rag_axioms.tools.text.long_texts import PIECE_LENGTH, split_text


def test_split_text_cuts_at_paragraphs_then_sentences_then_whitespace():
    text = ("Short sentence here. " * 30 + "\n\n") * 20
    pieces = split_text(text, 1000)
    assert "".join(pieces) == text and max(map(len, pieces)) <= 1000
    assert all(piece.endswith("\n\n") for piece in pieces[:-1])
    pieces = split_text("One two three. Four five six seven eight nine.", 20)
    assert pieces[0] == "One two three. "
    assert split_text("x" * 45, 20) == ["x" * 20, "x" * 20, "x" * 5]


def test_texts_over_spacys_max_length_are_analysed_in_pieces():
    analyzer = TextAnalyzer()  # its own pipeline: max_length is lowered below
    text = "\n\n".join(
        f"Paragraph {i}. The Eiffel Tower is not in Berlin. Berlin is in Germany. Paris has the Louvre."
        for i in range(600)
    )
    assert len(text) > PIECE_LENGTH
    analyzer.nlp.max_length = PIECE_LENGTH + 1  # spaCy refuses a text this long in one piece
    with pytest.raises(ValueError, match="E088"):
        analyzer.nlp(text)
    analysis = analyzer.analyse([text])[0]
    analyzer.nlp.max_length = len(text)
    whole = TextAnalysis(analyzer.nlp(text))
    assert analysis.text == text
    assert analysis.sentence_texts == whole.sentence_texts
    assert analysis.noun_chunks == whole.noun_chunks and analysis.entities == whole.entities
    assert analysis.entity_polarities == whole.entity_polarities
    assert analysis.entity_polarities["berlin"] == {True, False}  # negspaCy's marks survive the joining
