"""The syntactic rules of atomic facts: a reporting frame taken off, coordinated clauses and
enumerations cut apart, on the dependency parse of one sentence (see
:mod:`~pyterrier_rag_axioms.nuggets.facts.splitting`). A part is a set of token indices."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pyterrier_rag_axioms.nuggets.facts._rules import REPORTING_VERBS

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

#: Dependency relations of a clause's subject.
SUBJECTS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"})
#: Dependency relations of an object or complement whose conjuncts are an enumeration.
ENUMERATED = frozenset({"dobj", "pobj", "pcomp", "attr", "acomp", "oprd", "appos", "xcomp"})


def subtree(token: Token) -> set[int]:
    """The token indices of a token's subtree."""
    return {each.i for each in token.subtree}


#: A fact with more words drops the purpose clause that closes it.
LONG_FACT_WORDS = 12
_NEGATING = frozenset({"neither", "nor"})


def _to(token: Token) -> bool:
    """Whether a verb has its own infinitive "to"."""
    return any(child.dep_ == "aux" and child.tag_ == "TO" for child in token.children)


def _shared_infinitive(items: list[Token]) -> bool:
    """Verbs of one infinitive, a later one without its own "to" ("refuse to buy X and encourage Y"): whether
    "encourage" continues "to buy" or "refuse" the parse does not tell for sure, and the wrong cut says the
    opposite ("Teens can refuse to encourage ..."); a cut without the "to" reads badly."""
    return _to(items[0]) and any(not _to(item) for item in items[1:])


def _shared_complement(items: list[Token]) -> bool:
    """Nouns whose last alone carries an infinitive complement ("ability and desire to search"): it completes
    them all, so that "ability" alone would be cut short."""
    complemented = [any(c.dep_ == "acl" and c.i > item.i and _to(c) for c in item.children) for item in items]
    return complemented[-1] and not any(complemented[:-1])


def _stranded(token: Token) -> bool:
    """Whether a verb has a preposition without its object ("search for or receive information")."""
    return token.pos_ in ("VERB", "AUX") and any(
        c.dep_ == "prep" and c.i > token.i and c.n_lefts + c.n_rights == 0 for c in token.children
    )


def _kind(token: Token) -> str:
    """The coarse kind of a word, for telling a list of like things: noun, verb or modifier."""
    if token.tag_ == "VBG" and not any(c.dep_ in ("dobj", "ccomp", "xcomp") for c in token.children):
        return "NOUN"  # a bare gerund names an activity: "cleaning, deodorizing, and baking"
    return {"PROPN": "NOUN", "NUM": "NOUN", "PRON": "NOUN", "AUX": "VERB", "ADV": "ADJ"}.get(token.pos_, token.pos_)


class Syntax:
    """The rules on one parsed text: its ``doc`` and which of its tokens are words (``is_word``), which
    decide whether a part is too small to stand alone."""

    def __init__(self, doc: Doc, is_word: Sequence[bool]) -> None:
        self.doc = doc
        self.is_word = is_word

    def words(self, indices: Sequence[int]) -> int:
        """How many of some tokens are words."""
        return sum(bool(self.is_word[index]) for index in indices)

    def without_attribution(self, root: Token, allowed: set[int]) -> tuple[Token | None, set[int]]:
        """The root and tokens without a reporting frame ("Studies show that X" gives X, "According
        to Y, X" gives X); no root where the sentence is a hedge with no fact."""
        for child in root.children:
            if child.dep_ == "prep" and child.lower_ == "according":
                allowed = allowed - subtree(child)
        if root.lemma_.lower() not in REPORTING_VERBS:
            return root, allowed
        complements = [c for c in root.children if c.dep_ == "ccomp" and c.i > root.i and c.i in allowed]
        subjects = [c for c in root.children if c.dep_ in SUBJECTS]
        if complements and not any(s.lower_ in ("i", "we", "you") for s in subjects):
            clause = complements[0]
            inner = {i for i in subtree(clause) if i in allowed}
            inner -= {c.i for c in clause.children if c.dep_ == "mark" and c.lower_ == "that"}
            if self.words(sorted(inner)) >= 3:
                return clause, inner
        if not complements and not any(c.dep_ in ("dobj", "xcomp", "attr", "prep") for c in root.children):
            if self.words(sorted(allowed)) <= 6:
                return None, allowed  # "Some research has shown."
        return root, allowed

    def clauses(self, root: Token, allowed: set[int]) -> list[list[int]]:
        """One token set per coordinated clause (see the module), or the whole where a part is too small."""
        heads = [root]
        for head in heads:
            heads.extend(
                c
                for c in head.children
                if c.pos_ in ("VERB", "AUX")
                and c.i in allowed
                and c.i > head.i
                and (c.dep_ in ("conj", "parataxis") or c.dep_ == "ccomp" and self.after_colon(c))
            )
        if len(heads) == 1 or any(_stranded(head) for head in heads):
            return [sorted(allowed)]  # one clause, or one whose preposition's object is another's ("search for or get")
        spans = {head.i: subtree(head) & allowed for head in heads}
        pieces = []
        for head in heads:
            own = set(spans[head.i])
            for other in heads:
                if other.i != head.i and other.i in spans[head.i]:
                    own -= spans[other.i]
            own -= {c.i for c in head.children if c.dep_ in ("cc", "preconj") and c.lower_ not in _NEGATING}
            if head is not root and not any(c.dep_ in SUBJECTS for c in head.children):
                own |= self.borrowed(head, root, allowed)
            pieces.append(sorted(own))
        if any(self.words(piece) < 3 for piece in pieces):
            return [sorted(allowed)]
        return pieces

    def asides(self, piece: list[int]) -> list[list[int]]:
        """A clause without its asides: a participle clause after a comma (", demonstrating that
        ...") and a purpose clause that closes a long fact ("... to inform others") are dropped; a
        relative clause after a comma (", which regulates X") becomes a fact of its own about the
        noun it describes ("The Act regulates X")."""
        allowed = set(piece)
        extras = []
        for token in (self.doc[i] for i in piece):
            if token.i not in allowed:
                continue
            span = subtree(token) & allowed
            first = min(span)
            purpose = token.dep_ == "advcl" and token.head.dep_ in ("ROOT", "conj")  # of the main clause
            if (
                purpose
                and any(c.dep_ == "aux" and c.lower_ == "to" for c in token.children)
                and (
                    self.words(sorted(allowed)) > LONG_FACT_WORDS
                    and self.words([i for i in allowed if i > max(span)]) == 0
                )
            ):
                allowed -= span  # a purpose clause that closes a long fact: "..., to inform others about X"
                continue
            after_comma = first > 0 and self.doc[first - 1].text == ","
            if not after_comma or token.dep_ not in ("advcl", "relcl"):
                continue
            commas = {first - 1} | (
                {max(span) + 1} if max(span) + 1 < len(self.doc) and self.doc[max(span) + 1].text == "," else set()
            )
            if token.dep_ == "advcl" and token.tag_ == "VBG" and first > min(allowed):
                allowed -= span | commas
            elif token.dep_ == "relcl":
                relative = {c.i for c in token.children if c.dep_ in SUBJECTS and c.lower_ in ("which", "who")}
                if not relative:
                    continue
                head = token.head
                while head.dep_ == "conj":  # "A and B, which ...": the relative clause is about both
                    head = head.head
                noun = subtree(head) & allowed - span - commas
                allowed -= span | commas
                if self.words(sorted(noun)) <= 8 and self.words(sorted(span - relative)) >= 3:
                    extras.append(sorted(noun | span - relative))
        return [sorted(allowed), *extras]

    def after_colon(self, head: Token) -> bool:
        """Whether a clause follows a colon or semicolon ("X: Y"), as a clause of its own."""
        first = min(subtree(head))
        return first > 0 and self.doc[first - 1].text in (":", ";")

    def borrowed(self, head: Token, root: Token, allowed: set[int]) -> set[int]:
        """The subject (and, for a verb without auxiliaries, the auxiliaries and negation) of the
        clause a coordinated clause without a subject continues."""
        parent = head.head
        while parent.i != root.i and not any(c.dep_ in SUBJECTS for c in parent.children):
            parent = parent.head
        borrowed: set[int] = set()
        for child in parent.children:
            if child.dep_ in SUBJECTS:
                borrowed |= subtree(child) & allowed
        if not any(c.dep_ in ("aux", "auxpass") for c in head.children) and head.tag_ in ("VB", "VBN", "VBG"):
            borrowed |= {
                c.i
                for c in parent.children
                if c.dep_ in ("aux", "auxpass", "neg") and c.i < parent.i and c.i in allowed
            }
        return borrowed

    def enumerated(self, piece: list[int], depth: int = 1) -> list[list[int]]:
        """One token set per item of the first enumeration in an object or complement (see the module)."""
        allowed = set(piece)
        for token in (self.doc[i] for i in piece):
            listed = token.dep_ in ENUMERATED or token.dep_ == "ROOT" and token.pos_ in ("NOUN", "PROPN")
            if not listed or token.pos_ not in ("NOUN", "PROPN", "ADJ", "NUM", "VERB"):
                continue
            items = [token]
            for item in items:  # a list of noun phrases alone may come as an apposition: "A, B, and C"
                items.extend(
                    c
                    for c in item.children
                    if c.i in allowed
                    and c not in items
                    and (
                        c.dep_ == "conj"
                        or c.dep_ == "appos"
                        and item.dep_ == "ROOT"
                        and any(g.dep_ == "conj" for g in c.children)
                    )
                )
            if len(items) < 2 or any(_kind(item) != _kind(token) for item in items):
                continue  # no list, or a parse that joins unlike things ("the cruelty of testing and encouraging")
            if _shared_infinitive(items) or _shared_complement(items) or any(_stranded(item) for item in items):
                continue  # unsure where an item's "to", complement or object belongs: kept whole
            if any(c.lower_ in _NEGATING for item in items for c in item.children):
                return [piece]  # "neither A nor B" is no list of facts
            region = subtree(token) & allowed
            parts = []
            for item in items:
                own = subtree(item) & allowed
                for other in items:
                    if other is not item and other.i in own:
                        own -= subtree(other)
                own -= {c.i for c in item.children if c.dep_ in ("cc", "preconj") or (c.is_punct and c.i > item.i)}
                parts.append(own)
            if any(self.words(sorted(part)) == 0 for part in parts):
                return [piece]
            if len(parts) == 2 and all(self.words(sorted(part)) == 1 for part in parts):
                continue  # a pair of single words is one thing: "friends and family", "pain and suffering"
            rest = allowed - region
            found = [sorted(rest | part) for part in parts]
            if depth > 1:
                found = [deeper for part in found for deeper in self.enumerated(part, depth - 1)]
            return found
        return [piece]
