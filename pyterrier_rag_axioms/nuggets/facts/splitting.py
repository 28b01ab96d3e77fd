"""Atomic facts: a text cut into short, self-contained statements, each with its source span.

:func:`atomic_facts` (one text) and :func:`atomic_facts_of` (many, parsed in one batch by the
shared :class:`~pyterrier_rag_axioms.tools.text.TextAnalyzer`) read spaCy's dependency parse of
each sentence and apply these rules, in order:

1. **Layout and sources.** Citation markers (``[1]``, ``[0, 2]``), other marks of a source, links,
   Markdown (list, heading and emphasis marks), emoji and source notes in brackets (``(Documents 1,
   5)``) are taken off. A heading line, and a heading prefix (``Other Uses: ...``), give no fact.
   A Markdown table's cells are read one by one (its rule lines not at all), never glued together.
2. **Lead-ins.** A line ending in ``:`` is a lead-in; a list item under it that cannot stand
   alone (no verb with a subject) is completed by it (``Exercise improves:`` / ``- sleep`` gives
   "Exercise improves sleep.").
3. **Hedges and attributions.** "Studies suggest that X", "A 2019 survey found that X" and "It is
   important to note that X" give X; "According to experts, X" gives X; a hedge with no fact
   ("Some research has shown.") gives nothing. Opening discourse markers ("However,", "Yes,")
   are taken off (:data:`HEDGE_PATTERN`).
4. **Coordinated clauses** ("X rose and Y fell", "X rose and then fell") give one fact each; a
   clause without its own subject borrows the first clause's subject and auxiliaries.
5. **Enumerations** in an object or complement ("X supports A, B, and C") give one fact per item
   ("X supports A.", "X supports B.", ...); enumerations of subjects are kept whole, and so are
   verbs of one infinitive where a later one has no "to" of its own ("refuse to buy X and
   encourage Y": which verb it continues is unsure), nouns whose last carries an infinitive
   complement that completes them all ("ability and desire to search") and verbs that share a
   preposition's object ("search for or receive information").
6. **Pronouns.** A fact that opens with a personal pronoun (``It``, ``They``, ``Its`` ...) takes
   the subject of the sentence before instead; where that is no noun phrase, the fact is dropped.
   ``This``/``That`` as a subject (an event, not a thing) drops the fact; as a determiner
   (``This method``) it becomes ``The``.
7. **Restated queries.** With ``query``, a fact with fewer than two content words beyond the
   query's (words such as "significant" or "effect" do not count) only restates it and is dropped.

Where a rule is unsure (a split would leave a part of fewer than three words, or without a verb
in a clause split), the sentence is kept whole. A text in a script without word separators
(Chinese, Japanese, Thai, ...), which the English parse cannot cut, gives its sentences as facts.
A lone surrogate (half of a UTF-16 pair, which no encoding takes) is read as U+FFFD and left out
of the fact; every span still points into the text as given. The output is deterministic: the same text and
query give the same facts, in text order, each text once.

:func:`trec_form_problems` tells whether a nugget is in TREC's form (see its docstring); the
extractor's nuggets and the facts are checked with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pyterrier_rag_axioms.nuggets.facts._rules import (
    GENERIC_WORDS,
    META_STATEMENT,
    REPORTING_VERBS,
    clean_statement,
    is_source_note,
    plain_statement,
    trec_form_problems,
)
from pyterrier_rag_axioms.nuggets.facts._syntax import SUBJECTS as _SUBJECTS
from pyterrier_rag_axioms.nuggets.facts._syntax import Syntax, subtree
from pyterrier_rag_axioms.nuggets.facts._text import AtomicFact, _is_unspaced, _sentence_facts, readable_text
from pyterrier_rag_axioms.tools.text.words import content_lemma

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

    from pyterrier_rag_axioms.tools.text.analysis import TextAnalysis
    from pyterrier_rag_axioms.tools.text.analyzer import TextAnalyzer

__all__ = ["AtomicFact", "atomic_facts", "atomic_facts_of", "in_trec_form", "trec_form_problems"]

_PERSONAL = frozenset({"it", "they", "he", "she"})
_POSSESSIVE = frozenset({"its", "their", "his", "her"})
_DEMONSTRATIVE = frozenset({"this", "that", "these", "those"})
#: The most facts one sentence gives (enumerations within enumerations stop there).
MAX_FACTS_PER_SENTENCE = 12


@dataclass(frozen=True)
class _Subject:
    """A sentence's subject, for a pronoun that refers to it: its text, content terms and tokens."""

    text: str
    terms: frozenset[str]
    indices: tuple[int, ...]


def in_trec_form(nugget: str, query: str | None = None) -> bool:
    """Whether a nugget is in TREC's form (no problem of :func:`trec_form_problems`)."""
    return not trec_form_problems(nugget, query)


def atomic_facts(text: str, *, query: str | None = None, analyzer: TextAnalyzer | None = None) -> list[AtomicFact]:
    """The atomic facts of one text, in text order (see the module); ``query``: drop what only
    restates it; ``analyzer``: the spaCy analyzer (default: the shared one)."""
    return atomic_facts_of([text], query=query, analyzer=analyzer)[0]


def atomic_facts_of(
    texts: Sequence[str], *, query: str | None = None, analyzer: TextAnalyzer | None = None
) -> list[list[AtomicFact]]:
    """The atomic facts of each text (see :func:`atomic_facts`), the texts parsed in one batch.

    Raises:
        TypeError: a text (or the query) is not a string.
    """
    for position, text in enumerate([*texts, *([query] if query is not None else [])]):
        if not isinstance(text, str):
            raise TypeError(f"atomic_facts: text {position} is a {type(text).__name__}, not a string")
    if analyzer is None:
        from pyterrier_rag_axioms.tools.text.analyzer import text_analyzer

        analyzer = text_analyzer()
    readable = {text: readable_text(text) for text in dict.fromkeys([*texts, *([query] if query else [])])}
    unspaced = {text for text in readable if _is_unspaced(text)}
    distinct = list(dict.fromkeys(readable[text] for text in readable if text not in unspaced))
    analyses = dict(zip(distinct, analyzer.analyse(distinct)))
    query_terms = (
        _terms(analyses[readable[query]], list(analyses[readable[query]].lemmatized))
        if query and query not in unspaced
        else frozenset()
    )
    found: dict[str, list[AtomicFact]] = {}
    for text in dict.fromkeys(texts):
        if not text.strip():
            found[text] = []
        elif text in unspaced:
            found[text] = _sentence_facts(readable[text])
        else:
            found[text] = _Splitter(analyses[readable[text]], query_terms, analyzer).facts()
    return [list(found[text]) for text in texts]


def _terms(analysis: TextAnalysis, tokens: Sequence[Token]) -> frozenset[str]:
    """The content terms (lower-cased lemmas of words that are no stop words) of some tokens."""
    is_word = analysis.is_word
    return frozenset(term for token in tokens if is_word[token.i] and (term := content_lemma(token)))


class _Splitter:
    """The rules of the module, applied to one analysed text."""

    def __init__(self, analysis: TextAnalysis, query_terms: frozenset[str], analyzer: TextAnalyzer):
        self.analysis = analysis
        self.analyzer = analyzer
        self.doc = analysis.lemmatized
        self.query_terms = query_terms
        self.is_word = analysis.is_word
        self.syntax = Syntax(self.doc, self.is_word)  # the clause and enumeration rules on this parse
        self.hidden = analysis.citations | analysis.links | analysis.formatting | analysis.markup
        self.antecedent: _Subject | None = None  # the last sentence's subject

    # --- text of token sets --------------------------------------------------------------------

    def text_of(self, indices: Sequence[int]) -> str:
        """The text of some tokens in text order; a gap (a left-out token) reads as one space."""
        ordered = sorted(indices)
        parts = []
        for index, following in zip(ordered, [*ordered[1:], None]):
            token = self.doc[index]
            gap = following is not None and (following > index + 1 or bool(token.whitespace_))
            parts.append(token.text + (" " if gap else ""))
        return "".join(parts)

    def offsets_of(self, indices: Sequence[int]) -> tuple[str, list[int]]:
        """:meth:`text_of`, and the offset in the analysed text of each of its characters."""
        text, offsets = "", []
        ordered = sorted(indices)
        for index, following in zip(ordered, [*ordered[1:], None]):
            token = self.doc[index]
            text += token.text
            offsets.extend(range(token.idx, token.idx + len(token.text)))
            if following is not None and (following > index + 1 or bool(token.whitespace_)):
                text += " "
                offsets.append(token.idx + len(token.text))
        return text, offsets

    def words(self, indices: Sequence[int]) -> int:
        return self.syntax.words(indices)

    # --- the text ------------------------------------------------------------------------------

    def facts(self) -> list[AtomicFact]:
        facts: dict[str, AtomicFact] = {}
        lead_in: list[int] | None = None
        for sentence in self.analysis.sentences:
            kept = [t.i for t in sentence if not self.hidden[t.i] and not t.is_space]
            kept = self._without_source_notes(kept)
            if not kept:
                continue
            item = self._is_list_item(sentence)
            source = plain_statement(self.text_of(kept))
            if self.doc[kept[-1]].text == ":":
                lead_in = kept[:-1]  # a lead-in (or a heading): no fact of its own
                continue
            if self._is_heading(sentence, kept):
                lead_in = None
                continue
            if not item:
                lead_in = None
            after = self._without_heading_prefix(kept)
            parts = self._parts(after, reparse=after != kept)
            if parts is not None:  # parsed again, part by part
                for part in parts:
                    for fact in self._nested(part, source):
                        facts.setdefault(fact.text, fact)
                continue
            pieces = self._pieces(sentence, kept, lead_in if item else None)
            within = self._noun_subject(sentence.root, kept)  # for a pronoun in a later clause
            for piece in pieces[:MAX_FACTS_PER_SENTENCE]:
                fact = self._fact(self._answer_part(piece), source, within)
                if fact is not None:
                    facts.setdefault(fact.text, fact)
            self._remember_subject(sentence, kept)
        return list(facts.values())

    def _parts(self, kept: list[int], *, reparse: bool) -> list[list[int]] | None:
        """The parts of a sentence to parse again on their own: clauses joined by a colon or
        semicolon ("X: Y"), a lead-in and its list on one line ("X include: A, B" as "X include A,
        B"), or what follows a heading prefix (``reparse``); ``None``: the sentence's parse serves."""
        for position, index in enumerate(kept[:-1]):
            if self.doc[index].text not in (":", ";"):
                continue
            left, right = kept[:position], kept[position + 1 :]
            if self.words(left) < 3 or self.words(right) < 2:
                continue
            if self.doc[index].text == ";" or not self._leads_in(left[-1]):
                return [left, *(self._parts(right, reparse=True) or [right])]
            return [left + right]
        return [kept] if reparse else None

    def _leads_in(self, index: int) -> bool:
        """Whether a colon after this token ends a lead-in ("X include:", "such as:"), not a heading."""
        last = self.doc[index]
        return (
            last.dep_ == "ROOT"
            and last.pos_ in ("VERB", "AUX")
            or last.pos_ in ("AUX", "ADP")
            or (last.lower_ in ("following", "including", "include", "includes", "are", "is"))
        )

    def _nested(self, part: list[int], source: str) -> list[AtomicFact]:
        """The facts of a part of a sentence, parsed again on its own."""
        text, offsets = self.offsets_of(part)
        if not text.strip() or len(text) == len(self.analysis.text):
            return []
        splitter = _Splitter(self.analyzer.analyse([text])[0], self.query_terms, self.analyzer)
        splitter.antecedent = self.antecedent
        return [
            AtomicFact(fact.text, offsets[fact.start], offsets[fact.end - 1] + 1, source) for fact in splitter.facts()
        ]

    def _is_list_item(self, sentence: Span) -> bool:
        """Whether a list marker opens the sentence's line."""
        index = sentence.start - 1
        while index >= 0 and self.doc[index].is_space:
            index -= 1
        return index >= 0 and bool(self.analysis.markup[index]) and self.doc[index].text != "#"

    def _is_heading(self, sentence: Span, kept: list[int]) -> bool:
        """A Markdown heading line, or a short line without closing punctuation all in emphasis marks."""
        index = sentence.start - 1
        while index >= 0 and self.doc[index].is_space:
            index -= 1
        if index >= 0 and self.doc[index].text.startswith("#") and self.analysis.markup[index]:
            return True
        return (
            self.words(kept) <= 8
            and self.doc[kept[-1]].text not in ".!?"
            and self.analysis.formatting[sentence.start]
            and self.analysis.formatting[sentence.end - 1]
        )

    def _without_source_notes(self, kept: list[int]) -> list[int]:
        """The tokens without bracketed source notes ("(Documents 1, 5)", "[Source: ...]") and empty brackets."""
        dropped: set[int] = set()
        opening = {"(": ")", "[": "]"}
        for position, index in enumerate(kept):
            closing = opening.get(self.doc[index].text)
            if closing is None or index in dropped:
                continue
            for end in range(position + 1, min(position + 14, len(kept))):
                if self.doc[kept[end]].text == closing:
                    inner = self.text_of(kept[position + 1 : end])
                    if not inner.strip() or is_source_note(inner):
                        dropped.update(kept[position : end + 1])
                    break
        return [index for index in kept if index not in dropped]

    def _without_heading_prefix(self, kept: list[int]) -> list[int]:
        """The tokens after a heading prefix ("Other Uses: ...") of at most six words, where a clause follows."""
        for position, index in enumerate(kept[:8]):
            if self.doc[index].text in (":", "-", "–", "—") and 0 < position:
                before, after = kept[:position], kept[position + 1 :]
                if (
                    self.doc[index].text != ":"
                    and not self.analysis.formatting[before[-1]]
                    and not any(self.analysis.formatting[i] for i in before)
                ):
                    continue  # a dash is a heading's end only after a bold term ("**Term** - ...")
                if self.words(before) <= 6 and self.words(after) >= 3 and not self._leads_in(before[-1]):
                    return after
                return kept
        return kept

    def _remember_subject(self, sentence: Span, kept: list[int]) -> None:
        """Keep the sentence's subject, where it is a noun phrase, for a pronoun in the next one."""
        head = sentence.root
        if head.lemma_.lower() in REPORTING_VERBS:  # "Studies show that X ...": X's subject
            head = next((c for c in head.children if c.dep_ == "ccomp"), head)
        subjects = [child for child in head.children if child.dep_ in _SUBJECTS]
        if not subjects or any(t.lower_ in _PERSONAL | _POSSESSIVE for t in subjects[0].subtree):
            return  # no subject (a list item), or a pronoun for the same thing: the antecedent stays
        self.antecedent = self._noun_subject(head, kept)

    def _noun_subject(self, head: Token, kept: list[int]) -> _Subject | None:
        """A clause's subject, where it is a noun phrase of at most eight words."""
        for child in head.children:
            if child.dep_ in ("nsubj", "nsubjpass") and child.pos_ in ("NOUN", "PROPN") and child.i in kept:
                allowed = set(kept)
                subject = sorted(i for i in subtree(child) if i in allowed and not self.hidden[i])
                if not 0 < self.words(subject) <= 8:
                    return None
                terms = _terms(self.analysis, [self.doc[i] for i in subject])
                return _Subject(self.text_of(subject), terms, tuple(subject))
        return None

    # --- cutting a sentence --------------------------------------------------------------------

    def _pieces(self, sentence: Span, kept: list[int], lead_in: list[int] | None) -> list[list[int]]:
        """The token sets of a sentence's facts (the prefixes of lead-ins included)."""
        allowed = set(kept)
        root = sentence.root if sentence.root.i in allowed else None
        if root is None:
            return [kept]
        has_subject = any(child.dep_ in _SUBJECTS for child in root.children)
        if lead_in is not None and not (root.pos_ in ("VERB", "AUX") and has_subject):
            return [[*lead_in, *piece] for piece in self.syntax.enumerated(kept)]
        root, allowed = self.syntax.without_attribution(root, allowed)
        if root is None:
            return []
        pieces = []
        for clause in self.syntax.clauses(root, allowed):
            for part in self.syntax.asides(clause):
                pieces.extend(self.syntax.enumerated(part, depth=2))
        return pieces

    # --- one fact ------------------------------------------------------------------------------

    def _answer_part(self, piece: list[int]) -> list[int]:
        """Where a clause restates the query and gives its reason ("The sky is blue because X"): the
        reason ("X"); else the clause."""
        allowed = set(piece)
        for token in (self.doc[i] for i in piece):
            marks = {c.i for c in token.children if c.dep_ == "mark" and c.lower_ in ("because", "since", "as")}
            if token.dep_ != "advcl" or not marks or not self.query_terms:
                continue
            reason = subtree(token) & allowed
            main = _terms(self.analysis, [self.doc[i] for i in allowed - reason])
            if len(main - self.query_terms - GENERIC_WORDS) < 2 and self.words(sorted(reason)) >= 4:
                return sorted(reason - marks)
        return piece

    def _fact(self, piece: list[int], source: str, within: _Subject | None) -> AtomicFact | None:
        """The fact of a token set: pronoun resolved (``within``: the subject of the sentence's first
        clause, for a pronoun of a later clause), cleaned, not a restated query; else ``None``."""
        words = [i for i in piece if self.is_word[i]]
        if not words:
            return None
        first = self.doc[words[0]]
        lower = first.lower_
        replacement = ""
        indices = list(piece)
        antecedent = within if within is not None and not set(within.indices) & set(piece) else self.antecedent
        if lower in _PERSONAL or lower in _POSSESSIVE:
            if antecedent is None or first.dep_ in ("dobj", "pobj") or lower == "her" and first.dep_ != "poss":
                return None
            replacement = antecedent.text + ("'s" if lower in _POSSESSIVE else "")
        elif lower in _DEMONSTRATIVE and first.i == words[0]:
            if first.dep_ in ("nsubj", "nsubjpass") or first.pos_ == "PRON":
                return None  # "This leads to ...": an event, not a thing
            replacement = "The"
        if replacement:
            indices = [i for i in piece if i != first.i]
            body = self.text_of([i for i in indices if i > first.i])
            prefix = self.text_of([i for i in indices if i < first.i])
            text = clean_statement(f"{prefix} {replacement} {body}".strip())
        else:
            text = clean_statement(self.text_of(indices))
        if not text or META_STATEMENT.search(text):
            return None
        terms = set(_terms(self.analysis, [self.doc[i] for i in indices]))
        if replacement and antecedent is not None:
            terms |= antecedent.terms
        if self.query_terms is not None and len(terms - self.query_terms - GENERIC_WORDS) < 2:
            return None  # restates the query (or carries too little to be a fact)
        start, end = self.doc[words[0]].idx, self.doc[words[-1]].idx + len(self.doc[words[-1]].text)
        return AtomicFact(text=text, start=start, end=end, sentence=source)
