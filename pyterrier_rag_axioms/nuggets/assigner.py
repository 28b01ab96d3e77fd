"""NuggetAssigner: decide without an LLM whether each answer supports each of its topic's nuggets.

- :func:`load_nuggets`: each topic's nuggets from a frame or a file (TREC 2024 RAG nugget files too).
- :class:`NuggetAssigner`: a transformer from a response frame to one row per (response, nugget)
  with an assignment (support / partial_support / not_support), a confidence and the supporting spans.
- :class:`NuggetModel` / :func:`fit_nugget_model`: the fitted decision, and how to fit another.

The assignments go through the same score functions as human ones
(:func:`~pyterrier_rag_axioms.judgments.nugget_scores`).
"""

from __future__ import annotations

import functools
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.declaration import (
    PRESENTATION,
    REQUIRED,
    TOOL,
    declared_repr,
    parameter,
    parameters,
    shown_source,
)
from pyterrier_rag_axioms.frames import response_frame
from pyterrier_rag_axioms.judgments import load_nugget_assignments
from pyterrier_rag_axioms.nuggets._evidence import TextEvidence, nugget_parts, text_evidence
from pyterrier_rag_axioms.nuggets._features import FEATURES, PairEvidence, PartsEvidence, topic_features
from pyterrier_rag_axioms.nuggets.files import EMPTY_TOPICS, load_nuggets
from pyterrier_rag_axioms.nuggets.model import NuggetModel, fit_nugget_model, resolve_nugget_model
from pyterrier_rag_axioms.runtime.by_topic import ByTopic
from pyterrier_rag_axioms.support import SupportModel, resolve_support_model
from pyterrier_rag_axioms.tools.embeddings.naming import encoder_parameter
from pyterrier_rag_axioms.tools.embeddings.similarity import SentenceSimilarity
from pyterrier_rag_axioms.tools.text import TextAnalyzer, resolve_text_analyzer

#: The default encoder: all-MiniLM-L6-v2 exported to ONNX, float32, each text encoded alone (see
#: :func:`~pyterrier_rag_axioms.tools.embeddings.similarity.batch_independent_similarity`): torch's
#: embeddings to about 1e-7, the same decisions on every CPU. The 8-bit encoder (``"onnx-int8"``)
#: takes about half its CPU, but its activations are rounded to 8 bits, which turns the last-bit
#: differences between CPUs' float kernels into differences of up to 0.02 (docs/speed.md, "The
#: same numbers on every CPU").
DEFAULT_ENCODER = "onnx"

#: The columns of the assigner's output, in order.
ASSIGNMENT_COLUMNS: list[str] = [
    "qid",
    "docno",
    "nugget_id",
    "nugget",
    "importance",
    "assignment",
    "confidence",
    "spans",
]


@parameters
class NuggetAssigner(ByTopic, pt.Transformer):
    """Assign each topic's nuggets to its answers: one row per (response, nugget), without an LLM.

    For each answer and each nugget of its topic, the assigner gathers evidence from the answer's
    sentences and clauses of the nugget's polarity (a negated clause never supports a positive
    nugget): the share of the nugget's content lemmas in the answer, a soft recall of its lemmas
    by word embeddings, the best sentence-or-clause embedding cosine and how much that passage
    prefers this nugget over the topic's others. A fitted logistic regression turns the evidence
    into a probability of support, and two thresholds into an assignment. A number or named
    entity of the nugget that the answer lacks ("1969" does not support "1968"; "two" is 2 and
    "1,000" is 1000) makes it ``not_support``.

    A long nugget (more words than ``LONG_NUGGET_WORDS``, 12, and several atomic facts: a passage extract) is decided
    by the support model (:class:`~pyterrier_rag_axioms.support.SupportModel`): its confidence is the
    probability that the answer supports the whole nugget, its assignment that probability against the
    model's fitted ``nugget_thresholds``. Numbers and entities count softly there, as the share missing.
    Its spans are the passages most similar to its facts.

    Output columns: ``qid``, ``docno``, ``nugget_id``, ``nugget`` (its text), ``importance``,
    ``assignment`` (``support``/``partial_support``/``not_support``), ``confidence`` (the
    probability of at least partial support; 0 where a number or entity is missing) and ``spans``
    (the answer's passages with the best evidence: the most similar one and the one holding most
    of the nugget's distinctive lemmas). Rows follow the responses' order, and the nuggets' within each.
    Where the nuggets carry ``drawn_from`` (the docnos whose own words a nugget is, as
    :class:`~pyterrier_rag_axioms.nuggets.NuggetExtractor` writes it), a last column ``counted`` is
    false for those responses: no self-credit, the nugget is left out of their scores.

    An answer's assignments depend only on the answer, its query and its topic's nuggets, never on
    the other responses in the frame, their order or how the frame is split into batches: with the
    default encoder, its confidences are the same bits (each text is encoded alone, and each
    answer's products of embeddings are taken over its own texts).

    Its parameters are declared once (:mod:`~pyterrier_rag_axioms.declaration`): ``repr`` (which
    evaluates back into the assigner, except for a nugget frame, shown as ``'<frame>'``) and copies
    (:func:`~pyterrier_rag_axioms.declaration.replaced`) read them.
    """

    #: The nuggets: a frame or file (see :func:`~pyterrier_rag_axioms.nuggets.load_nuggets`).
    nuggets: pd.DataFrame | str | Path = parameter(REQUIRED, shown=shown_source)
    #: The fitted decision: a :class:`NuggetModel` or its JSON file (default: the shipped model).
    model: NuggetModel | str | Path | None = parameter(None, shown=shown_source)
    #: The sentence encoder: ``"MODEL"`` (with the backend :data:`DEFAULT_ENCODER`), ``"MODEL:BACKEND"``
    #: or a :class:`SentenceSimilarity` (default: all-MiniLM-L6-v2 with :data:`DEFAULT_ENCODER`; see
    #: :mod:`~pyterrier_rag_axioms.tools.embeddings.naming`). The fitted model must have been fitted on it.
    encoder: SentenceSimilarity | str | None = encoder_parameter("NuggetAssigner", default_backend=DEFAULT_ENCODER)
    #: A spaCy model name or analyzer (default: the shared one).
    text_analyzer: TextAnalyzer | str | None = parameter(
        None, role=TOOL, keyed=False, resolve=lambda assigner, analyzer: resolve_text_analyzer(analyzer)
    )
    #: The support model that decides long nuggets: a :class:`~pyterrier_rag_axioms.support.SupportModel` or
    #: its JSON file (default: the shipped one).
    support_model: SupportModel | str | Path | None = parameter(
        None, role=TOOL, resolve=resolve_support_model, shown=lambda model: repr(model)
    )
    #: Show progress over the topics.
    verbose: bool = parameter(False, role=PRESENTATION, hidden=True)
    #: Worker processes, each on whole topics (default: the cores this process may use, at most 4; the same output).
    processes: int | None = parameter(None, role=PRESENTATION, hidden=True, whole=True, at_least=1)

    def __post_init__(self) -> None:
        self.nugget_frame = load_nuggets(self.nuggets)
        model = self.model
        if model is not None and not isinstance(model, NuggetModel) and not Path(model).is_file():
            raise FileNotFoundError(f"NuggetAssigner: no nugget model file {str(model)!r}")
        # read, checked and matched with the sentence model now, before any work
        self.decision: NuggetModel = resolve_nugget_model(model)
        source = {type(None): "the shipped nugget model", NuggetModel: "the nugget model"}.get(type(model))
        self.decision.check_encoder(self.encoder, source or f"{model}: the nugget model")

    __repr__ = declared_repr

    def _responses(self, inp: pd.DataFrame) -> pd.DataFrame:
        responses = response_frame(inp, self)
        empty = [qid for qid in self.nugget_frame.attrs.get(EMPTY_TOPICS, ()) if (responses["qid"] == qid).any()]
        if empty:  # topics the source lists without nuggets (none drawn): unjudged, as TREC leaves such topics out
            warnings.warn(
                f"NuggetAssigner: {len(empty)} topic{'s' if len(empty) > 1 else ''} of the responses "
                f"({', '.join(map(repr, empty[:3]))}{' ...' if len(empty) > 3 else ''}) "
                f"{'have' if len(empty) > 1 else 'has'} no nuggets: {'their' if len(empty) > 1 else 'its'} answers "
                "are left out",
                stacklevel=3,
            )
            responses = responses[~responses["qid"].isin(empty)].reset_index(drop=True)
        known = set(self.nugget_frame["qid"])
        missing = list(dict.fromkeys(qid for qid in responses["qid"] if qid not in known))
        if missing:
            source = "the nugget frame" if isinstance(self.nuggets, pd.DataFrame) else str(self.nuggets)
            raise ValueError(
                f"NuggetAssigner: {source} has no nuggets for qid {missing[0]!r}"
                + (f" (nor for {len(missing) - 1} other qids of the responses)" if len(missing) > 1 else "")
                + "; give the nuggets of every topic of the responses"
            )
        return responses

    def _topic_pairs(
        self, responses: pd.DataFrame, topics: list[str], verbose: bool
    ) -> dict[tuple[str, str], list[PairEvidence | PartsEvidence]]:
        """The evidence of each (qid, answer text) of ``topics``: one list of pairs per answer, in nugget order
        (a long nugget's: one pair per part, its parts standing among the topic's nuggets in its place)."""
        rows_of = responses[responses["qid"].isin(topics)]
        by_qid = dict(list(self.nugget_frame[self.nugget_frame["qid"].isin(topics)].groupby("qid", sort=False)))
        # nuggets apart from answers and queries: only a nugget's named entities are read, so only
        # the nuggets' parse goes on to named-entity recognition
        parts = nugget_parts(
            self.text_analyzer.analyse(dict.fromkeys(text for qid in topics for text in by_qid[qid]["nugget"])),
            self.text_analyzer,
        )
        part_texts = dict.fromkeys(part for found in parts.values() for part in found)
        nugget_evidence: dict[str, TextEvidence] = {
            analysis.text: text_evidence(analysis) for analysis in self.text_analyzer.analyse(part_texts)
        }
        answer_texts = dict.fromkeys([*rows_of["query"], *rows_of["response"]])
        evidence_of: dict[str, TextEvidence] = {
            analysis.text: text_evidence(analysis, entities=False)
            for analysis in self.text_analyzer.analyse(answer_texts, verbose=verbose)
        }
        pairs_of: dict[tuple[str, str], list[PairEvidence | PartsEvidence]] = {}
        for qid in pt.tqdm(topics, desc="NuggetAssigner", unit="topic") if verbose else topics:
            rows = rows_of[rows_of["qid"] == qid]
            answers = list(dict.fromkeys(rows["response"]))
            topic_parts = [parts[text] for text in by_qid[qid]["nugget"]]
            found = topic_features(
                evidence_of[rows["query"].iloc[0]],
                [nugget_evidence[part] for nugget in topic_parts for part in nugget],
                [evidence_of[text] for text in answers],
                self.encoder.embed,
            )
            ends = np.cumsum([len(nugget) for nugget in topic_parts])
            long = [nugget for nugget, facts in zip(by_qid[qid]["nugget"], topic_parts) if len(facts) > 1]
            support = iter(
                self.support_model.probabilities(
                    [nugget for _ in answers for nugget in long], [text for text in answers for _ in long]
                )
                if long
                else ()
            )
            for text, pairs in zip(answers, found):
                pairs_of[(qid, text)] = [
                    pairs[end - 1]
                    if len(facts) == 1
                    else PartsEvidence(tuple(pairs[end - len(facts) : end]), support=float(next(support)))
                    for facts, end in zip(topic_parts, ends)
                ]
        return pairs_of

    def prepare(self) -> None:
        """Load the spaCy model and build the encoder's model file: before worker processes fork."""
        self.text_analyzer.nlp  # noqa: B018 (loads it)
        self.encoder.prepare()

    def evidence(self, inp: pd.DataFrame) -> tuple[pd.DataFrame, list[PairEvidence | PartsEvidence]]:
        """The (response, nugget) pairs of a response frame (``qid``, ``docno``, ``nugget_id``,
        ``nugget``, ``importance``) and the evidence of each."""
        responses = self._responses(inp)
        keys, evidence = [], []
        by_qid = dict(list(self.nugget_frame.groupby("qid", sort=False)))
        pairs_of: dict[tuple[str, str], list[PairEvidence | PartsEvidence]] = {}
        for found in self.by_topic(functools.partial(self._topic_pairs, responses), responses):
            pairs_of.update(found)
        for qid, docno, text in zip(responses["qid"], responses["docno"], responses["response"]):
            nuggets = by_qid[qid]
            for (_, nugget), pair in zip(nuggets.iterrows(), pairs_of[(qid, text)]):
                keys.append((qid, docno, nugget["nugget_id"], nugget["nugget"], nugget["importance"]))
                evidence.append(pair)
        frame = pd.DataFrame(keys, columns=["qid", "docno", "nugget_id", "nugget", "importance"])
        if "drawn_from" in self.nugget_frame.columns:  # no self-credit: never counted for its own words
            drawn = {
                (qid, nugget_id): set(docnos) if isinstance(docnos, list) else set()
                for qid, nugget_id, docnos in self.nugget_frame[["qid", "nugget_id", "drawn_from"]].itertuples(
                    index=False
                )
            }
            frame["counted"] = [
                docno not in drawn[(qid, nugget_id)]
                for qid, docno, nugget_id in zip(frame["qid"], frame["docno"], frame["nugget_id"])
            ]
        return frame, evidence

    def features(self, inp: pd.DataFrame) -> pd.DataFrame:
        """The pairs of a response frame with their features (one column per feature), e.g. to fit a model."""
        frame, evidence = self.evidence(inp)
        matrix = np.array([pair.features for pair in evidence]).reshape(len(evidence), len(FEATURES))
        return frame.assign(**{name: matrix[:, position] for position, name in enumerate(FEATURES)})

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """One row per (response, nugget) with its assignment, confidence and supporting spans."""
        frame, evidence = self.evidence(inp)
        return self._decide(frame, evidence, self.decision, self.support_model)

    def cross_validate(self, inp: pd.DataFrame, assignments: pd.DataFrame | str | Path) -> pd.DataFrame:
        """The output of :meth:`transform`, each topic decided by a model fitted (:func:`fit_nugget_model`)
        on the human assignments of the frame's other topics only: leave-one-topic-out figures.

        Args:
            inp: the response frame (at least two topics).
            assignments: the human assignments of its responses, as
                :func:`~pyterrier_rag_axioms.judgments.load_nugget_assignments` reads them (the
                frame or the file); the nuggets of each response are matched by position, so the
                assigner's nuggets must be numbered in file order (no ``nugget_id``).
        """
        human = assignments if isinstance(assignments, pd.DataFrame) else load_nugget_assignments(assignments)
        labels = {
            (str(qid), str(docno), str(position)): nugget["assignment"]
            for qid, docno, nuggets in zip(human["qid"], human["docno"], human["nuggets"])
            for position, nugget in enumerate(nuggets)
        }
        frame, evidence = self.evidence(inp)
        keys = list(zip(frame["qid"], frame["docno"], frame["nugget_id"]))
        unjudged = [key for key in keys if key not in labels]
        if unjudged:
            raise ValueError(
                f"NuggetAssigner.cross_validate: no human assignment for qid {unjudged[0][0]!r}, "
                f"docno {unjudged[0][1]!r}, nugget {unjudged[0][2]!r}"
            )
        if frame["qid"].nunique() < 2:
            raise ValueError("NuggetAssigner.cross_validate: needs the responses of at least two topics")
        features = pd.DataFrame([pair.features for pair in evidence], columns=list(FEATURES))
        truth = pd.Series([labels[key] for key in keys])
        parts = []
        for qid in dict.fromkeys(frame["qid"]):
            held_out = (frame["qid"] == qid).to_numpy()
            model = fit_nugget_model(
                features[~held_out], truth[~held_out], frame.loc[~held_out, "qid"], encoder=self.decision.encoder
            )
            positions = np.flatnonzero(held_out)
            parts.append(
                self._decide(frame.iloc[positions], [evidence[i] for i in positions], model, self.support_model)
            )
        return pd.concat(parts).loc[frame.index]

    @staticmethod
    def _decide(
        frame: pd.DataFrame,
        evidence: list[PairEvidence | PartsEvidence],
        decision: NuggetModel,
        support_model: SupportModel,
    ) -> pd.DataFrame:
        """The assignments: a nugget by ``decision`` (0 where a number or entity is missing), a long one by the
        support model's probability."""
        if not evidence:
            return pd.DataFrame(
                {column: pd.Series(dtype=float if column == "confidence" else object) for column in ASSIGNMENT_COLUMNS}
            )
        confidence = np.zeros(len(evidence))
        assignment = np.empty(len(evidence), dtype=object)
        short = [position for position, pair in enumerate(evidence) if isinstance(pair, PairEvidence)]
        if short:
            pairs = [evidence[position] for position in short]
            probability = decision.probability(np.array([pair.features for pair in pairs]))
            matches = np.array([pair.numbers_match and pair.entities_match for pair in pairs], dtype=bool)
            confidence[short] = np.where(matches, probability, 0.0)
            assignment[short] = decision.assign(confidence[short])
        long = [position for position, pair in enumerate(evidence) if isinstance(pair, PartsEvidence)]
        if long:
            confidence[long] = [evidence[position].support for position in long]
            assignment[long] = support_model.assign(confidence[long])
        return frame.assign(
            assignment=list(assignment),
            confidence=np.round(confidence, 6),
            spans=[list(pair.spans) for pair in evidence],
        )[ASSIGNMENT_COLUMNS + (["counted"] if "counted" in frame.columns else [])]
