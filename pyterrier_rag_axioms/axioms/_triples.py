"""Subject-verb-object triples from a spaCy dependency parse, by two sets of rules.

COH2 measures how far subjects stand from their verbs in a response's subject-verb-object
triples. Which triples a parse holds depends on the rules; two are offered:

``"reference"`` (default), the definition the reference implementation (ir-axioms 1.2.5, via
textacy's triple extraction) uses:

- a verb is a token tagged ``VERB`` (copulas and auxiliaries, tagged ``AUX``, are no verbs);
- its subjects are its ``nsubj``/``nsubjpass`` children with their conjuncts and their
  ``compound`` children, and the whole subtree of a ``csubj``/``csubjpass`` child;
- its objects are its ``dobj`` children (with conjuncts and compounds), the object of a passive
  ``by`` phrase (``agent`` -> ``pobj``), or, where it has no ``dobj``, the subtree of an
  ``xcomp`` child;
- a verb without subjects takes those of a conjunct verb that has some, and a verb without
  objects those of its conjunct verbs;
- the verb of a triple is the verb with its ``aux``, ``auxpass`` and ``neg`` children, and the
  distance of a triple is the largest distance between any subject token and any of those.

``"broad"``, this package's earlier, wider rules: verbs and auxiliaries (``VERB``, ``AUX``: also
copular sentences such as "Coffee is a drink"), subjects ``nsubj``, ``nsubjpass``, ``csubj``,
``csubjpass``, ``expl`` with their conjuncts, objects any of ``dobj``, ``obj``, ``dative``, ``attr``,
``oprd``, ``acomp``, ``ccomp``, ``xcomp`` or a prepositional object (``prep``/``agent`` ->
``pobj``); the distance is the largest distance between a subject token and the verb itself.

Triples are read per sentence of the analysis (lines and list items are sentences of their own).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal, NamedTuple, get_args

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

#: The rule sets of :func:`subject_verb_object_triples`.
TripleRules = Literal["reference", "broad"]
TRIPLE_RULES: tuple[str, ...] = get_args(TripleRules)


class Triple(NamedTuple):
    """The tokens of a subject-verb-object triple, each part in text order."""

    subjects: tuple[Token, ...]
    verbs: tuple[Token, ...]
    objects: tuple[Token, ...]

    @property
    def distance(self) -> int:
        """The largest token distance between a subject token and a verb token."""
        return max(abs(verb.i - subject.i) for subject in self.subjects for verb in self.verbs)


def _noun_group(token: Token) -> set[Token]:
    group = [token, *token.conjuncts]
    return {*group, *(child for member in group for child in member.children if child.dep_ == "compound")}


def _in_order(tokens: Iterable[Token]) -> tuple[Token, ...]:
    return tuple(sorted(tokens, key=lambda token: token.i))


def _reference_triples(sentence: Span) -> list[Triple]:
    subjects: dict[Token, set[Token]] = {}
    objects: dict[Token, set[Token]] = {}

    def verb(token: Token) -> Token:
        subjects.setdefault(token, set())
        objects.setdefault(token, set())
        return token

    for token in sentence:
        head = token.head
        if token.pos_ == "VERB":
            verb(token)
        dep = token.dep_
        if dep in {"nsubj", "nsubjpass"} and head.pos_ == "VERB":
            subjects[verb(head)] |= _noun_group(token)
        elif dep in {"csubj", "csubjpass"} and head.pos_ == "VERB":
            subjects[verb(head)] |= set(token.subtree)
        elif dep == "dobj" and head.pos_ == "VERB":
            objects[verb(head)] |= _noun_group(token)
        elif dep == "pobj" and head.dep_ == "agent" and head.head.pos_ == "VERB":
            objects[verb(head.head)] |= _noun_group(token)
        elif dep == "xcomp" and head.pos_ == "VERB" and not any(child.dep_ == "dobj" for child in head.children):
            objects[verb(head)] |= set(token.subtree)
    for token in list(subjects):  # in order of first mention, as shared parts build up
        if subjects[token]:
            for conjunct in token.conjuncts:
                if conjunct in subjects and not subjects[conjunct]:
                    subjects[conjunct] |= subjects[token]
        if not objects[token]:
            objects[token] |= {part for conjunct in token.conjuncts for part in objects.get(conjunct, ())}
    return [
        Triple(
            _in_order(subjects[token]),
            _in_order([token, *(child for child in token.children if child.dep_ in {"aux", "auxpass", "neg"})]),
            _in_order(objects[token]),
        )
        for token in subjects
        if subjects[token] and objects[token]
    ]


_BROAD_SUBJECTS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"})
_BROAD_OBJECTS = frozenset({"dobj", "obj", "dative", "attr", "oprd", "acomp", "ccomp", "xcomp"})


def _broad_triples(sentence: Span) -> list[Triple]:
    triples = []
    for token in sentence:
        if token.pos_ not in {"VERB", "AUX"}:
            continue
        subjects = [child for child in token.children if child.dep_ in _BROAD_SUBJECTS]
        subjects += [conjunct for subject in subjects for conjunct in subject.conjuncts]
        objects = [child for child in token.children if child.dep_ in _BROAD_OBJECTS] + [
            grandchild
            for child in token.children
            if child.dep_ in {"prep", "agent"}
            for grandchild in child.children
            if grandchild.dep_ == "pobj"
        ]
        if subjects and objects:
            triples.append(Triple(_in_order(subjects), (token,), _in_order(objects)))
    return triples


def subject_verb_object_triples(sentences: Iterable[Span], *, rules: TripleRules = "reference") -> list[Triple]:
    """The subject-verb-object triples of ``sentences``, by ``rules`` (see the module)."""
    if rules not in TRIPLE_RULES:
        raise ValueError(f"triple rules must be one of {TRIPLE_RULES}, not {rules!r}")
    extract = _reference_triples if rules == "reference" else _broad_triples
    return [triple for sentence in sentences for triple in extract(sentence)]
