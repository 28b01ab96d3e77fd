"""Consistency axioms.

External consistency: does the response convey the information of its sources accurately?
Internal consistency: does the response not contradict itself?
"""

from __future__ import annotations

import numpy as np

from pyterrier_rag_axioms.axioms._analyzed import AnalyzedFeatureAxiom, TextFeatureAxiom
from pyterrier_rag_axioms.axioms._base import parameter, parameters
from pyterrier_rag_axioms.axioms.coverage.aspects import AspectSentenceCoverageAxiom
from pyterrier_rag_axioms.declaration import TOOL
from pyterrier_rag_axioms.frames import Context, ResponseTable
from pyterrier_rag_axioms.runtime.cache import text_key
from pyterrier_rag_axioms.tools.rouge import RougeLsum, rouge_lsum_text
from pyterrier_rag_axioms.tools.text import TextAnalysis


class AspectSimilaritySentenceCountConsistencyAxiom(AspectSentenceCoverageAxiom):
    """CONS1: prefer responses with more sentences covering aspects of the retrieved context.

    Intuition: a response consistent with its sources talks about what the sources talk about.
    Like COV3, but the aspects come from the context passages (the distinct aspects of all
    passages together). Higher is better; no context gives no preference.
    """

    short_name = "CONS1"
    registry_group = "rag"
    default_margin_fraction = 0.5
    needs_context = True

    def target_aspects(self, table: ResponseTable) -> list[tuple[str, ...]]:
        passages = list(dict.fromkeys(passage for context in table.contexts if context for passage in context))
        aspects_of_passage = dict(zip(passages, self.aspects_of(passages)))
        return [
            tuple(dict.fromkeys(aspect for passage in context for aspect in aspects_of_passage[passage]))
            if context
            else ()
            for context in table.contexts
        ]


class RougeConsistencyAxiom(AnalyzedFeatureAxiom):
    """CONS2: prefer responses with more text overlap with the retrieved context.

    Intuition: a response that reuses the wording of its sources is more likely faithful to them.
    The value is the ROUGE-Lsum F-measure of the response against the concatenated context
    passages, both split into sentences by spaCy; higher is better. No context gives NaN (no
    preference).
    """

    short_name = "CONS2"
    registry_group = "rag"
    default_margin_fraction = 0.1
    needs_context = True

    rouge = RougeLsum.shared()

    def response_values(self, table: ResponseTable) -> np.ndarray:
        passages = list(dict.fromkeys(passage for context in table.contexts if context for passage in context))
        analyses = self.text_analyzer.analyse([*table.texts, *passages], verbose=self.verbose)
        passage_sentences = {
            passage: analysis.sentence_texts for passage, analysis in zip(passages, analyses[len(table) :])
        }
        targets: dict[Context, tuple[str, str]] = {}  # context: its ROUGE text and its value key
        values = []
        for response, context in zip(analyses[: len(table)], table.contexts):
            if not context:
                values.append(np.nan)
                continue
            if context not in targets:
                target = rouge_lsum_text([s for p in context for s in passage_sentences[p]])
                targets[context] = (target, f"{self.value_key()}{self.rouge!r}:{text_key(target).hex()}")
            target, key = targets[context]
            # kept with the response (and in a persistent cache) per context: warm runs skip ROUGE
            values.append(response.derived(key, lambda analysis, target=target: self._fmeasure(target, analysis)))
        return np.array(values, dtype=float)

    def _fmeasure(self, target: str, analysis: TextAnalysis) -> float:
        return self.rouge.fmeasure(target, rouge_lsum_text(analysis.sentence_texts))


class EntityContradictionConsistencyAxiom(TextFeatureAxiom):
    """CONS3: penalise entities mentioned in contradictory phrases.

    Intuition: a response that states something about an entity and also negates it contradicts
    itself. The value is the share of distinct named entities that occur both negated and not
    (negation by negspaCy); lower is better. NaN for a response without named entities.
    """

    short_name = "CONS3"
    registry_group = "rag"
    default_margin_fraction = 0.2
    prefer_higher = False

    def text_value(self, analysis: TextAnalysis) -> float:
        """Share of distinct named entities that occur both negated and not (NaN without any)."""
        polarities = analysis.entity_polarities
        if not polarities:
            return float("nan")
        return sum(len(polarity) == 2 for polarity in polarities.values()) / len(polarities)


#: How much CONS4 counts the IDF mass of an answer's words outside its atomic facts that no passage
#: holds, against that of its unsupported claims (chosen on RAGTruth QA train's pairs: see docs/grounding.md).
UNCOVERED_WEIGHT = 0.5


def _support_model(axiom: object, model: object) -> object:
    from pyterrier_rag_axioms.support import resolve_support_model  # the model loads on first use

    return resolve_support_model(axiom, model)


@parameters
class GroundedClaimsConsistencyAxiom(AnalyzedFeatureAxiom):
    """CONS4: prefer the answer whose claims its own passages support better.

    Intuition: a faithful answer says only what its sources say. Unlike CONS1 and CONS2, which
    reward covering the context (so that a longer answer wins), CONS4 is precision against the
    context: an answer gains nothing by saying more, and loses by each thing it says that its
    passages do not support. The value is the expected unsupported information of the answer:
    over its claims (its atomic facts; see :class:`~pyterrier_rag_axioms.grounding.Faithfulness`),
    the probability that the passages do not support the claim (by the support model,
    :class:`~pyterrier_rag_axioms.support.SupportModel`) times the IDF mass of the claim's words
    that no passage holds, plus :data:`UNCOVERED_WEIGHT` times the IDF mass of the answer's words
    outside all its atomic facts that no passage holds (sentences the splitter leaves out: headings,
    lead-ins); lower is better. An answer without claims (one that declines to answer) has 0 but
    for such words; no context gives NaN (no preference).
    """

    short_name = "CONS4"
    registry_group = "extra"
    default_margin_fraction = 0.05
    needs_context = True
    prefer_higher = False

    #: The support model, or the path of a fitted model file (default: the shipped model).
    support_model: object = parameter(None, role=TOOL, resolve=_support_model, shown=lambda model: repr(model))

    def response_values(self, table: ResponseTable) -> np.ndarray:
        from pyterrier_rag_axioms.grounding.faithfulness import groundings

        values = np.full(len(table), np.nan)
        rows = [row for row, context in enumerate(table.contexts) if context]
        found = groundings(
            [table.texts[row] for row in rows],
            [table.contexts[row] for row in rows],
            support_model=self.support_model,
            text_analyzer=self.text_analyzer,
            verbose=self.verbose,
        )
        for row, grounding in zip(rows, found):
            values[row] = grounding.unsupported_mass() + UNCOVERED_WEIGHT * grounding.uncovered_idf
        return values


CONS1 = AspectSimilaritySentenceCountConsistencyAxiom
CONS2 = RougeConsistencyAxiom
CONS3 = EntityContradictionConsistencyAxiom
CONS4 = GroundedClaimsConsistencyAxiom
