"""What a text offers as evidence for a nugget: content lemmas, numbers, named entities and clauses with their polarity.

All of it is read from the spaCy parse that the shared
:class:`~pyterrier_rag_axioms.tools.text.TextAnalyzer` keeps for each distinct text (lemmas,
entities, dependency parse), so each text is parsed once per process whichever part asks.

- **Numbers** are normalised to values: ``"1,000"``, ``"one thousand"`` and ``"1 thousand"`` are
  1000, ``"two"`` is 2, ``"1.5 million"`` is 1500000, ``"1960s"`` is 1960, ``"45%"`` is 45,
  ``"nineteen sixty-nine"`` is 1969.
- **Clauses** are read from the dependency parse: a sentence's root and each verb that heads a
  conjoined, adverbial, complement or relative clause start a clause; every other token belongs
  to the clause of its nearest clause-heading ancestor.
- **Polarity**: a clause (or nugget) is negated where it holds a negation (``not``, ``n't``,
  ``never``, ``no``, ``none``, ``nothing``, ``neither``, ``nor``, ``cannot``, ...).
  negspaCy marks negated entities only; the clause's own polarity is what the assigner compares.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pyterrier_rag_axioms.tools.text.spacy_model import NAMED_ENTITY_TYPES
from pyterrier_rag_axioms.tools.text.vocabulary import is_stop_word
from pyterrier_rag_axioms.tools.text.words import content_lemma, is_negated, lemma

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

    from pyterrier_rag_axioms.tools.text import TextAnalysis

#: Dependency relations of a verb that starts a clause of its own.
CLAUSE_RELATIONS: frozenset[str] = frozenset({"conj", "advcl", "ccomp", "relcl", "parataxis", "csubj"})
#: Clauses with fewer words are merged into the clause around them.
MIN_CLAUSE_WORDS = 3

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "dozen": 12,
}
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000,
           "trillion": 1_000_000_000_000}
_DIGITS = re.compile(r"^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$")
_DECADE = re.compile(r"^(\d{2,4})'?s$")
_SUFFIXED = re.compile(r"^(\d+(?:\.\d+)?)(%|k|m|bn|st|nd|rd|th)$", re.IGNORECASE)
_SUFFIX_SCALES = {"k": 1_000, "m": 1_000_000, "bn": 1_000_000_000}


def _token_value(text: str) -> float | None:
    """The value of one number token (``"1,000"``, ``"2.5"``, ``"seven"``, ``"1960s"``, ``"5%"``), else ``None``."""
    lower = text.lower().replace("\u2212", "-")
    if _DIGITS.match(lower):
        return float(lower.replace(",", ""))
    if lower in _UNITS:
        return float(_UNITS[lower])
    if "-" in lower and all(part in _UNITS for part in lower.split("-")):  # twenty-five
        return float(sum(_UNITS[part] for part in lower.split("-")))
    match = _DECADE.match(lower) or _SUFFIXED.match(lower)
    if match:
        value = float(match.group(1))
        suffix = match.group(2).lower() if match.lastindex and match.lastindex > 1 else ""
        return value * _SUFFIX_SCALES.get(suffix, 1)
    return None


def number_values(tokens: list[Token]) -> list[float]:
    """The numbers of a token sequence, each run of number words and scales read as one value.

    ``"two thousand five hundred"`` is 2500, ``"1.5 million"`` 1500000, ``"1,000"`` 1000. Two numbers
    written in digits side by side are two numbers; a scale word alone (``"hundreds of"``) is none.
    """
    values: list[float] = []
    total = current = None  # the run's completed thousands, and the part still being read

    def flush() -> None:
        nonlocal total, current
        if total is not None or current is not None:
            values.append((total or 0.0) + (current or 0.0))
        total = current = None

    for position, token in enumerate(tokens):
        lower = token.lower_
        if lower in _SCALES:
            if current is None and total is None:
                continue
            current = (current if current is not None else 1.0) * _SCALES[lower]
            if _SCALES[lower] >= 1000:
                total, current = (total or 0.0) + current, None
            continue
        if lower == "and" and (current is not None or total is not None) and position + 1 < len(tokens) \
                and _token_value(tokens[position + 1].text) is not None:
            continue  # "one hundred and five"
        if lower == "-" and current is not None and position + 1 < len(tokens) \
                and tokens[position + 1].lower_ in _UNITS:
            continue  # "twenty-five", split by the tokenizer
        value = _token_value(token.text)
        if value is None:
            flush()
            continue
        if token.text[0].isdigit() and (current is not None or total is not None):
            flush()
        if current is not None and 10 <= current < 100 and 10 <= value < 100 and not token.text[0].isdigit():
            current = current * 100 + value  # a year read as two numbers: "nineteen sixty-nine"
        else:
            current = value if current is None else current + value
    flush()
    return [value for value in values if math.isfinite(value)]


def _clause_head(token: Token, heads: set[int], sentence: Span) -> int:
    """The index of the nearest clause-heading ancestor of a token within its sentence (itself, where
    it heads one); the sentence root's where the path up leaves the sentence or ends at another root.

    A sentence need not be one parse tree: the list marker that opens a line (``2.`` in ``2. Once
    Safari is open, type ⌘-y``) is left out of it, though the parser may have hung the line's words
    on it, and a sentence of citation markers alone is joined to the sentence before it, with its
    own root."""
    while token.i not in heads:
        head = token.head
        if head.i == token.i or not sentence.start <= head.i < sentence.end:
            return sentence.root.i
        token = head
    return token.i


def sentence_clauses(sentence: Span, is_word) -> list[list[Token]]:
    """The clauses of a sentence, each as its tokens in text order (short clauses merged into their parent's)."""
    heads = {sentence.root.i} | {
        token.i for token in sentence if token.dep_ in CLAUSE_RELATIONS and token.pos_ in ("VERB", "AUX")
    }
    while True:
        members: dict[int, list[Token]] = {head: [] for head in heads}
        for token in sentence:
            members[_clause_head(token, heads, sentence)].append(token)
        short = [head for head, tokens in members.items()
                 if head != sentence.root.i and sum(bool(is_word[t.i]) for t in tokens) < MIN_CLAUSE_WORDS]
        if not short:
            break
        heads -= set(short)
    return [members[head] for head in sorted(heads, key=lambda head: members[head][0].i)]


def _text_of(tokens: list[Token]) -> str:
    return "".join(token.text_with_ws for token in tokens).strip()


@dataclass(frozen=True)
class Passage:
    """A sentence or clause of an answer: its text, content lemmas, numbers, polarity and sentence index."""

    text: str
    lemmas: frozenset[str]
    numbers: tuple[float, ...]
    negated: bool
    sentence: int


@dataclass(frozen=True)
class TextEvidence:
    """What one text offers: its sentences and clauses, all its content lemmas, words and numbers,
    and its named entities (none where read without them: answers and queries)."""

    text: str
    sentences: tuple[Passage, ...]
    clauses: tuple[Passage, ...]
    lemmas: frozenset[str]
    words: frozenset[str]
    numbers: tuple[float, ...]
    entities: tuple[frozenset[str], ...]
    negated: bool


def _term(token: Token) -> str:
    """A content word's term: a number's value (``"three"`` and ``"3"`` are ``"3"``), else its lemma;
    ``""`` for a stop word that is no number."""
    value = _token_value(token.text) if token.pos_ == "NUM" or token.text[:1].isdigit() else None
    if value is not None:
        return f"{value:g}"
    return content_lemma(token).strip()


def content_lemmas(tokens: list[Token], is_word) -> frozenset[str]:
    """The terms (see :func:`_term`) of the words that are no stop words, numbers included."""
    return frozenset(term for token in tokens if is_word[token.i] and (term := _term(token)))


def text_evidence(analysis: TextAnalysis, *, entities: bool = True) -> TextEvidence:
    """The evidence of an analysed text (its sentences, clauses, lemmas, numbers, entities, polarity).

    Only a nugget's entities are ever compared (with an answer's words), so answers and queries
    are read with ``entities=False``: their parse then stops at the lemmatizer, and named-entity
    recognition (80 % of the CPU of spaCy's components after the parse) does not run on them.
    """
    doc = analysis.doc if entities else analysis.lemmatized
    is_word = analysis.is_word
    sentences, clauses = [], []
    for index, sentence in enumerate(analysis.sentences):
        tokens = list(sentence)
        sentences.append(Passage(_text_of(tokens), content_lemmas(tokens, is_word), tuple(number_values(tokens)),
                                 is_negated(tokens), index))
        parts = sentence_clauses(sentence, is_word)
        for part in parts if len(parts) > 1 else []:
            clauses.append(Passage(_text_of(part), content_lemmas(part, is_word), tuple(number_values(part)),
                                   is_negated(part), index))
    tokens = [token for token in doc if is_word[token.i]]
    words = frozenset(token.lower_ for token in tokens) | frozenset(lemma(token) for token in tokens)
    named = tuple(
        frozenset(token.lower_ for token in entity if is_word[token.i] and not is_stop_word(token.lower_))
        for entity in (doc.ents if entities else ())
        if entity.label_ in NAMED_ENTITY_TYPES
    )
    return TextEvidence(
        text=analysis.text,
        sentences=tuple(sentences),
        clauses=tuple(clauses),
        lemmas=content_lemmas(list(doc), is_word),
        words=words,
        numbers=tuple(number_values(list(doc))),
        entities=tuple(entity for entity in named if entity),
        negated=is_negated(list(doc)),
    )


def same_number(value: float, others: tuple[float, ...]) -> bool:
    """Whether ``value`` is among ``others`` (up to float rounding)."""
    return any(math.isclose(value, other, rel_tol=1e-9, abs_tol=1e-9) for other in others)


#: A nugget with more words than this and several atomic facts is long: the support model decides it, and its
#: spans are those of its facts (TREC 2024 RAG's nuggets have at most 10 words; passage extracts used as
#: nuggets, 31 at the median).
LONG_NUGGET_WORDS = 12


def nugget_parts(analyses: list[TextAnalysis], analyzer) -> dict[str, tuple[str, ...]]:
    """The parts each nugget is assigned by: its atomic facts
    (:func:`~pyterrier_rag_axioms.nuggets.facts.splitting.atomic_facts_of`) where it is long (more than
    :data:`LONG_NUGGET_WORDS` words) and has several, else the nugget itself."""
    from pyterrier_rag_axioms.nuggets.facts.splitting import atomic_facts_of

    parts = {analysis.text: (analysis.text,) for analysis in analyses}
    long = [analysis.text for analysis in analyses if int(analysis.is_word.sum()) > LONG_NUGGET_WORDS]
    for text, facts in zip(long, atomic_facts_of(long, analyzer=analyzer) if long else []):
        texts = tuple(dict.fromkeys(fact.text for fact in facts))
        if len(texts) > 1:
            parts[text] = texts
    return parts
