"""Faithfulness: the share of an answer's claims that its own passages support, and where the others are."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.declaration import DECISION, PRESENTATION, TOOL, declared_repr, parameter, parameters
from pyterrier_rag_axioms.frames.contract import NAMES_ATTR, response_frame, restore_names
from pyterrier_rag_axioms.grounding.claims import claims_of, declines, without_source_references
from pyterrier_rag_axioms.nuggets.facts import AtomicFact, atomic_facts_of
from pyterrier_rag_axioms.support import FEATURES, SupportModel, resolve_support_model
from pyterrier_rag_axioms.tools.terms import term_extractor
from pyterrier_rag_axioms.tools.text import TextAnalyzer, resolve_text_analyzer

#: The columns :class:`Faithfulness` adds.
FAITHFULNESS_COLUMNS: list[str] = ["faithfulness", "unsupported"]


@dataclass(frozen=True)
class Grounding:
    """An answer's claims, each with the probability that the answer's passages support it and the
    support model's features (:data:`~pyterrier_rag_axioms.support.FEATURES`, one row per claim)."""

    claims: tuple[AtomicFact, ...]
    probabilities: np.ndarray
    features: np.ndarray
    #: The IDF mass of the answer's distinct lemmas outside all its atomic facts that no passage holds
    #: (words of sentences that the splitter leaves out: headings, list lead-ins).
    uncovered_idf: float = 0.0

    def unsupported_mass(self) -> float:
        """The expected IDF mass of what the answer states without support: over its claims, the
        probability that a claim is unsupported times the IDF mass of its terms that no passage holds."""
        missing = np.expm1(self.features[:, FEATURES.index("missing_idf")]) if self.claims else np.zeros(0)
        return float(np.sum((1.0 - self.probabilities) * missing))

    def supported(self, threshold: float) -> np.ndarray:
        """Whether each claim is supported (its probability at least ``threshold``)."""
        return self.probabilities >= threshold

    def faithfulness(self, threshold: float) -> float:
        """The share of supported claims (1.0 without claims)."""
        return float(self.supported(threshold).mean()) if self.claims else 1.0

    def unsupported(self, threshold: float, response: str) -> list[dict]:
        """The spans of the unsupported claims in ``response``: ``{"start", "end", "text"}``, in text order."""
        return [
            {"start": claim.start, "end": claim.end, "text": response[claim.start : claim.end]}
            for claim, supported in zip(self.claims, self.supported(threshold))
            if not supported
        ]


def groundings(
    responses: Sequence[str],
    contexts: Sequence[Sequence[str]],
    *,
    support_model: SupportModel,
    text_analyzer: TextAnalyzer,
    verbose: bool = False,
) -> list[Grounding]:
    """The :class:`Grounding` of each answer against its own passages (claims split and checked in one batch)."""
    facts = atomic_facts_of(list(responses), analyzer=text_analyzer)
    claims = [claims_of(answer_facts) for answer_facts in facts]
    statements = [without_source_references(claim.text) for facts in claims for claim in facts]
    evidence = [tuple(context) for facts, context in zip(claims, contexts) for _ in facts]
    features = support_model.features(statements, evidence, verbose=verbose)
    probabilities = support_model.probabilities_of(features) if len(features) else np.zeros(0)
    bounds = np.cumsum([0, *(len(facts) for facts in claims)])
    uncovered = uncovered_idf(responses, contexts, facts, support_model.idf_table, text_analyzer)
    return [
        Grounding(tuple(answer_claims), probabilities[start:end], features[start:end], mass)
        for answer_claims, start, end, mass in zip(claims, bounds, bounds[1:], uncovered)
    ]


def uncovered_idf(
    responses: Sequence[str],
    contexts: Sequence[Sequence[str]],
    facts: Sequence[Sequence[AtomicFact]],
    idf: tuple[dict[str, float], float],
    text_analyzer: TextAnalyzer,
) -> list[float]:
    """For each answer, the IDF mass (``idf``: the weights and that of a lemma without one) of its
    distinct lemmas that no passage of its context holds, outside all its atomic facts and outside
    the sentences that decline to answer."""
    extractor = term_extractor(text_analyzer)
    passages = list(dict.fromkeys(passage for context in contexts for passage in context))
    vocabulary = {passage: profile.vocabulary for passage, profile in zip(passages, extractor.profiles(passages))}
    weights, default_idf = idf
    masses = []
    analyses = text_analyzer.analyse(responses)
    for analysis, context, answer_facts in zip(analyses, contexts, facts):
        held = frozenset().union(*(vocabulary[passage] for passage in context))
        covered = [(fact.start, fact.end) for fact in answer_facts] + [
            (sentence.start_char, sentence.end_char) for sentence in analysis.sentences if declines(sentence.text)
        ]
        profile = extractor.profile_of(analysis)
        outside = {
            term
            for term, offset in zip(profile.terms, profile.offsets)
            if term not in held and not any(start <= offset < end for start, end in covered)
        }
        masses.append(float(sum(weights.get(term, default_idf) for term in sorted(outside))))
    return masses


@parameters
class Faithfulness(pt.Transformer):
    """Check each answer's claims against its own passages: the share supported, and the spans of the others.

    Each answer is split into claims, its atomic facts
    (:func:`~pyterrier_rag_axioms.tools.text.atomic_facts`, the splitter of the nugget extractor),
    and the :class:`~pyterrier_rag_axioms.support.SupportModel` gives the probability that the
    answer's ``context`` (its passages) supports each: the passages are the evidence, the claim
    the statement. A claim whose probability is under ``threshold`` is unsupported. An answer that
    declines to answer ("Unable to answer based on the given passages.") makes no claim.

    Adds two columns to a response frame (``qid``, ``query``, ``docno``, ``response``,
    ``context``, or pyterrier-rag's ``qanswer`` and ``qcontext``):

    - ``faithfulness``: the share of the answer's claims that its passages support, in [0, 1]
      (1.0 for an answer without claims);
    - ``unsupported``: a list of ``{"start", "end", "text"}``, the character spans in the answer
      of the claims that no passage supports, in text order.

    An answer without a context cannot be checked: the transformer raises a ``ValueError`` that
    names the column and the row's qid and docno (rather than a NaN that a mean would hide).
    """

    #: The support model, or the path of a fitted model file (default: the shipped model).
    support_model: SupportModel | str | Path | None = parameter(
        None, role=TOOL, resolve=resolve_support_model, shown=lambda model: repr(model)
    )
    #: The probability under which a claim is unsupported (default: the support model's fitted claim threshold).
    threshold: float | None = parameter(None, role=DECISION, at_least=0.0, at_most=1.0)
    #: A spaCy model name or analyzer (default: the shared one).
    text_analyzer: TextAnalyzer | str | None = parameter(
        None, role=TOOL, keyed=False, resolve=lambda owner, analyzer: resolve_text_analyzer(analyzer)
    )
    #: Show progress.
    verbose: bool = parameter(False, role=PRESENTATION, hidden=True)

    __repr__ = declared_repr

    @property
    def claim_threshold(self) -> float:
        """The threshold in use: ``threshold``, else the support model's fitted one."""
        return self.support_model.claim_threshold if self.threshold is None else float(self.threshold)

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """The response frame with ``faithfulness`` and ``unsupported``."""
        frame = response_frame(inp, self)
        names = frame.attrs.get(NAMES_ATTR, {})
        missing = frame["context"].isna().to_numpy()
        if missing.any():
            row = frame.iloc[int(np.flatnonzero(missing)[0])]
            column = next((alias for alias, ours in names.items() if ours == "context"), "context")
            raise ValueError(
                f"{type(self).__name__}: column {column!r} has no passages for qid {row['qid']!r}, docno "
                f"{row['docno']!r} ({int(missing.sum())} rows without context); faithfulness is measured "
                "against an answer's own passages"
            )
        found = groundings(
            frame["response"].tolist(),
            frame["context"].tolist(),
            support_model=self.support_model,
            text_analyzer=self.text_analyzer,
            verbose=self.verbose,
        )
        threshold = self.claim_threshold
        frame["faithfulness"] = np.array([grounding.faithfulness(threshold) for grounding in found], dtype=float)
        frame["unsupported"] = pd.Series(
            [grounding.unsupported(threshold, text) for grounding, text in zip(found, frame["response"])],
            index=frame.index,
            dtype=object,
        )
        return restore_names(frame, names)
