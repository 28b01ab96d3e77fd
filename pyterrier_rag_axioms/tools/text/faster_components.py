"""Two of spaCy's English components, run faster with the same annotations.

- **The attribute ruler** maps each token's fine-grained tag to its part of speech and
  morphology, and fixes some lemmas, with about 180 one- or two-token patterns. spaCy runs them
  through its general ``Matcher``, which tries every pattern at every token. Nearly every pattern
  names the token's tag or lowercase form outright, so :class:`IndexedAttributeRules` files each
  pattern under the tags or forms its first token must have, tests a token once per distinct
  (tag, form, dependency, space) it has, and hands spaCy's ``set_annotations`` the same matches in
  the same order (later rules take precedence): 5x faster than the ``Matcher``. A pattern it
  cannot read (an operator, another attribute or predicate) leaves the ruler as it is.
- **The rule lemmatizer** keeps the lemmas it computes by (form, part of speech, morphology), but
  not those of base forms (singular nouns, infinitives, positive adjectives), which it works out
  again, morphology parsed anew, at every token. :func:`memoize_lemmatizer` keeps those too, under
  the same key: what a lemma is computed from. And each form it computes is looked up in a list
  of the part of speech's known words (57,528 nouns): the lists become :class:`WordList` objects:
  the same words, with a set to look them up in.

On the development answers, spaCy's pipeline (named-entity recognition aside) takes a quarter
less CPU (``benchmarks/bench_spacy_components.py``), with the same tags, parts of speech,
morphology, dependencies and lemmas (tested against spaCy's own components).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.pipeline import AttributeRuler
    from spacy.tokens import Doc, Token

#: The token attributes a pattern may test, each with the ``Token`` attribute it reads.
TOKEN_ATTRIBUTES: dict[str, str] = {"TAG": "tag_", "LOWER": "lower_", "DEP": "dep_", "IS_SPACE": "is_space"}
#: How a token's value of each attribute is read.
TOKEN_VALUES: dict[str, Callable[[Token], object]] = {
    attribute: attrgetter(name) for attribute, name in TOKEN_ATTRIBUTES.items()
}
#: All that the tests can read of a token, at once: a token's matches are kept by it.
_READ_ALL: Callable[[Token], tuple] = attrgetter(*TOKEN_ATTRIBUTES.values())
#: The attributes a pattern's first token can be looked up by.
LOOKUP_ATTRIBUTES: tuple[str, ...] = ("TAG", "LOWER")


class UnreadablePattern(ValueError):
    """A pattern that :class:`IndexedAttributeRules` cannot match (the ruler is left to spaCy's ``Matcher``)."""


@dataclass(frozen=True)
class _Test:
    """A test of one attribute of a token: its value ``equals``, is ``in`` or ``not in`` a set, or a
    ``regex`` finds a match in it (a plain object, so that the pipeline still pickles)."""

    attribute: str
    how: str
    value: object

    def __call__(self, token: Token) -> bool:
        found = TOKEN_VALUES[self.attribute](token)
        if self.how == "equals":
            return found == self.value
        if self.how == "in":
            return found in self.value
        if self.how == "not in":
            return found not in self.value
        return bool(self.value.search(found))


def _test(attribute: str, wanted: object) -> _Test:
    """The test of one attribute: a value, ``{"IN": [...]}``, ``{"NOT_IN": [...]}`` or ``{"REGEX": ...}``."""
    if attribute not in TOKEN_VALUES:
        raise UnreadablePattern(f"attribute {attribute!r}")
    if not isinstance(wanted, dict):
        if isinstance(wanted, bool) != (attribute == "IS_SPACE"):
            raise UnreadablePattern(f"{attribute}: {wanted!r}")
        return _Test(attribute, "equals", wanted)
    if len(wanted) != 1 or attribute == "IS_SPACE":
        raise UnreadablePattern(f"{attribute}: {wanted!r}")
    (operator, value), = wanted.items()
    if operator in ("IN", "NOT_IN") and isinstance(value, list) and all(isinstance(v, str) for v in value):
        return _Test(attribute, "in" if operator == "IN" else "not in", frozenset(value))
    if operator == "REGEX" and isinstance(value, str):
        return _Test(attribute, "regex", re.compile(value))
    raise UnreadablePattern(f"{attribute}: {wanted!r}")


def _anchors(first: dict) -> tuple[str, frozenset[str]] | None:
    """The attribute and values that a pattern's first token must have, read outright (``None``: none)."""
    for attribute in LOOKUP_ATTRIBUTES:
        wanted = first.get(attribute)
        if isinstance(wanted, str):
            return attribute, frozenset({wanted})
        if isinstance(wanted, dict) and isinstance(wanted.get("IN"), list) and len(wanted) == 1:
            return attribute, frozenset(wanted["IN"])
    return None


@dataclass(frozen=True)
class _Pattern:
    """One pattern of a rule: a tuple of tests for each of its tokens."""

    rule: int
    tests: tuple[tuple[_Test, ...], ...]

    def matches_rest(self, doc: Doc, start: int) -> bool:
        """Whether the tokens after ``start`` match the pattern's tokens after its first."""
        if start + len(self.tests) > len(doc):
            return False
        return all(all(test(doc[start + offset]) for test in self.tests[offset])
                   for offset in range(1, len(self.tests)))


class IndexedAttributeRules:
    """An attribute ruler's patterns filed by the tag or form of their first token (see the module)."""

    def __init__(self, ruler: AttributeRuler):
        #: The patterns filed under each (attribute, value) their first token must have.
        self.by_value: dict[tuple[str, str], list[_Pattern]] = {}
        #: The patterns whose first token has no tag or form read outright.
        self.unfiled: list[_Pattern] = []
        for rule, entry in enumerate(ruler.patterns):
            for tokens in entry["patterns"]:
                if not tokens or not all(isinstance(token, dict) for token in tokens):
                    raise UnreadablePattern(repr(tokens))
                tests = tuple(tuple(_test(attribute, wanted) for attribute, wanted in token.items())
                              for token in tokens)
                pattern = _Pattern(rule, tests)
                anchors = _anchors(tokens[0])
                if anchors is None:
                    self.unfiled.append(pattern)
                    continue
                attribute, values = anchors
                for value in values:
                    self.by_value.setdefault((attribute, value), []).append(pattern)
        self.keys = [ruler.vocab.strings[str(rule)] for rule in range(len(ruler.patterns))]
        #: For each token seen, by what the tests read of it: the rules of one token that it matches,
        #: and the longer patterns whose first token it matches.
        self.starting: dict[tuple, tuple[tuple[int, ...], tuple[_Pattern, ...]]] = {}

    def _starting_at(self, token: Token) -> tuple[tuple[int, ...], tuple[_Pattern, ...]]:
        filed = [pattern for attribute in LOOKUP_ATTRIBUTES
                 for pattern in self.by_value.get((attribute, TOKEN_VALUES[attribute](token)), ())]
        filed += self.unfiled
        first = [pattern for pattern in filed if all(test(token) for test in pattern.tests[0])]
        return (tuple(sorted({pattern.rule for pattern in first if len(pattern.tests) == 1})),
                tuple(pattern for pattern in first if len(pattern.tests) > 1))

    def match(self, doc: Doc) -> list[tuple[int, int, int, int]]:
        """The matches as ``AttributeRuler.match`` returns them: ``(rule, match_id, start, end)``, sorted."""
        found: list[tuple[int, int, int, int]] = []
        starting, keys = self.starting, self.keys
        for token in doc:
            seen = _READ_ALL(token)
            if seen not in starting:
                starting[seen] = self._starting_at(token)
            rules, longer = starting[seen]
            start = token.i
            found.extend((rule, keys[rule], start, start + 1) for rule in rules)
            found.extend((pattern.rule, keys[pattern.rule], start, start + len(pattern.tests))
                         for pattern in longer if pattern.matches_rest(doc, start))
        return sorted(set(found))


def index_attribute_ruler(nlp: Language) -> bool:
    """Match the pipeline's ``attribute_ruler`` by lookup (:class:`IndexedAttributeRules`) where all its
    patterns can be read; whether it now does."""
    if "attribute_ruler" not in nlp.pipe_names:
        return False
    ruler = nlp.get_pipe("attribute_ruler")
    try:
        rules = IndexedAttributeRules(ruler)
    except UnreadablePattern:
        return False
    ruler.match = rules.match  # spaCy's set_annotations applies the matches, as before
    return True


class WordList(list):
    """A list of words that says whether it holds a word by a set (``word in words``), not by a scan."""

    def __init__(self, words):
        super().__init__(words)
        self.members = frozenset(self)

    def __contains__(self, word) -> bool:
        return word in self.members


class KeptLemmas:
    """A rule lemmatizer's lemmas, each computed once per (form, part of speech, morphology)."""

    def __init__(self, compute: Callable[[Token], list[str]]):
        self.compute = compute
        self.lemmas: dict[tuple[int, int, int], list[str]] = {}

    def __call__(self, token: Token) -> list[str]:
        key = (token.orth, token.pos, token.morph.key)
        if key not in self.lemmas:
            self.lemmas[key] = self.compute(token)
        return self.lemmas[key]


def memoize_lemmatizer(nlp: Language) -> bool:
    """Keep every lemma of the pipeline's rule ``lemmatizer`` by what it is computed from (see the
    module); whether it now does."""
    if "lemmatizer" not in nlp.pipe_names:
        return False
    lemmatizer = nlp.get_pipe("lemmatizer")
    if getattr(lemmatizer, "mode", None) != "rule" or not _reads_form_and_tags(lemmatizer):
        return False
    index = lemmatizer.lookups.get_table("lemma_index") if lemmatizer.lookups.has_table("lemma_index") else {}
    for part_of_speech, words in list(index.items()):
        if isinstance(words, list) and not isinstance(words, WordList):
            index[part_of_speech] = WordList(words)
    lemmatizer.lemmatize = KeptLemmas(lemmatizer.rule_lemmatize)
    return True


def _reads_form_and_tags(lemmatizer) -> bool:
    """Whether the lemmatizer's rules are spaCy's own, or its English ones: they read a token's form,
    part of speech and morphology only."""
    from spacy.lang.en.lemmatizer import EnglishLemmatizer
    from spacy.pipeline import Lemmatizer

    kind = type(lemmatizer)
    return kind.rule_lemmatize is Lemmatizer.rule_lemmatize and kind.is_base_form in (
        Lemmatizer.is_base_form, EnglishLemmatizer.is_base_form)


def speed_up_components(nlp: Language) -> None:
    """Run the pipeline's attribute ruler and rule lemmatizer faster, with the same annotations (see the module)."""
    index_attribute_ruler(nlp)
    memoize_lemmatizer(nlp)
