"""Argumentative axioms adapted to generated responses: GEN_ArgUC, GEN_QTArg, GEN_QTPArg, GEN_aSL."""

from __future__ import annotations

import numpy as np

from pyterrier_rag_axioms.axioms._base import parameter, parameters, resolve_tool
from pyterrier_rag_axioms.axioms.gen._base import GenerativeRetrievalFeatureAxiom, Profiles
from pyterrier_rag_axioms.declaration import TOOL
from pyterrier_rag_axioms.frames import ResponseTable
from pyterrier_rag_axioms.tools.arguments import ArgumentTagger, ArgumentUnit, resolve_argument_tagger
from pyterrier_rag_axioms.tools.terms import TermProfile


@parameters
class _ArgumentAxiom(GenerativeRetrievalFeatureAxiom):
    """A GEN_* axiom over the argument units of responses, from an :class:`ArgumentTagger`."""

    length_precondition = True

    #: An :class:`ArgumentTagger`, or the URL of a TARGER API for a :class:`TargerTagger`
    #: (default: the offline :class:`DiscourseMarkerTagger`).
    argument_tagger: ArgumentTagger | str | None = parameter(
        None, role=TOOL, resolve=resolve_tool(resolve_argument_tagger)
    )

    def argument_units(self, table: ResponseTable) -> list[tuple[ArgumentUnit, ...]]:
        """The argument units of each response."""
        analyses = self.term_extractor.text_analyzer.analyse(table.texts, verbose=self.verbose)
        return self.argument_tagger.units(analyses, verbose=self.verbose)


def _in_units(response: TermProfile, units: tuple[ArgumentUnit, ...]) -> list[bool]:
    """Whether each term of the response lies inside an argument unit."""
    return [any(unit.covers(offset) for unit in units) for offset in response.offsets]


class GenerativeArgumentativeUnitsCountAxiom(_ArgumentAxiom):
    """GEN_ArgUC (ArgUC, Bondarenko et al. 2018): prefer the response with more argument units.

    Intuition: a response that argues (claims backed by premises) is more useful for a request
    that asks for reasons. The value is the number of claims and premises the argument tagger
    finds; higher is better. Length precondition: lengths within 10 %.
    """

    short_name = "GEN_ArgUC"
    default_margin_fraction = 0.0
    uses_query = False

    def profile_values(self, table: ResponseTable, queries: Profiles, responses: Profiles) -> np.ndarray:
        return np.array([len(units) for units in self.argument_units(table)], dtype=float)


class GenerativeQueryTermOccurrenceInArgumentativeUnitsAxiom(_ArgumentAxiom):
    """GEN_QTArg (QTArg, Bondarenko et al. 2018): prefer the response with more request terms inside argument units.

    Intuition: query terms that occur in claims and premises show that the argumentation is on
    topic. The value is the number of occurrences of distinct request terms inside argument
    units; higher is better. Length precondition: lengths within 10 %.
    """

    short_name = "GEN_QTArg"
    default_margin_fraction = 0.0

    def profile_values(self, table: ResponseTable, queries: Profiles, responses: Profiles) -> np.ndarray:
        values = []
        for query, response, units in zip(queries, responses, self.argument_units(table)):
            inside = _in_units(response, units)
            values.append(sum(1 for term, flag in zip(response.terms, inside) if flag and term in query.vocabulary))
        return np.array(values, dtype=float)


class GenerativeQueryTermPositionInArgumentativeUnitsAxiom(_ArgumentAxiom):
    """GEN_QTPArg (QTPArg, Bondarenko et al. 2018): prefer request terms early in argument units.

    Intuition: query terms occur early in relevant documents. For each distinct request term, take
    the position (1-based, in terms) of its first occurrence inside an argument unit, or the
    response's length plus one where it has none; the value is the mean of these positions;
    lower is better. Length precondition: lengths within 10 %.
    """

    short_name = "GEN_QTPArg"
    default_margin_fraction = 0.0
    prefer_higher = False

    def profile_values(self, table: ResponseTable, queries: Profiles, responses: Profiles) -> np.ndarray:
        values = []
        for query, response, units in zip(queries, responses, self.argument_units(table)):
            first: dict[str, int] = {}
            for position, (term, inside) in enumerate(zip(response.terms, _in_units(response, units)), start=1):
                if inside and term in query.vocabulary:
                    first.setdefault(term, position)
            positions = [first.get(term, len(response) + 1) for term in query.distinct]
            values.append(float(np.mean(positions)) if positions else np.nan)
        return np.array(values, dtype=float)


@parameters
class GenerativeAverageSentenceLengthAxiom(GenerativeRetrievalFeatureAxiom):
    """GEN_aSL (aSL, Bondarenko et al. 2018): prefer the response with an average sentence length of 12 to 20 words.

    Intuition: sentences of 12 to 20 words read well (style guides for technical writing). The
    value is 1 if the mean number of words per sentence (tokens that are neither punctuation nor
    citation markers; stop words count) lies in ``[min_sentence_length, max_sentence_length]``,
    else 0; higher is better. Length precondition: lengths within 10 %.
    """

    short_name = "GEN_aSL"
    default_margin_fraction = 0.0
    uses_query = False
    length_precondition = True

    #: The shortest good average sentence length, in words (default 12).
    min_sentence_length: float = parameter(12)
    #: The longest good average sentence length, in words (default 20).
    max_sentence_length: float = parameter(20)

    def __post_init__(self) -> None:
        if not 0 <= self.min_sentence_length <= self.max_sentence_length:
            raise ValueError(
                f"{type(self).__name__}: need 0 <= min_sentence_length <= max_sentence_length, "
                f"not {self.min_sentence_length!r} and {self.max_sentence_length!r}"
            )
        super().__post_init__()

    def profile_values(self, table: ResponseTable, queries: Profiles, responses: Profiles) -> np.ndarray:
        values = []
        for response in responses:
            if not response.sentence_lengths:
                values.append(np.nan)
                continue
            average = float(np.mean(response.sentence_lengths))
            values.append(float(self.min_sentence_length <= average <= self.max_sentence_length))
        return np.array(values, dtype=float)
