"""Argument units (claims and premises) of a text, for the argumentative axioms ArgUC, QTArg and QTPArg.

Two taggers share one interface, :class:`ArgumentTagger`, and keep one result per distinct text:

- :class:`DiscourseMarkerTagger` (the default) works offline. It is an *approximation*: it reads
  claims and premises off discourse markers in spaCy's sentences ("because", "since", "due to"
  mark premises; "therefore", "thus", "should", "I think" mark claims) and knows nothing else
  about argumentation.
- :class:`TargerTagger` asks a TARGER server (Chernodub et al., ACL 2019 demos), by default the
  public ``https://demo.webis.de/targer-api/``: it POSTs the raw text to ``<url><model>`` and reads
  back a list of sentences, each a list of tokens ``{"token", "label", "prob"}`` whose labels are
  ``C-B``/``C-I`` (claim), ``P-B``/``P-I`` (premise), ``MC-*``/``MP-*`` (major claim or premise)
  or ``O``; the order ``B-C`` is read too.

An argument unit is a character span of the text with its kind, so axioms can tell which terms
of the text lie inside argument units.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import pyterrier as pt

from pyterrier_rag_axioms.declaration import parameter, parameters
from pyterrier_rag_axioms.runtime.cache import derived_key
from pyterrier_rag_axioms.tools._shared import SharedTool
from pyterrier_rag_axioms.tools.text import TextAnalysis

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

#: The public TARGER service.
DEFAULT_TARGER_URL = "https://demo.webis.de/targer-api/"
#: The TARGER model asked by default (the one ir-axioms asks too).
DEFAULT_TARGER_MODEL = "tag-ibm-fasttext"

ArgumentKind = Literal["claim", "premise"]

#: Discourse markers that open a premise (a reason or evidence), lower-cased, as word sequences.
PREMISE_MARKERS: tuple[tuple[str, ...], ...] = tuple(
    tuple(marker.split())
    for marker in (
        "because",
        "since",
        "due to",
        "owing to",
        "given that",
        "as a result of",
        "for example",
        "for instance",
        "according to",
        "as shown by",
        "as evidenced by",
        "the reason is",
    )
)
#: Discourse markers and modal phrases that mark a claim (a conclusion or stance), lower-cased.
CLAIM_MARKERS: tuple[tuple[str, ...], ...] = tuple(
    tuple(marker.split())
    for marker in (
        "therefore",
        "thus",
        "hence",
        "consequently",
        "as a result",
        "in conclusion",
        "it follows that",
        "should",
        "must",
        "ought to",
        "i think",
        "i believe",
        "we believe",
        "in my opinion",
        "i argue",
        "we argue",
        "clearly",
        "it is clear that",
    )
)


@dataclass(frozen=True)
class ArgumentUnit:
    """A claim or premise: its kind and its character span ``[start, end)`` in the text."""

    kind: ArgumentKind
    start: int
    end: int

    def covers(self, offset: int) -> bool:
        """Whether the character at ``offset`` lies inside this unit."""
        return self.start <= offset < self.end


class TargerUnavailableError(RuntimeError):
    """No TARGER server answers at the given URL, or it answers with an HTTP error."""


@parameters
class ArgumentTagger(SharedTool, ABC):
    """Finds the argument units of texts; each distinct text is tagged once."""

    def __post_init__(self) -> None:
        self._cache: dict[str, tuple[ArgumentUnit, ...]] = {}

    @abstractmethod
    def tag(self, analysis: TextAnalysis) -> tuple[ArgumentUnit, ...]:
        """The argument units of one analysed text, in text order."""

    def value_key(self) -> str | None:
        """The name under which each text keeps its units (:meth:`TextAnalysis.derived`, also in a
        persistent cache), or ``None`` (default): units are kept in this process only."""
        return None

    def units(self, analyses: Sequence[TextAnalysis], *, verbose: bool = False) -> list[tuple[ArgumentUnit, ...]]:
        """The argument units of each analysed text, tagged once per text: cached by text, or, where
        :meth:`value_key` names them, kept with each analysis (so each analyzer has its own)."""
        key = self.value_key()
        distinct = {analysis.text: analysis for analysis in analyses}
        missing = (
            list(distinct.values())
            if key is not None
            else [analysis for text, analysis in distinct.items() if text not in self._cache]
        )
        if missing:
            iterator = pt.tqdm(missing, desc=type(self).__name__, unit="text") if verbose else missing
            for analysis in iterator:
                if key is None:
                    self._cache[analysis.text] = self.tag(analysis)
                else:
                    stored = analysis.derived(key, self._unit_values)
                    self._cache[analysis.text] = tuple(ArgumentUnit(*unit) for unit in stored)
        return [self._cache[analysis.text] for analysis in analyses]

    def _unit_values(self, analysis: TextAnalysis) -> list[list]:
        """The units of an analysed text as JSON: ``[kind, start, end]`` each."""
        return [[unit.kind, unit.start, unit.end] for unit in self.tag(analysis)]

    def __len__(self) -> int:
        return len(self._cache)


def _find(words: Sequence[str], markers: tuple[tuple[str, ...], ...], start: int = 0) -> tuple[int, int] | None:
    """The first ``(position, length)`` at or after ``start`` where one of ``markers`` occurs in ``words``."""
    for position in range(start, len(words)):
        for marker in markers:
            if tuple(words[position : position + len(marker)]) == marker:
                return position, len(marker)
    return None


def _unit(kind: ArgumentKind, tokens: Sequence[Token]) -> ArgumentUnit | None:
    """A unit over ``tokens`` without punctuation at its edges (``None`` if no word is left)."""
    words = [token for token in tokens if not (token.is_punct or token.is_space)]
    if not words:
        return None
    return ArgumentUnit(kind, words[0].idx, words[-1].idx + len(words[-1].text))


class DiscourseMarkerTagger(ArgumentTagger):
    """Claims and premises from discourse markers, sentence by sentence: an offline approximation.

    In each spaCy sentence:

    - a premise marker (:data:`PREMISE_MARKERS`, e.g. "because") inside the sentence makes what
      precedes it a claim and the rest, from the marker, a premise ("X because Y");
    - a premise marker opening the sentence makes the part up to the first comma a premise and the
      rest a claim ("Since Y, X"), or the whole sentence a premise without a comma;
    - otherwise a claim marker (:data:`CLAIM_MARKERS`, e.g. "therefore", "should") makes the whole
      sentence a claim; a sentence without markers is no argument unit.

    "since" followed by a number ("since 1990") is read as time, not as a reason; "as a result"
    followed by "of" introduces a premise.
    """

    name = "discourse_markers"

    def _premise_marker(self, words: list[str]) -> int | None:
        start = 0
        while (found := _find(words, PREMISE_MARKERS, start)) is not None:
            position, length = found
            following = words[position + length] if position + length < len(words) else ""
            if words[position] == "since" and length == 1 and following[:1].isdigit():
                start = position + 1
                continue
            return position
        return None

    def _sentence_units(self, sentence: Span) -> list[ArgumentUnit | None]:
        tokens = [token for token in sentence if not token.is_space]
        words = [token.lower_ for token in tokens]
        first_word = next((i for i, token in enumerate(tokens) if not token.is_punct), None)
        if first_word is None:
            return []
        premise = self._premise_marker(words)
        if premise is not None:
            if premise > first_word:
                return [_unit("claim", tokens[:premise]), _unit("premise", tokens[premise:])]
            comma = next((i for i in range(premise + 1, len(tokens)) if tokens[i].text == ","), None)
            if comma is None:
                return [_unit("premise", tokens)]
            return [_unit("premise", tokens[:comma]), _unit("claim", tokens[comma + 1 :])]
        if _find(words, CLAIM_MARKERS) is not None:
            return [_unit("claim", tokens)]
        return []

    def tag(self, analysis: TextAnalysis) -> tuple[ArgumentUnit, ...]:
        return tuple(
            unit for sentence in analysis.sentences for unit in self._sentence_units(sentence) if unit is not None
        )

    def value_key(self) -> str:
        """Units follow from the parse alone, so they are kept with the analysis, also in a persistent cache."""
        return derived_key(type(self), {})


def _label_kind(label: str) -> tuple[ArgumentKind | None, bool]:
    """The kind of a TARGER label and whether it begins a unit: ``"C-B"`` -> ``("claim", True)``."""
    parts = label.upper().split("-")
    if len(parts) != 2:
        return None, False
    position, kind = (parts[0], parts[1]) if parts[0] in {"B", "I"} else (parts[1], parts[0])
    kinds: dict[str, ArgumentKind] = {"C": "claim", "MC": "claim", "P": "premise", "MP": "premise"}
    if position not in {"B", "I"} or kind not in kinds:
        return None, False
    return kinds[kind], position == "B"


@parameters
class TargerTagger(ArgumentTagger):
    """Argument units from a TARGER server over its HTTP API.

    Each distinct text is sent once (``POST <url><model>``, ``Content-Type: text/plain``). Units
    are read off the tags as the reference implementation (ir-axioms) counts them:

    - a **claim** is a run of consecutive claim tokens (``C-*``, ``MC-*``, ``B`` or ``I``): it
      starts at a claim token more likely than ``min_probability`` and ends at the first token
      that is no claim token, whatever its probability; a less likely claim token inside the run
      does not end it, nor does a ``B`` label or a sentence boundary;
    - a **premise** starts at each ``P-B`` token more likely than ``min_probability`` and spans
      the premise tokens (``P-I``, ``MP-I``) that follow it; premise tokens without such a start,
      and ``MP-B``, open no unit.

    A unit spans from its first to its last token (tokens are located in the text in order).
    """

    name = "targer"
    #: Base URL of the TARGER API (default: the public service).
    url: str = parameter(DEFAULT_TARGER_URL, positional=True, always_shown=True)
    #: The tagging endpoint, e.g. ``"tag-ibm-fasttext"`` or ``"tag-combined-essays"``.
    model: str = parameter(DEFAULT_TARGER_MODEL, always_shown=True)
    #: Tokens whose label is less likely than this count as outside units.
    min_probability: float = parameter(0.5, at_least=0, at_most=1, in_repr=False)
    #: Seconds to wait for an answer.
    timeout: float = parameter(60.0, in_repr=False)

    @property
    def endpoint(self) -> str:
        """The URL the texts are posted to."""
        return f"{self.url.rstrip('/')}/{self.model.lstrip('/')}"

    def request(self, text: str) -> list:
        """The raw TARGER answer for ``text``: a list of sentences, each a list of token dicts."""
        request = urllib.request.Request(
            self.endpoint,
            data=text.encode("utf-8"),
            headers={"Content-Type": "text/plain", "Accept": "application/json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                body = answer.read()
        except urllib.error.HTTPError as error:
            raise TargerUnavailableError(
                f"TARGER server at {self.endpoint} answered HTTP {error.code} ({error.reason})"
            ) from error
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise TargerUnavailableError(
                f"No TARGER server answered at {self.endpoint}: {reason}. Start one (see "
                "https://github.com/uhh-lt/targer) and pass its URL, or use the offline DiscourseMarkerTagger."
            ) from error
        try:
            sentences = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ValueError(f"TARGER server at {self.endpoint} answered with invalid JSON: {error}") from error
        if not isinstance(sentences, list) or not all(isinstance(sentence, list) for sentence in sentences):
            raise ValueError(
                f"TARGER server at {self.endpoint} answered {type(sentences).__name__}, not a list of sentences "
                "(lists of tokens)"
            )
        return sentences

    def parse(self, text: str, sentences: list) -> tuple[ArgumentUnit, ...]:
        """Argument units of ``text`` from a TARGER answer (see the class for how they are counted)."""
        units: list[ArgumentUnit] = []
        current: tuple[ArgumentKind, int, int] | None = None
        cursor = 0
        for sentence_number, sentence in enumerate(sentences):
            for token_number, tag in enumerate(sentence):
                if not isinstance(tag, dict) or "token" not in tag or "label" not in tag:
                    raise ValueError(
                        f"TARGER server at {self.endpoint}: token {token_number} of sentence {sentence_number} "
                        f"is {tag!r}, not an object with 'token' and 'label'"
                    )
                token = str(tag["token"])
                found = text.find(token, cursor) if token else -1
                if found >= 0:
                    start, end = found, found + len(token)
                    cursor = end
                else:  # a token the server spelled differently: its label counts, its span is empty
                    start = end = current[2] if current is not None else cursor
                label = str(tag["label"]).upper()
                kind, begins = _label_kind(label)
                likely = float(tag.get("prob", 1.0)) > self.min_probability
                if current is not None and current[0] == "claim" and kind == "claim":
                    current = ("claim", current[1], end)  # a claim run goes on, however likely the token
                    continue
                if current is not None and current[0] == "premise" and kind == "premise" and not begins:
                    current = ("premise", current[1], end)
                    continue
                if current is not None:
                    units.append(ArgumentUnit(*current))
                    current = None
                if kind == "claim" and likely:
                    current = ("claim", start, end)
                elif kind == "premise" and begins and likely and "MP" not in label.split("-"):
                    current = ("premise", start, end)
        if current is not None:
            units.append(ArgumentUnit(*current))
        return tuple(units)

    def tag(self, analysis: TextAnalysis) -> tuple[ArgumentUnit, ...]:
        text = analysis.text
        if not text.strip():
            return ()
        return self.parse(text, self.request(text))


def discourse_marker_tagger() -> DiscourseMarkerTagger:
    """The process-wide :class:`DiscourseMarkerTagger`."""
    return DiscourseMarkerTagger.shared()


def targer_tagger(url: str = DEFAULT_TARGER_URL, model: str = DEFAULT_TARGER_MODEL) -> TargerTagger:
    """The process-wide :class:`TargerTagger` for a URL and model."""
    return TargerTagger.shared(url=url, model=model)


def resolve_argument_tagger(tagger: ArgumentTagger | str | None) -> ArgumentTagger:
    """A tagger from an instance, a TARGER URL, or ``None`` for the shared discourse-marker tagger."""
    if tagger is None:
        return discourse_marker_tagger()
    if isinstance(tagger, str):
        return targer_tagger(tagger)
    if isinstance(tagger, ArgumentTagger):
        return tagger
    raise TypeError(f"argument_tagger must be an ArgumentTagger, a TARGER URL or None, not {type(tagger).__name__}")
