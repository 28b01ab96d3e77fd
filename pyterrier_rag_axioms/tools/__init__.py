"""Tools that several packages, or the axioms' own tools, use: ``text/`` (spaCy), ``embeddings/``, ``grammar/``,
terms, arguments, ROUGE. Not here: what one package alone reads (it lives there), caches and workers (``runtime/``)."""

from pyterrier_rag_axioms.tools.arguments import DiscourseMarkerTagger, TargerTagger, TargerUnavailableError
from pyterrier_rag_axioms.tools.embeddings import SentenceSimilarity
from pyterrier_rag_axioms.tools.grammar import GrammarChecker, LanguageToolUnavailableError
from pyterrier_rag_axioms.tools.term_similarity import EmbeddingTermSimilarity, FunctionTermSimilarity
from pyterrier_rag_axioms.tools.terms import TermExtractor
from pyterrier_rag_axioms.tools.text import EntityAspects, NounChunkAspects, TextAnalyzer

__all__ = [
    "DiscourseMarkerTagger", "EmbeddingTermSimilarity", "EntityAspects", "FunctionTermSimilarity", "GrammarChecker",
    "LanguageToolUnavailableError", "NounChunkAspects", "SentenceSimilarity", "TargerTagger", "TargerUnavailableError",
    "TermExtractor", "TextAnalyzer",
]
