"""ROUGE-Lsum F-measure, with sentences split by spaCy and joined by newlines."""

from __future__ import annotations

from collections.abc import Sequence

from rouge_score_rs import rouge_scorer

from pyterrier_rag_axioms.declaration import parameter, parameters
from pyterrier_rag_axioms.tools._shared import SharedTool


def rouge_lsum_text(sentences: Sequence[str]) -> str:
    """A text in ROUGE-Lsum's input format: one sentence per line."""
    return "\n".join(" ".join(sentence.split()) for sentence in sentences)


@parameters
class RougeLsum(SharedTool):
    """ROUGE-Lsum F-measure of predictions against a target, computed by ``rouge-score-rs``.

    ``rouge-score-rs`` gives the same numbers as Google's ``rouge-score`` (no stemming), far faster.
    Inputs are texts with one sentence per line (see :func:`rouge_lsum_text`).
    """

    #: Whether words are reduced to their Porter stems first (default: no stemming).
    use_stemmer: bool = parameter(False, always_shown=True)

    def __post_init__(self) -> None:
        self._scorer = rouge_scorer.RougeScorer(["rougeLsum"], use_stemmer=self.use_stemmer, split_summaries=False)

    def fmeasure(self, target: str, prediction: str) -> float:
        """ROUGE-Lsum F-measure of ``prediction`` against ``target``."""
        return float(self._scorer.score(target, prediction)["rougeLsum"].fmeasure)
