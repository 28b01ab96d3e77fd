"""pyterrier-rag integration: several responses per query with their contexts (MultiGenerator,
SamplingReader) and one answer per query at the end (BestOfN); no axioms or rankers of its own."""

from pyterrier_rag_axioms.pipelines.best_of_n import BestOfN
from pyterrier_rag_axioms.pipelines.rag import ANSWER_COLUMNS, MultiGenerator, SamplingReader

__all__ = ["ANSWER_COLUMNS", "BestOfN", "MultiGenerator", "SamplingReader"]
