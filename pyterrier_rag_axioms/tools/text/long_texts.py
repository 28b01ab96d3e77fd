"""Parsing long texts in pieces, so that memory stays bounded whatever the length of a text.

spaCy's memory grows with the length of the text it parses at once (about 3 GiB more for a
1,000,000-character text with ``en_core_web_sm``), and it refuses texts over ``nlp.max_length``.
A text longer than :data:`PIECE_LENGTH` characters is therefore cut into pieces, preferably after
a paragraph break, else after a line break before a line that starts a segment (a list item, a
table row; not a wrapped line), else after the end of a sentence with the citation markers that
close it, else at whitespace; each piece is parsed on
its own by the whole pipeline, and the parsed pieces are joined into one ``Doc`` whose text is
exactly the original text. A cut is always a sentence boundary.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from pyterrier_rag_axioms.tools.text.segmentation import MARKER_PATTERN

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

#: Texts longer than this (in characters) are parsed in pieces of at most this length.
PIECE_LENGTH = 20_000

#: Where a piece may end, best first: after a paragraph break, a line break, a sentence end (with
#: the citation markers after it: ``... in 1889. [2]``), any whitespace.
_CUTS = (
    re.compile(r"\n[ \t]*\n\s*"),
    re.compile(r"\n\s*(?![a-z])"),  # not before a lower-case letter: a wrapped line continues its sentence
    re.compile(rf"[.!?][\"'\u201d\u2019)\]*_]*(?:[ \t]*(?:{MARKER_PATTERN.pattern}))*\s+"),
    re.compile(r"\s+"),
)


def split_text(text: str, piece_length: int = PIECE_LENGTH) -> list[str]:
    """Cut ``text`` into pieces of at most ``piece_length`` characters that join to ``text``.

    A piece ends at the last paragraph break in the second half of its window, else at the last
    line break before a segment there, else at the last sentence end, else at the last whitespace,
    else (one very long word) at the window's end.
    """
    if piece_length < 2:
        raise ValueError(f"piece_length must be at least 2, not {piece_length!r}")
    pieces = []
    start = 0
    while len(text) - start > piece_length:
        end = start + piece_length
        window_start = start + piece_length // 2
        cut = end
        for pattern in _CUTS:
            ends = [match.end() for match in pattern.finditer(text, window_start, end)]
            if ends:
                cut = ends[-1]
                break
        pieces.append(text[start:cut])
        start = cut
    pieces.append(text[start:])
    return pieces


def _parsed_pieces(nlp: Language, pieces: list[str]) -> Iterator[Doc]:
    for piece in pieces:  # one at a time: the memory of a batch grows with its total length
        doc = nlp(piece)
        doc.tensor = np.zeros((0,), dtype="float32")  # token vectors are not needed later
        yield doc


def parse_in_pieces(nlp: Language, text: str, *, piece_length: int = PIECE_LENGTH) -> Doc:
    """Parse a long text piece by piece (see :func:`split_text`) with the whole pipeline, into one ``Doc``."""
    from spacy.tokens import Doc
    docs = list(_parsed_pieces(nlp, split_text(text, piece_length)))
    doc = Doc.from_docs(docs, ensure_whitespace=False)
    doc.tensor = np.zeros((0,), dtype="float32")
    return doc
