"""The string rules of atomic facts: cleaning a statement, and TREC's form of a nugget.

:func:`clean_statement` takes citation markers, Markdown, source notes, opening discourse markers,
hedges, heading prefixes and debris off a statement; :func:`trec_form_problems` names what keeps a
nugget from TREC's form. :mod:`~pyterrier_rag_axioms.nuggets.facts.splitting` cuts texts with the parse
and cleans each fact here.
"""

from __future__ import annotations

import re

from pyterrier_rag_axioms.tools.text.segmentation import CITATION_PATTERN, MARKER_PATTERN
from pyterrier_rag_axioms.tools.text.vocabulary import content_words, stem

#: Opening discourse markers, answers to yes/no questions and hedges taken off a statement
#: (case-insensitive, repeatedly).
HEDGE_PATTERN = re.compile(
    r"^(?:(?:however|additionally|furthermore|moreover|also|overall|thus|therefore|hence|finally|lastly|"
    r"first(?:ly)?|second(?:ly)?|third(?:ly)?|next|then|notably|importantly|specifically|ultimately|"
    r"generally|typically|essentially|basically|and|but|or|so|yes|no|indeed|absolutely|certainly|of course|"
    r"in (?:summary|conclusion|addition|general|short|fact|particular|brief)|"
    r"for (?:example|instance)|as a result|on the other hand|in other words|to summari[sz]e|in essence|"
    r"according to (?:the |some |several |many |recent )?(?:sources?|studies|research|experts|reports?|passages?|"
    r"documents?|context)(?: provided)?|based on (?:the )?(?:provided |given )?(?:context|information|"
    r"passages?|sources?|documents?))"
    r"\s*[,:]?\s+"
    r"|(?:it is|it's) (?:(?:also )?(?:important|worth|crucial|essential|interesting|notable) (?:to note|noting|"
    r"mentioning|to mention|to remember|to understand)|(?:widely |generally |commonly )?(?:believed|known|"
    r"reported|suggested|thought|estimated)) that\s+"
    r"|(?:some |many |several |recent |other )?(?:studies|research|researchers|experts|scientists|sources|"
    r"reports|evidence|data|surveys?) (?:has |have )?(?:suggest(?:s|ed)?|show(?:s|n|ed)?|indicate(?:s|d)?|"
    r"find|finds|found|say|says|said|believe|claims?|notes?|reveal(?:s|ed)?|demonstrate(?:s|d)?) that\s+)",
    re.IGNORECASE,
)
#: List, heading, quote and emphasis marks.
LAYOUT_PATTERN = re.compile(r"\*\*|__|`|^#+\s*|^>\s*|^\s*(?:[-*+•]|\d+[.)]|\(\d+\)|[a-z][.)])\s+", re.MULTILINE)
#: A note of a source in brackets: "(Documents 1, 5)", "[Source: WHO]", "(see passage 2)".
SOURCE_NOTE = re.compile(
    r"\b(?:documents?|docs?|sources?|passages?|refs?|references?|citations?|context|contexts|snippets?|"
    r"results?\s+\d)\b",
    re.IGNORECASE,
)
_BRACKETED = re.compile(r"\(([^()]*)\)|\[([^\[\]]*)\]")
#: A heading prefix: up to six words that open a statement and end in a colon.
HEADING_PREFIX = re.compile(r"^\W*[A-Za-z0-9][\w'’&/-]*(?:\s+[\w'’&/()-]+){0,5}\s*:\s+(?=\S)")
#: Words that may not end a statement (a clause cut before its conjoined part).
TRAILING_WORDS = re.compile(
    r"(?:[\s,;:–—]+(?:and|or|but|while|whereas|which|that|as|so|because|such as|including|like))+\s*[.,;:]*$",
    re.IGNORECASE,
)
#: Words that cannot open a statement that stands alone.
DANGLING_STARTS: frozenset[str] = frozenset({"which", "who", "whom", "whose", "whereas", "nor", "while", "etc"})
#: Verbs that report what another says or found ("Studies suggest that X").
REPORTING_VERBS: frozenset[str] = frozenset(
    {
        "suggest",
        "show",
        "indicate",
        "find",
        "say",
        "believe",
        "claim",
        "note",
        "report",
        "state",
        "reveal",
        "demonstrate",
        "argue",
        "estimate",
        "mention",
        "explain",
        "emphasize",
        "emphasise",
        "highlight",
        "confirm",
        "conclude",
        "observe",
        "propose",
        "point",
        "add",
        "know",
        "think",
    }
)
#: A statement about the answer or its sources rather than the topic ("Please check the provided
#: context", "Here are some ideas", "In this article we ...").
META_STATEMENT = re.compile(
    r"\b(?:provided|given) (?:context|documents?|passages?|sources?|search results?|information)\b"
    r"|\b(?:context|documents?|passages?|search results?) (?:provided|given|above|below)\b"
    r"|^(?:here (?:are|is)|in this (?:article|answer|response|post)|as an ai|i (?:hope|cannot|can't|don't|am))\b"
    r"|\b(?:about|to|answers?) the (?:query|question)\b",
    re.IGNORECASE,
)
#: Content words that carry no fact of their own beside a query's ("a significant effect").
GENERIC_WORDS: frozenset[str] = frozenset(
    {
        "have",
        "do",
        "be",
        "get",
        "thing",
        "way",
        "lot",
        "various",
        "several",
        "many",
        "much",
        "significant",
        "significantly",
        "important",
        "certain",
        "different",
        "other",
        "really",
        "very",
        "also",
        "indeed",
        "effect",
        "impact",
        "role",
        "factor",
        "aspect",
        "kind",
        "type",
        "number",
        "example",
        "yes",
        "no",
        "take",
        "action",
        "step",
        "measure",
        "method",
        "approach",
        "multiple",
        "numerous",
        "variety",
        "range",
    }
)
#: Emoji (pictographs, dingbats, flags, skin tones, variation selectors and joiners): no part of a statement.
EMOJI = re.compile(
    "[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\u2300-\u23ff\ufe0e\ufe0f\u200d\u20e3\U000e0020-\U000e007f]+"
)
_PAIRS = {"(": ")", "[": "]", "{": "}"}


def is_source_note(text: str) -> bool:
    """Whether the inside of a bracket is a note of a source ("Documents 1, 5", "Source: WHO")."""
    return bool(SOURCE_NOTE.search(text)) and len(text.split()) <= 8


def _balanced(text: str) -> str:
    """The text without brackets that close nothing or are never closed, and without the quote
    marks of a kind that is not balanced."""
    stack: list[int] = []
    unmatched: set[int] = set()
    for position, character in enumerate(text):
        if character in _PAIRS:
            stack.append(position)
        elif character in _PAIRS.values():
            if stack and _PAIRS[text[stack[-1]]] == character:
                stack.pop()
            else:
                unmatched.add(position)
    unmatched.update(stack)
    text = "".join(character for position, character in enumerate(text) if position not in unmatched)
    if text.count('"') % 2:
        text = text.replace('"', "")
    if text.count("“") != text.count("”"):
        text = text.replace("“", "").replace("”", "")
    return text


def plain_statement(text: str) -> str:
    """A sentence as a person reads it: without citation markers, Markdown, source notes, emoji and replacement
    characters (U+FFFD, where the text held a character no encoding takes)."""
    text = EMOJI.sub(" ", MARKER_PATTERN.sub(" ", CITATION_PATTERN.sub(" ", text))).replace("\ufffd", " ")
    text = LAYOUT_PATTERN.sub("", text)
    text = _BRACKETED.sub(lambda m: "" if is_source_note(m.group(1) or m.group(2) or "") else m.group(0), text)
    return re.sub(r"\s+([.,;:!?])", r"\1", re.sub(r"\s+", " ", text)).strip()


def clean_statement(text: str, *, close: bool = True) -> str:
    """A statement without citation markers, Markdown, source notes, opening hedges and heading
    prefixes, trailing conjunctions and debris (empty or unbalanced brackets, ``,.``), with an
    upper-case first letter and, with ``close``, a closing full stop (``""`` where nothing is left)."""
    text = plain_statement(text)
    text = re.sub(r"\(\s*\)|\[\s*\]|\{\s*\}", " ", text)
    text = re.sub(r"\s+", " ", _balanced(text))
    previous = None
    while previous != text:
        previous = text
        text = text.strip(" \t\n,;:-–—.!?·•*|/")
        text = HEDGE_PATTERN.sub("", text)
        if HEADING_PREFIX.match(text) and len(HEADING_PREFIX.sub("", text).split()) >= 3:
            text = HEADING_PREFIX.sub("", text)
    text = TRAILING_WORDS.sub("", text).strip(" ,;:-–—")
    text = re.sub(r"\s+([.,;:!?%)\]])", r"\1", text)
    text = re.sub(r"([(\[])\s+", r"\1", text)
    text = re.sub(r"[,;:]+\s*([.!?])", r"\1", text)
    text = re.sub(r"[,;:]+$", "", text).strip()
    if not text or not any(character.isalnum() for character in text):
        return ""
    if text.split()[0].lower().strip(",") in DANGLING_STARTS:
        return ""
    if close and text[-1] not in ".!?":
        text += "."
    return text[0].upper() + text[1:]


def trec_form_problems(nugget: str, query: str | None = None) -> list[str]:
    """What keeps a nugget from TREC's form (empty: it is in form). A nugget fails where it:

    - ``"debris"``: carries empty brackets, citation marks like ``[1]`` or ``[0, 2]``, a source note
      in brackets, ``,.``, a leading punctuation mark, or unbalanced brackets or quotes;
    - ``"heading prefix"``: starts with a heading prefix (``Title Words: ...``);
    - ``"restates the query"``: has fewer than two content words beyond the query's;
    - ``"too long"``: runs past 25 words.

    A noun phrase ("Poor treatment of workers") is in form.
    """
    problems = []
    stripped = nugget.strip()
    unbalanced = _balanced(stripped) != stripped
    notes = any(is_source_note(m.group(1) or m.group(2) or "") for m in _BRACKETED.finditer(stripped))
    if (
        re.search(r"\(\s*\)|\[\s*\]|\{\s*\}|,\s*\.", stripped)
        or CITATION_PATTERN.search(stripped)
        or notes
        or unbalanced
        or not stripped
        or not (stripped[0].isalnum() or stripped[0] in "$£€")
    ):
        problems.append("debris")
    if HEADING_PREFIX.match(stripped):
        problems.append("heading prefix")
    known = {stem(word, rule="suffixes") for word in content_words(query or "", rule="ascii")}
    if len({stem(word, rule="suffixes") for word in content_words(stripped, rule="ascii")} - known) < 2:
        problems.append("restates the query")
    if len(stripped.split()) > 25:
        problems.append("too long")
    return problems
