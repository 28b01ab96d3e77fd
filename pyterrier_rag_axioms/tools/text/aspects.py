"""Aspects of a text: the distinct noun chunks or named entities that the coverage axioms compare."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, Protocol

from pyterrier_rag_axioms.declaration import declared_repr, parameter, parameters


class AspectSource(Protocol):
    """What an aspect extraction reads of an analysed text (a
    :class:`~pyterrier_rag_axioms.tools.text.TextAnalysis`): its distinct noun chunks and entities."""

    @property
    def noun_chunks(self) -> tuple[str, ...]: ...

    @property
    def noun_chunks_with_pronouns(self) -> tuple[str, ...]: ...

    @property
    def entities(self) -> tuple[str, ...]: ...


def normalize_aspect(text: str) -> str:
    """An aspect's text lower-cased, with whitespace collapsed."""
    return " ".join(text.lower().split())


class AspectExtraction(Protocol):
    """Extracts the distinct aspects of an analysed text."""

    name: str

    def __call__(self, analysis: AspectSource) -> tuple[str, ...]: ...


@parameters
class NounChunkAspects:
    """Aspects are the distinct noun chunks of a text (lower-cased).

    Citation markers and the list, heading and quote markers that open a line are never part of
    an aspect. Chunks headed by a pronoun ("it", "they", "which", "you") say nothing about the
    topic and are left out, unless ``pronouns=True`` (as in spaCy's plain ``noun_chunks`` and in
    ir-axioms).
    """

    #: Keep noun chunks headed by a pronoun as aspects.
    pronouns: bool = parameter(False)

    def __post_init__(self) -> None:
        self.name = "noun_chunks_with_pronouns" if self.pronouns else "noun_chunks"

    def __call__(self, analysis: AspectSource) -> tuple[str, ...]:
        return analysis.noun_chunks_with_pronouns if self.pronouns else analysis.noun_chunks

    __repr__ = declared_repr


@parameters
class EntityAspects:
    """Aspects are the distinct named entities of a text (lower-cased), as in the ICTIR 2025 paper."""

    name = "entities"

    def __call__(self, analysis: AspectSource) -> tuple[str, ...]:
        return analysis.entities

    __repr__ = declared_repr


AspectName = Literal["noun_chunks", "noun_chunks_with_pronouns", "entities"]
AspectsArgument = AspectExtraction | AspectName
#: The aspect extractions by name, each made anew when asked for.
NAMED_ASPECTS: dict[str, Callable[[], AspectExtraction]] = {
    "noun_chunks": NounChunkAspects,
    "noun_chunks_with_pronouns": lambda: NounChunkAspects(pronouns=True),
    "entities": EntityAspects,
}
#: The names of the aspect extractions :func:`resolve_aspects` knows (the command line offers them).
ASPECT_NAMES: tuple[str, ...] = tuple(NAMED_ASPECTS)


def resolve_aspects(aspects: AspectsArgument) -> AspectExtraction:
    """An aspect extraction from an instance or one of the names of :data:`ASPECT_NAMES`
    (``"noun_chunks"``, ``"noun_chunks_with_pronouns"``, ``"entities"``)."""
    if isinstance(aspects, str) and aspects in NAMED_ASPECTS:
        return NAMED_ASPECTS[aspects]()
    if callable(aspects):
        return aspects
    raise ValueError(f"aspects must be {', '.join(map(repr, ASPECT_NAMES))} or an AspectExtraction, not {aspects!r}")
