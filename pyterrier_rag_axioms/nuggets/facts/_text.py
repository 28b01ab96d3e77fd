"""What the atomic-fact splitter (:mod:`~pyterrier_rag_axioms.nuggets.facts.splitting`) reads and gives:
the text made readable with every offset kept, the facts of scripts it cannot parse, and the fact."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pyterrier_rag_axioms.nuggets.facts._rules import clean_statement, plain_statement


@dataclass(frozen=True)
class AtomicFact:
    """One self-contained statement cut from a text.

    ``start``/``end``: the character span, in the input text, from the first to the last source
    word the fact was built from; ``sentence``: the source sentence, without citation markers and
    Markdown."""

    text: str
    start: int
    end: int
    sentence: str


#: Characters of scripts written without spaces between words (Chinese, Japanese, Thai, ...).
_UNSPACED = re.compile(
    r"[\u0e00-\u0eff"  # Thai, Lao
    r"\u1000-\u109f\u1780-\u17ff"  # Myanmar, Khmer
    r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"  # kana, CJK ideographs
)
#: A sentence of such a script: up to its closing mark (or a line break).
_UNSPACED_SENTENCE = re.compile(r"[^\n。！？!?]+[。！？!?]*")
#: A surrogate code point: a half of a UTF-16 pair alone, which no encoding takes.
_SURROGATE = re.compile(r"[\ud800-\udfff]")
#: A Markdown table's rule line ("|---|:--:|").
_TABLE_RULE = re.compile(r"^[ \t]*\|?(?:[ \t]*:?-{3,}:?[ \t]*\|)+(?:[ \t]*:?-{3,}:?[ \t]*)?$", re.MULTILINE)
#: A Markdown table's row: a line that opens with ``|`` or holds at least two cell borders.
_TABLE_ROW = re.compile(r"^[ \t]*\|.*$|^[^|\n]*\|[^|\n]*\|.*$", re.MULTILINE)


def readable_text(text: str) -> str:
    """The text as the splitter reads it, of the same length, so that every offset holds: a lone surrogate (which
    no encoding takes) becomes U+FFFD, a Markdown table's rule lines become blank and its cell borders line
    breaks, so that each cell is read on its own, never glued to the next."""
    text = _SURROGATE.sub("\ufffd", text)
    if "|" not in text:
        return text
    text = _TABLE_RULE.sub(lambda match: " " * len(match.group()), text)
    return _TABLE_ROW.sub(lambda match: match.group().replace("|", "\n"), text)


def _is_unspaced(text: str) -> bool:
    """Whether most letters of a text are of a script without word separators, which the English parse cannot cut."""
    letters = sum(character.isalpha() for character in text)
    return bool(letters) and len(_UNSPACED.findall(text)) * 2 > letters


def _sentence_facts(text: str) -> list[AtomicFact]:
    """The sentences of a text in a script without word separators, each one fact (the parse cannot cut them)."""
    facts: dict[str, AtomicFact] = {}
    for match in _UNSPACED_SENTENCE.finditer(text):
        sentence = plain_statement(match.group())
        fact = clean_statement(sentence, close=False)
        if fact and any(character.isalpha() for character in fact):
            start = match.start() + len(match.group()) - len(match.group().lstrip())
            end = match.start() + len(match.group().rstrip())
            facts.setdefault(fact, AtomicFact(fact, start, end, sentence))
    return list(facts.values())
