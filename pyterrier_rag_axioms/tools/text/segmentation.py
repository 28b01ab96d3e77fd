"""Responses as language models write them: lines, list items, headings and citation markers.

Generated answers are rarely plain prose. They come as Markdown bullet lists, numbered steps,
headings and short lines, with citation markers such as ``[2]`` or ``[0,1,2]`` before or after
the full stop, or glued to a word (``kidneys[10].``). This module reads that layout from the
raw text (regular expressions, no model) and puts it into a spaCy pipeline:

- **Tokens.** :func:`adapt_tokenizer` makes every citation marker and mark of a source one token,
  also where it is glued to a word or to the full stop before it (``kidneys[10].`` -> ``kidneys``,
  ``[10]``, ``.``; ``kidneys.[1, 2]``; ``helps.[^1]``; ``helps¹²``), and splits emphasis marks,
  HTML tags, character entities and table pipes from words.
- **Segments.** A segment is a line, a list item or a heading: :func:`segment_starts` gives the
  character offset where each begins. A new segment starts at every non-blank line (``<br>`` and
  ``</p>`` end a line too), except a line that continues the one before: no blank line between,
  no list or heading marker, the line before is no heading, and the line starts with a
  lower-case letter (a wrapped line). Each line of a fenced code block is a segment of its own.
- **Markup.** :func:`markup_spans` gives the list markers (``-``, ``*``, ``+``, ``•``, ``1.``,
  ``1)``, ``(1)``, ``a)``, ``a.``, ``iv.``, also after ``**``), heading marks (``#`` to ``######``,
  with a section number) and quote marks (``>``) that open a line, and the lines of fenced code.
  They are layout, not words.
- **Citations.** :func:`citation_spans` gives the citation markers, :func:`marker_spans` those and
  the other marks of a source (``[^1]``, ``¹``, ``<sup>1</sup>``). A marker that follows the
  sentence's closing punctuation (``... in 1889. [2] It is tall.``) closes that sentence.
- **Formatting.** :func:`format_spans` gives HTML tags, character entities and emphasis marks: no
  words, and glued to a full stop they stay with its sentence.
- **Links.** :func:`link_spans` gives web addresses, bare or as a Markdown link's target
  (``[text](https://...)``, whose text stays words). They are references, not words.

The pipeline component :func:`segment_doc` (``"rag_axioms_segmenter"``, added first by
:func:`add_segmentation`) sets ``is_sent_start`` before the parser runs: a segment's first token
starts a sentence, the tokens of a marker and the first word after it do not, nor does a
citation marker after closing punctuation, while the word after that marker does. Within a
segment a sentence can start only after closing punctuation (``.``, ``!``, ``?``, ``…``, perhaps
followed by a closing quote or bracket), so a short list item ("- better sleep") is never split;
the parser respects these boundaries and decides among the remaining candidates (it does not
split after "e.g.").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # spaCy is imported only where a pipeline is adapted
    from spacy.language import Language
    from spacy.tokens import Doc, Token

#: One citation marker: ``[1]``, ``[0,1,2]``, ``[1-3]``, ``[1, 2]`` (``[1][2]`` is two markers).
CITATION_PATTERN = re.compile(r"\[\s*\d+(?:\s*[,;\-\u2013]\s*\d+)*\s*\]")

#: A web or email address: ``https://...``, ``http://...``, ``www....``, ``mailto:...`` or
#: ``name@example.org``, without the punctuation that ends the sentence or closes a bracket after it
#: (parentheses are not taken to be part of an address).
LINK_PATTERN = re.compile(
    r"(?:\bhttps?://|\bwww\.|\bmailto:)[^\s<>\"'\[\]()]*[^\s<>\"'\[\]().,;:!?]"
    r"|(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}\b"
)

#: Other marks of a source: a Markdown footnote ``[^1]``, superscript numbers ``¹²`` or ``¹,²`` after
#: a word of three or more letters, a space or punctuation (``10⁶`` and ``m²`` are exponents), an
#: HTML ``<sup>1</sup>``, a labelled reference ``[Source 1]`` / ``[doc2]``, and the marks of chat
#: assistants ``【4:0†source】`` and ``[1†source]``. Like citation markers they are no words and may
#: close a sentence, but they do not number the context's passages (CORR1 to CORR3 read
#: :data:`CITATION_PATTERN` only; CORR4 counts both).
_SUPERSCRIPT_DIGITS = "[\u00b9\u00b2\u00b3\u2070\u2074-\u2079]"
FOOTNOTE_PATTERN = re.compile(
    rf"\[\^[^\]\s]{{1,20}}\]|(?:(?<=[A-Za-z]{{3}})|(?<=[\s.,;:!?)\]\"'\u201d]))"
    rf"{_SUPERSCRIPT_DIGITS}+(?:,{_SUPERSCRIPT_DIGITS}+)*|<sup>[^<>]{{1,20}}</sup>"
    r"|(?i:\[(?:source|doc|document|passage|ref|reference)s?\s*\d+[^\]\n]{0,30}\])"
    r"|\u3010[^\u3010\u3011\n]{1,40}\u3011|\[\d+(?::\d+)?\u2020[^\]\n]{0,30}\]"
)
#: A citation marker or another mark of a source.
MARKER_PATTERN = re.compile(f"{CITATION_PATTERN.pattern}|{FOOTNOTE_PATTERN.pattern}")

#: Inline formatting that is no word: HTML tags (``<br>``, ``</p>``), character entities (``&amp;``)
#: and Markdown emphasis (``**``, ``__``, ``*``, ``_``) at a word's edge.
_HTML_TAG = (
    r"</?(?i:br|p|div|span|b|i|u|s|em|strong|mark|small|sup|sub|li|ul|ol|h[1-6]|a|code|pre|blockquote|hr"
    r"|table|thead|tbody|tr|td|th)\s*/?>"
)
_ENTITY = r"&(?:[A-Za-z]{2,8}|#\d{1,6});"
FORMAT_PATTERN = re.compile(
    rf"{_HTML_TAG}|{_ENTITY}|(?<![\w*])[*_]{{1,3}}(?=[^\s*_])|(?<=[^\s*_])[*_]{{1,3}}(?![\w*])"
)
#: HTML that ends a line: ``<br>``, ``</p>``, ``</li>``, ``</div>``.
_LINE_BREAK_TAG = r"<br\s*/?>|</(?:p|li|div)>"
#: Emphasis marks as tokenizer affixes (``**Caffeine:**`` -> ``**``, ``Caffeine``, ``:``, ``**``).
_EMPHASIS = r"\*{1,3}|_{1,3}"

#: Where a Markdown link's text ends and its address begins: ``[text](https://...)``.
LINK_TARGET_OPENING = r"\]\("

_ROMAN = r"(?=[ivx])x{0,2}(?:ix|iv|v?i{0,3})"
_CAPITAL_ROMAN = r"(?=[IVX])X{0,2}(?:IX|IV|V?I{0,3})"
#: A list marker: a bullet; a number with ``.`` or ``)``; a letter or Roman numeral in lower case with
#: ``.`` or ``)``; a capital letter or Roman numeral with ``)``, or a capital Roman numeral of two or
#: more letters with ``.`` (``II.``; ``E. coli`` and ``A. Smith`` start with initials); followed by a space.
LIST_MARKER = (
    r"(?:[-*+\u2022\u2023\u2043\u2219\u25aa\u25cf\u25e6]|\d{1,3}[.)]|\(\d{1,3}\)|\(?[a-zA-Z]\)|[a-z]\."
    rf"|{_ROMAN}[.)]|\(?{_CAPITAL_ROMAN}\)|(?=[IVX]{{2}}){_CAPITAL_ROMAN}\.)"
)
#: A Markdown heading mark, perhaps with a section number (``### 1.``, ``## 2.3``), followed by a space.
HEADING_MARKER = r"#{1,6}"
_SECTION_NUMBER = r"(?:\d{1,3}(?:\.\d{1,3})*[.)]|\d{1,3}(?:\.\d{1,3})+)"

_MARKUP = re.compile(
    rf"^[ \t]*(?P<markup>(?:>[ \t]*)*(?:(?P<heading>{HEADING_MARKER})(?:[ \t]+{_SECTION_NUMBER})?"
    rf"|(?:(?:\*\*|__)(?=\S))?{LIST_MARKER})?)(?=[ \t]|$)",
    re.MULTILINE,
)
#: A line: up to a line break, or up to and with an HTML tag that ends a line.
_LINE = re.compile(rf"(?:[^\n<]|(?!{_LINE_BREAK_TAG})<)*(?:\n|{_LINE_BREAK_TAG}|$)")
#: A fenced code block's fence: three or more backticks or tildes.
_FENCE = re.compile(r"[ \t]*(?:```|~~~)")
#: A line that opens with inline code closed on the same line (```` ```ls``` lists files ````): no fence.
_INLINE_CODE = re.compile(r"[ \t]*(```|~~~)[^`~\n]*\1")
_CLOSING = frozenset(".!?\u2026")
#: What may follow closing punctuation and still belong to its sentence: closing quotes and
#: brackets, and emphasis marks (``**Coffee is healthy.** It ...``).
_CLOSING_QUOTES = frozenset({*"\"'\u201d\u2019)", "*", "**", "***", "_", "__", "___"})

#: The name of the pipeline component that sets sentence starts from the segments.
SEGMENTER = "rag_axioms_segmenter"


def citation_spans(text: str) -> list[tuple[int, int]]:
    """The character spans ``[start, end)`` of the citation markers in ``text``."""
    return [match.span() for match in CITATION_PATTERN.finditer(text)]


def marker_spans(text: str) -> list[tuple[int, int]]:
    """The character spans of citation markers and other marks of a source (:data:`MARKER_PATTERN`)."""
    return [match.span() for match in MARKER_PATTERN.finditer(text)]


def format_spans(text: str) -> list[tuple[int, int]]:
    """The character spans of HTML tags, character entities and emphasis marks (:data:`FORMAT_PATTERN`)."""
    return [match.span() for match in FORMAT_PATTERN.finditer(text)]


def link_spans(text: str) -> list[tuple[int, int]]:
    """The character spans of web and email addresses, bare or as the target of a Markdown link."""
    return [match.span() for match in LINK_PATTERN.finditer(text)]


def _lines(text: str) -> list[tuple[int, str]]:
    """Each line of ``text`` with its offset, without its line break."""
    return [(match.start(), match.group().rstrip("\n")) for match in _LINE.finditer(text) if match.group()]


@functools.lru_cache(maxsize=4096)
def _layout(text: str) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    starts: list[int] = []
    markup: list[tuple[int, int]] = []
    previous_heading = False
    previous_blank = True
    in_code = False
    for offset, line in _lines(text):
        if not line.strip():
            previous_blank = True
            continue
        fence = _FENCE.match(line) is not None and not _INLINE_CODE.match(line)
        if fence or in_code:  # a fenced code block: each line a segment of markup alone, no words
            start = offset + len(line) - len(line.lstrip())
            starts.append(start)
            markup.append((start, offset + len(line.rstrip())))
            in_code = in_code != fence
            previous_blank = True
            continue
        match = _MARKUP.match(line)
        marked = match is not None and bool(match.group("markup").strip())
        content = line[match.end() :] if marked else line
        stripped = content.lstrip()
        continues = not (previous_blank or previous_heading or marked) and stripped[:1].islower()
        if not continues:
            starts.append(offset + len(line) - len(line.lstrip()))
        if marked and stripped:
            start = offset + len(line) - len(line.lstrip())
            markup.append((start, offset + match.end()))
        previous_heading = marked and match.group("heading") is not None
        previous_blank = False
    return tuple(starts), tuple(markup)


def segment_starts(text: str) -> list[int]:
    """The character offset of the first non-blank character of each segment (line, list item, heading)."""
    return list(_layout(text)[0])


def markup_spans(text: str) -> list[tuple[int, int]]:
    """The character spans of list, heading and quote markers that open a line (lines with text after them)."""
    return list(_layout(text)[1])


def segments(text: str) -> list[str]:
    """The text of each segment, with its markers, stripped (for inspection; sentences come from spaCy)."""
    starts = segment_starts(text)
    return [text[start:end].strip() for start, end in zip(starts, [*starts[1:], len(text)])]


def _token_mask(doc: Doc, spans_of: Callable[[str], list[tuple[int, int]]], text: str | None) -> np.ndarray:
    """Whether each token of ``doc`` overlaps one of the character spans that ``spans_of`` finds in its
    text: ``text`` where the caller has it (spaCy joins a doc's tokens again at every ``doc.text``)."""
    mask = np.zeros(len(doc), dtype=bool)
    for start, end in spans_of(doc.text if text is None else text):
        span = doc.char_span(start, end, alignment_mode="expand")
        if span is not None:
            mask[span.start : span.end] = True
    return mask


def citation_mask(doc: Doc, text: str | None = None) -> np.ndarray:
    """Whether each token of ``doc`` is (part of) a citation marker or another mark of a source."""
    return _token_mask(doc, marker_spans, text)


def format_mask(doc: Doc, text: str | None = None) -> np.ndarray:
    """Whether each token of ``doc`` is (part of) an HTML tag, a character entity or an emphasis mark."""
    return _token_mask(doc, format_spans, text)


def link_mask(doc: Doc, text: str | None = None) -> np.ndarray:
    """Whether each token of ``doc`` is (part of) a web or email address."""
    return _token_mask(doc, link_spans, text)


def markup_mask(doc: Doc, text: str | None = None) -> np.ndarray:
    """Whether each token of ``doc`` is (part of) a list, heading or quote marker."""
    return _token_mask(doc, markup_spans, text)


def _first_token_at(doc: Doc, offset: int) -> int | None:
    span = doc.char_span(offset, offset + 1, alignment_mode="expand")
    return None if span is None or len(span) == 0 else span.start


def segment_doc(doc: Doc) -> Doc:
    """Set sentence starts from segments, markers and citations (before the parser; see the module).

    The starts are decided in an array (1 starts a sentence, -1 does not, 0 leaves it to the parser)
    and written once: spaCy's ``Token.is_sent_start`` setter scans the whole text each time, which
    made this component quadratic in the length of a text."""
    if len(doc) == 0:
        return doc
    from spacy.attrs import SENT_START

    text = doc.text
    markup = markup_mask(doc, text)
    citation = citation_mask(doc, text)
    formatting = format_mask(doc, text)
    starts = doc.to_array(SENT_START).astype(np.int64)
    segment_firsts = set()
    for offset in segment_starts(text):
        first = _first_token_at(doc, offset)
        if first is None:
            continue
        segment_firsts.add(first)
        if first > 0:
            starts[first] = 1
        following = first  # the marker's tokens and the first word after them stay together
        while following < len(doc) and (markup[following] or doc[following].is_space):
            following += 1
        starts[first + 1 : following + 1] = -1
    index = 1
    while index < len(doc):
        if not citation[index] or citation[index - 1] or index in segment_firsts:
            index += 1
            continue
        end = index  # a group of markers: [1][2], [1], [2]
        while end < len(doc) and (
            citation[end] or (doc[end].text in {",", ";"} and end + 1 < len(doc) and citation[end + 1])
        ):
            end += 1
        before = index - 1
        while before > 0 and doc[before].text in _CLOSING_QUOTES:
            before -= 1
        if doc[before].text[-1:] in _CLOSING:
            starts[index:end] = -1
            following = end
            while following < len(doc) and doc[following].is_space:
                following += 1
            opens = following < len(doc) and (not doc[following].is_punct or formatting[following])
            if opens and following not in segment_firsts:
                starts[following] = 1
        index = end
    for index in range(2, len(doc)):  # "helps [1].Tea": a capitalised word after a marker's full stop starts one
        if citation[index - 2] and doc[index - 1].text in _CLOSING and doc[index].is_title:
            starts[index] = 1
    for index in range(1, len(doc)):  # within a segment, a sentence starts only after closing punctuation
        if index in segment_firsts or starts[index] == 1 or doc[index].is_space:
            continue
        glued = doc[index - 1].text[-1:] in _CLOSING and not doc[index - 1].whitespace_
        if glued and _closes(doc[index], formatting[index]):
            starts[index] = -1
            continue
        before = index - 1
        while before > 0 and (
            doc[before].is_space or _closes(doc[before], formatting[before])
        ):
            before -= 1
        if doc[before].text[-1:] not in _CLOSING:
            starts[index] = -1
    doc.from_array([SENT_START], starts.astype(np.uint64))
    return doc


def _closes(token: Token, is_format: bool) -> bool:
    """Whether a token after a full stop belongs to the sentence it ends: a closing quote or bracket,
    an emphasis mark or a closing tag ("healthy.**", "healthy.</b>", "healthy.<br>"), not a tag that
    opens the next one ("healthy.<b>Tea")."""
    text = token.text
    opening_tag = text.startswith("<") and not text.startswith("</") and not text.lower().startswith("<br")
    return text in _CLOSING_QUOTES or (is_format and not opening_tag)


def adapt_tokenizer(nlp: Language) -> None:
    """Make every citation marker and mark of a source one token of ``nlp``'s tokenizer, also where
    it is glued to a word (``kidneys[1, 2].``, ``helps.[^1]``, ``helps¹²``); split off emphasis
    marks, HTML tags, character entities and table pipes (``**Caffeine:**``, ``one<br>two``,
    ``|Drug|Dose|``); and split a Markdown link's text from its address (``scattering](https://...``
    -> ``scattering``, ``](``, ``https://...``)."""
    from spacy.util import compile_infix_regex, compile_prefix_regex, compile_suffix_regex

    # spaCy anchors each affix with ^ or $ as it stands: alternatives need a group of their own
    affixes = [f"(?:{affix})" for affix in (CITATION_PATTERN.pattern, FOOTNOTE_PATTERN.pattern, _HTML_TAG, _ENTITY,
                                            _EMPHASIS, r"\|")]
    # a mark glued to a word (and to its full stop) where a space splits it: "kidneys.[1, 2]",
    # "helps.<br>It", "one|two"; infixes are not split again, so the full stop is an infix too
    bracket = r"\[(?=\s*\d|\^|(?i:source|doc|document|passage|ref|reference)s?(?:\s|\d|$))"
    mark = rf"{bracket}|<(?=/?[A-Za-z])|{_SUPERSCRIPT_DIGITS}|\u3010"
    glued = [LINK_TARGET_OPENING, rf"(?<=\w)[.!?](?={mark})", r"(?<=\])[.!?](?=[A-Z])", bracket, "\u3010",
             _HTML_TAG, _ENTITY, r"\|"]
    # what is left of "[1].Tea" once the marker is split off: ".Tea" -> ".", "Tea" (not ".NET")
    prefixes = [*affixes, r"[.!?](?=[A-Z][a-z])", *(nlp.Defaults.prefixes or ())]
    if nlp.tokenizer.prefix_search.__self__.pattern != compile_prefix_regex(prefixes).pattern:
        nlp.tokenizer.prefix_search = compile_prefix_regex(prefixes).search
        after_mark = rf"(?<={_SUPERSCRIPT_DIGITS})[.,;:!?]"  # "helps¹." -> "helps", "¹", "."
        suffixes = [*affixes, after_mark, *(nlp.Defaults.suffixes or ())]
        nlp.tokenizer.suffix_search = compile_suffix_regex(suffixes).search
        nlp.tokenizer.infix_finditer = compile_infix_regex([*glued, *(nlp.Defaults.infixes or ())]).finditer


def add_segmentation(nlp: Language) -> Language:
    """Adapt ``nlp``'s tokenizer to citation markers and add :func:`segment_doc` before every other component."""
    from spacy.language import Language

    adapt_tokenizer(nlp)
    if not Language.has_factory(SEGMENTER):
        Language.component(SEGMENTER, func=segment_doc)
    if SEGMENTER not in nlp.pipe_names:
        nlp.add_pipe(SEGMENTER, first=True)
    return nlp
