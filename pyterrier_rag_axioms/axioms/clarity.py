"""Clarity axioms.

Language clarity: is the response concise, comprehensible, grammatically correct and accessible?
Content clarity: does the response clearly communicate the salient information and its sources?
"""

from __future__ import annotations

import numpy as np

from pyterrier_rag_axioms.axioms._analyzed import TextFeatureAxiom
from pyterrier_rag_axioms.axioms._base import FeatureAxiom, parameter, parameters
from pyterrier_rag_axioms.axioms._readability import flesch_reading_ease
from pyterrier_rag_axioms.declaration import TOOL, same
from pyterrier_rag_axioms.frames import ResponseTable
from pyterrier_rag_axioms.tools.grammar import DEFAULT_TIMEOUT, GrammarChecker
from pyterrier_rag_axioms.tools.grammar import grammar_checker as shared_grammar_checker
from pyterrier_rag_axioms.tools.text import TextAnalysis


def _unless_shared_checker(checker: GrammarChecker | None) -> GrammarChecker | None:
    """How a grammar checker shows: not at all where ``remote_server``, ``language`` and ``timeout`` name it."""
    if checker is None:
        return None
    if same(checker, shared_grammar_checker(checker.remote_server, checker.language, checker.timeout)):
        return None
    return checker


@parameters
class LanguageToolGrammarErrorProportionClarityAxiom(FeatureAxiom):
    """CLAR1: prefer responses with fewer grammar errors.

    Intuition: grammatical text is clearer. The value is the share of the response's characters
    covered by LanguageTool matches of the GRAMMAR category; lower is better. Needs a LanguageTool
    server: ``remote_server="http://127.0.0.1:8081"``, by default ``$RAG_AXIOMS_LANGUAGETOOL_URL`` or
    that address, where ``python -m pyterrier_rag_axioms.languagetool start`` runs one.
    """

    short_name = "CLAR1"
    registry_group = "rag"
    default_margin_fraction = 0.1
    prefer_higher = False

    #: URL of a LanguageTool server (default: ``$RAG_AXIOMS_LANGUAGETOOL_URL``, else ``http://127.0.0.1:8081``).
    remote_server: str | None = parameter(None, role=TOOL)
    #: Language code for LanguageTool (default ``"en-US"``).
    language: str = parameter("en-US")
    #: Seconds one LanguageTool request may take before it is an error (default 10).
    timeout: float = parameter(DEFAULT_TIMEOUT)
    #: A :class:`GrammarChecker` to use instead of ``remote_server``, ``language`` and ``timeout``.
    grammar_checker: GrammarChecker | None = parameter(None, role=TOOL, shown=_unless_shared_checker)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.grammar_checker = self.grammar_checker or shared_grammar_checker(
            self.remote_server, self.language, self.timeout
        )
        self.remote_server = self.grammar_checker.remote_server
        self.language = self.grammar_checker.language
        self.timeout = self.grammar_checker.timeout

    def response_values(self, table: ResponseTable) -> np.ndarray:
        return self.grammar_checker.error_shares(table.texts, verbose=self.verbose)



@parameters
class FleschReadingEaseClarityAxiom(TextFeatureAxiom):
    """CLAR2: prefer responses that are easier to read.

    Intuition: readable text is clearer. The value is the Flesch reading ease
    (206.835 - 1.015 words/sentences - 84.6 syllables/words; higher means easier). By default the
    easier response is preferred. The published formula (Eq. 11 of the ICTIR 2025 paper) prefers
    the *lower* score, i.e. the harder text; ``paper_direction=True`` reproduces that.
    """

    short_name = "CLAR2"
    registry_group = "rag"
    default_margin_fraction = 0.0

    #: Prefer the *lower* reading ease, as the paper's Eq. 11 does.
    paper_direction: bool = parameter(False)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.prefer_higher = not self.paper_direction

    def text_value(self, analysis: TextAnalysis) -> float:
        return flesch_reading_ease(analysis)


CLAR1 = LanguageToolGrammarErrorProportionClarityAxiom
CLAR2 = FleschReadingEaseClarityAxiom
