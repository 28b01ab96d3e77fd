"""NuggetExtractor: each topic's nuggets drawn from its answers and their passages, without an LLM.

TREC's nuggets are facts that several good answers state. The extractor reads them off the pool of
answers (the pyramid idea, see ``docs/pool.md``): the statements that many *other* answers restate
become the topic's nuggets, for a person to review and for
:class:`~pyterrier_rag_axioms.nuggets.NuggetAssigner` to assign.

Per topic:

1. **Candidates** are the atomic facts (:func:`~pyterrier_rag_axioms.nuggets.facts.atomic_facts`)
   of every distinct answer and of the context passages the answers carry that are in TREC's
   form, none restating the query (see :mod:`~pyterrier_rag_axioms.nuggets.candidates`).
2. **Support.** All candidates are embedded by the shared sentence model (by default the static
   encoder distilled from all-MiniLM-L6-v2, :data:`DEFAULT_ENCODER`); one matrix product
   gives every cosine. An answer restates a candidate where one of its own candidates reaches
   ``similarity``; a candidate's support is the number of distinct answers other than its own
   that restate it (identical answers count once).
3. **Selection.** The best-supported candidate (then the one closest to its supporters, then the
   shortest) becomes a nugget; its paraphrases (cosine >= ``merge_similarity``) leave the race;
   repeat while a candidate has at least ``min_support`` supporting answers and at least
   ``min_support_share`` of the best-supported nugget's support, up to ``max_nuggets``: the
   count follows what the pool supports. By default ``min_support`` is :data:`MIN_SUPPORT`, but
   at most a third of the topic's other answers, and at least one
   (:meth:`NuggetExtractor.least_support`): in a topic of two to six answers, a fact that two of
   them state is a nugget (an answer restates it also with a fact too long, or not in the form,
   to be a candidate itself); a passage's statement needs two answers that state it. A topic where
   no two answers state one fact has no nuggets, and a warning (:class:`NoNuggetsWarning`) names
   it in one line.
4. **Importance**, in one line: vital where at least ``vital_share`` times as many answers state
   it as state the topic's best-supported nugget, okay otherwise.

Provenance columns: ``support`` (the number of distinct answers that state the nugget),
``sources`` (their docnos), ``drawn_from`` (the docnos whose own words the nugget is; empty for a
passage of the context) and ``passages`` (up to two source sentences, for review). **No
self-credit:** ``NuggetAssigner`` leaves a nugget out of the score of every response in its
``drawn_from`` (its column ``counted`` is false there), so no answer is rewarded for its own words.
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.declaration import (
    PRESENTATION,
    TOOL,
    declared_repr,
    parameter,
    parameters,
)
from pyterrier_rag_axioms.frames import response_frame
from pyterrier_rag_axioms.nuggets.candidates import Candidate, candidates_of, topic_facts
from pyterrier_rag_axioms.runtime.by_topic import ByTopic
from pyterrier_rag_axioms.tools.embeddings.naming import encoder_parameter
from pyterrier_rag_axioms.tools.embeddings.similarity import SentenceSimilarity
from pyterrier_rag_axioms.tools.text import TextAnalyzer, resolve_text_analyzer

#: The default encoder: all-MiniLM-L6-v2 distilled to a static model (see
#: :mod:`~pyterrier_rag_axioms.tools.embeddings.static_encoder`), with ``similarity`` 0.65 chosen for it
#: by nested leave-one-topic-out on the development topics (docs/nuggetize.md): a topic's candidates
#: are embedded in milliseconds, and the drawn nuggets ranked the development runs as well as the
#: transformer's.
DEFAULT_ENCODER = "static"


#: The fewest other answers that must restate a candidate, by default, in a topic of seven answers or more (fewer
#: in a smaller topic: :meth:`NuggetExtractor.least_support`).
MIN_SUPPORT = 2


#: The columns of the extractor's output, in order: a nugget frame with its provenance.
EXTRACTED_COLUMNS: list[str] = [
    "qid",
    "query",
    "nugget_id",
    "nugget",
    "importance",
    "support",
    "sources",
    "drawn_from",
    "passages",
]


class NoNuggetsWarning(UserWarning):
    """Some topics got no nuggets: no two of their answers state one fact."""


def no_nuggets_line(empty: list[str], responses: pd.DataFrame) -> str:
    """The one line that names the topics without nuggets (the first three, and how many more)."""
    if len(empty) == 1:
        answers = responses.loc[responses["qid"] == empty[0], "response"].nunique()
        return (
            f"NuggetExtractor: no two answers of topic {empty[0]!r} ({answers} distinct "
            f"answer{'s' if answers != 1 else ''}) state one fact, so it has no nuggets"
        )
    named = ", ".join(map(repr, empty[:3])) + (f" and {len(empty) - 3} more" if len(empty) > 3 else "")
    return f"NuggetExtractor: no two answers state one fact in {len(empty)} topics ({named}), so they have no nuggets"


@dataclass
class Voice:
    """One distinct answer text of a topic and the docnos that gave it."""

    text: str
    docnos: list[str]
    candidates: list[Candidate]


@parameters
class NuggetExtractor(ByTopic, pt.Transformer):
    """Draw each topic's nuggets from what several of its answers state (see the module), without an LLM.

    Input: a response frame (``qid``, ``query``, ``docno``, ``response`` and, optionally,
    ``context`` passages). Output: a nugget frame that
    :func:`~pyterrier_rag_axioms.nuggets.load_nuggets` and ``NuggetAssigner(nuggets=...)`` accept,
    one row per nugget: ``qid``, ``query``, ``nugget_id`` (``"0"``, ``"1"``, ... by support),
    ``nugget``, ``importance`` and the provenance ``support``, ``sources``, ``drawn_from`` and
    ``passages``; topics in order of qid. A topic where no two answers state one fact (a topic of one
    answer among others, too) has no rows, and a :class:`NoNuggetsWarning` names it; a frame where
    every topic has one answer is refused.

    Deterministic: the nuggets of a topic depend on its answers and passages only, never on the
    order of the rows or on the other topics in the frame. Its parameters are declared once
    (:mod:`~pyterrier_rag_axioms.declaration`): ``repr`` (which evaluates back into the extractor)
    and copies (:func:`~pyterrier_rag_axioms.declaration.replaced`) read them.
    """

    #: The cosine (of the default static encoder) from which an answer's statement restates a candidate.
    similarity: float = parameter(0.65, at_least=0, at_most=1)
    #: The cosine from which a candidate is a paraphrase of a chosen nugget (``None``: ``similarity``).
    merge_similarity: float | None = parameter(None, at_least=0, at_most=1)
    #: The fewest other answers that must restate a candidate for it to become a nugget (``None``: :data:`MIN_SUPPORT`,
    #: but at most a third of the topic's other answers and at least one, see :meth:`least_support`).
    min_support: int | None = parameter(None, whole=True, at_least=1)
    #: The fewest supporting answers, as a share of the topic's best-supported nugget's.
    min_support_share: float = parameter(0.3, at_least=0, at_most=1)
    #: The most nuggets per topic (TREC keeps at most 30).
    max_nuggets: int = parameter(20, whole=True, at_least=1)
    #: Vital where the support is at least this share of the topic's largest support.
    vital_share: float = parameter(0.4, at_least=0, at_most=1)
    #: The most words of a candidate (TREC's form allows 25; people's nuggets have at most 14).
    max_words: int = parameter(14, whole=True, at_least=1)
    #: The sentence encoder: ``"MODEL"`` (with the backend :data:`DEFAULT_ENCODER`), ``"MODEL:BACKEND"``
    #: or a :class:`SentenceSimilarity` (default: all-MiniLM-L6-v2 with :data:`DEFAULT_ENCODER`; see
    #: :mod:`~pyterrier_rag_axioms.tools.embeddings.naming`).
    encoder: SentenceSimilarity | str | None = encoder_parameter("NuggetExtractor", default_backend=DEFAULT_ENCODER)
    #: A spaCy model name or analyzer (default: the shared one).
    text_analyzer: TextAnalyzer | str | None = parameter(
        None, role=TOOL, keyed=False, resolve=lambda extractor, analyzer: resolve_text_analyzer(analyzer)
    )
    #: Show progress over the topics.
    verbose: bool = parameter(False, role=PRESENTATION, hidden=True)
    #: Worker processes, each on whole topics (default: the cores this process may use, at most 4; the same nuggets).
    processes: int | None = parameter(None, role=PRESENTATION, hidden=True, whole=True, at_least=1)

    __repr__ = declared_repr

    @property
    def analyzer(self) -> TextAnalyzer:
        """The text analyzer in use."""
        return self.text_analyzer

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """The nuggets of each topic of a response frame, with their provenance (see the class)."""
        responses = response_frame(inp, self)
        if responses.empty:
            return pd.DataFrame(
                {column: pd.Series(dtype=int if column == "support" else object) for column in EXTRACTED_COLUMNS}
            )
        topics = sorted(dict.fromkeys(responses["qid"]))
        single = [qid for qid in topics if (responses["qid"] == qid).sum() < 2]
        if len(single) == len(topics):  # one answer to every topic: the wrong frame, most likely
            raise ValueError(
                f"NuggetExtractor: topic {single[0]!r} has one answer"
                + (f" (and {len(single) - 1} more topics)" if len(single) > 1 else "")
                + "; nuggets are what several answers state, so give each topic at least two answers"
            )
        nuggets_of: dict[str, pd.DataFrame] = {}
        for found in self.by_topic(functools.partial(self._topics_nuggets, responses), responses, topics):
            nuggets_of.update(found)
        empty = [qid for qid in topics if nuggets_of[qid].empty]
        if empty:
            warnings.warn(no_nuggets_line(empty, responses), NoNuggetsWarning, stacklevel=2)
        return pd.concat([nuggets_of[qid] for qid in topics], ignore_index=True)[EXTRACTED_COLUMNS]

    def prepare(self) -> None:
        """Load spaCy and the sentence model and build the encoder's model file: before worker processes fork."""
        self.analyzer.nlp  # noqa: B018 (loads it)
        self.encoder.prepare(load=True)  # the model file built and checked (torch's model loaded) here, not in a worker

    def _topics_nuggets(self, responses: pd.DataFrame, topics: list[str], verbose: bool) -> dict[str, pd.DataFrame]:
        """The nuggets of each of ``topics``."""
        rows_of = responses[responses["qid"].isin(topics)]
        passages = [p for context in rows_of["context"] if context for p in context]
        self.analyzer.analyse([*rows_of["response"], *passages], verbose=verbose)  # one batch for all topics
        iterator = pt.tqdm(topics, desc="NuggetExtractor", unit="topic") if verbose else topics
        return {qid: self.topic_nuggets(qid, rows_of[rows_of["qid"] == qid]) for qid in iterator}

    def topic_nuggets(self, qid: str, rows: pd.DataFrame) -> pd.DataFrame:
        """The nuggets of one topic's answers (and their passages)."""
        query = rows["query"].iloc[0]
        context = sorted({p for passages in rows["context"] if passages for p in passages})
        facts = topic_facts(self.analyzer, query, [*rows["response"], *context])
        limits = {"query": query, "max_words": self.max_words}
        by_text: dict[str, list[str]] = {}
        for docno, text in sorted(zip(rows["docno"], rows["response"])):
            by_text.setdefault(text, []).append(docno)
        voices = [
            Voice(text, docnos, candidates_of(facts[text], docnos[0], **limits))
            for text, docnos in sorted(by_text.items(), key=lambda item: item[1][0])
        ]
        answer_texts = {candidate.text for voice in voices for candidate in voice.candidates}
        context_candidates = {
            c.text: c for p in context for c in candidates_of(facts[p], "", **limits) if c.text not in answer_texts
        }
        candidates = [c for voice in voices for c in voice.candidates] + sorted(
            context_candidates.values(), key=lambda c: c.text
        )
        owners = np.array(
            [v for v, voice in enumerate(voices) for _ in voice.candidates] + [-1] * len(context_candidates), dtype=int
        )
        if not candidates:
            return pd.DataFrame(columns=EXTRACTED_COLUMNS)
        # a small topic has few restatements: an answer's statements too long (or not in form) to be nuggets count too
        small = self.least_support(len(voices)) < MIN_SUPPORT
        own_texts = [{c.text for c in voice.candidates} for voice in voices]
        more = [
            (v, fact.text)
            for v, voice in enumerate(voices)
            for fact in facts[voice.text]
            if small and fact.text not in own_texts[v]
        ]
        more = list(dict.fromkeys(more))
        # short texts: torch's threads would wait more than they work (the same bits on one thread)
        vectors = self.encoder.embed([c.text for c in candidates] + [text for _, text in more], one_thread=True)
        vectors = vectors.astype(np.float64)
        with_more = vectors[: len(candidates)] @ vectors.T  # the one matrix product of the topic
        similarity = with_more[:, : len(candidates)]
        answer_count = int((owners >= 0).sum())
        # best[c, v]: the best cosine of candidate c with a statement of answer v (never its own answer)
        starts = np.flatnonzero(np.r_[True, np.diff(owners[:answer_count]) != 0]) if answer_count else []
        best = (
            np.maximum.reduceat(similarity[:, :answer_count], starts, axis=1)
            if answer_count
            else np.zeros((len(candidates), 0))
        )
        present = np.unique(owners[:answer_count])
        best_of = np.full((len(candidates), len(voices)), -1.0)
        best_of[:, present] = best
        for column, (v, _) in enumerate(more, start=len(candidates)):
            best_of[:, v] = np.maximum(best_of[:, v], with_more[:, column])
        best_of[owners >= 0, owners[owners >= 0]] = -1.0
        restated = best_of >= self.similarity
        support = restated.sum(axis=1)
        closeness = np.where(restated, best_of, 0.0).sum(axis=1)
        words = np.array([c.words for c in candidates])
        order = np.lexsort((np.array([c.text for c in candidates]), words, -closeness, -support))
        merge = self.similarity if self.merge_similarity is None else self.merge_similarity
        open_ = np.ones(len(candidates), dtype=bool)
        chosen = []
        floor = max(self.least_support(len(voices)), self.min_support_share * support.max())
        # a passage's statement is no answer's own: two answers must state it, as for an answer's statement
        floors = np.where(owners >= 0, floor, max(floor, 2))
        for index in order:
            if len(chosen) == self.max_nuggets:
                break
            if not open_[index] or support[index] < floors[index]:
                continue
            chosen.append(index)
            open_ &= similarity[index] < merge
        return self._frame(qid, query, chosen, candidates, owners, similarity, restated, voices)

    def least_support(self, answers: int) -> int:
        """The fewest other answers that must restate a candidate in a topic of ``answers`` distinct answers:
        ``min_support`` where it is given; by default :data:`MIN_SUPPORT`, but at most a third of the other
        answers and at least one, so that in a topic of two to six answers a fact that two of them state is
        a nugget, and from seven answers on two others must restate it."""
        if self.min_support is not None:
            return self.min_support
        return max(1, min(MIN_SUPPORT, (answers - 1) // 3))

    def _frame(self, qid, query, chosen, candidates, owners, similarity, restated, voices) -> pd.DataFrame:
        records = []
        for index in chosen:
            own = {int(owners[index])} if owners[index] >= 0 else set()
            stating = sorted(set(np.flatnonzero(restated[index]).tolist()) | own)
            source = candidates[index].sentence
            others = np.flatnonzero(np.isin(owners, [v for v in stating if v not in own]))
            passages = [source]
            if len(others):
                closest = candidates[int(others[np.argmax(similarity[index, others])])].sentence
                passages += [closest] if closest != source else []
            records.append(
                {
                    "qid": qid,
                    "query": query,
                    "nugget": candidates[index].text,
                    "support": len(stating),
                    "sources": sorted(docno for v in stating for docno in voices[v].docnos),
                    "drawn_from": sorted(docno for v in own for docno in voices[v].docnos),
                    "passages": passages,
                }
            )
        if not records:
            return pd.DataFrame(columns=EXTRACTED_COLUMNS)
        frame = pd.DataFrame(records)
        top = frame["support"].max()
        frame["importance"] = np.where(frame["support"] >= self.vital_share * top, "vital", "okay")
        frame["nugget_id"] = [str(position) for position in range(len(frame))]
        return frame[EXTRACTED_COLUMNS]
