"""Nuggets from reference answers, and a graded score of answers against them.

- :func:`reference_nuggets`: pyterrier-rag's gold-answer frame (``qid``, ``gold_answer``: a string
  or a list of alternative answers; optionally ``query``) to a nugget frame, one vital nugget per
  atomic fact of each reference answer
  (:func:`~pyterrier_rag_axioms.nuggets.facts.splitting.atomic_facts_of`).
- :func:`reference_score`: each response's graded score against its topic's reference answers:
  the mean probability of support of an answer's nuggets (the assigner's, graded, so two responses
  rarely tie where the share of nuggets supported ties whenever both support as many) plus the
  response's ROUGE-L F-measure against that answer; the best reference answer's where there are
  several (as pyterrier-rag's F1 takes the best).
- :func:`support_probabilities`: the assigner's probability of support of each pair.

The measure that ``pt.Experiment`` evaluates against gold answers is
:data:`pyterrier_rag_axioms.measures.RefNuggets`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.nuggets._features import FEATURES, PartsEvidence
from pyterrier_rag_axioms.nuggets.assigner import NuggetAssigner

#: The columns of :func:`reference_nuggets`' frame (``query`` too where the answers have it).
REFERENCE_NUGGET_COLUMNS: list[str] = ["qid", "nugget_id", "nugget", "importance", "answer"]
#: The score column of :func:`reference_scores`.
SCORE_COLUMN = "reference_score"


def _answer_texts(answers: pd.DataFrame) -> dict[str, list[str]]:
    """The non-blank reference answers of each qid that has one, in row order (a row's list in its order);
    a topic whose answers are all blank or missing has none (no reference, as the preference model reads it)."""
    from pyterrier_rag_axioms.frames import gold_answer_texts

    pt.validate.columns(answers, includes=["qid", "gold_answer"], context="reference_nuggets")
    texts_of: dict[str, list[str]] = {}
    for position, row in enumerate(answers.to_dict("records")):
        qid = str(row["qid"])
        texts = gold_answer_texts(row["gold_answer"], f"reference_nuggets: row {position} (qid {qid!r})")
        if texts:
            texts_of.setdefault(qid, []).extend(texts)
    return texts_of


def reference_nuggets(answers: pd.DataFrame) -> pd.DataFrame:
    """The nuggets of each topic's reference answers: one ``vital`` nugget per atomic fact.

    Args:
        answers: pyterrier-rag's gold-answer frame: ``qid`` and ``gold_answer`` (a string, or a
            list of alternative answers; a topic may also have one row per answer), optionally
            ``query`` (facts that only restate it are dropped).

    Returns:
        A nugget frame (``qid``, ``query`` where given, ``nugget_id``, ``nugget``, ``importance``,
        ``answer``): ``answer`` is the position of the reference answer among its topic's, and
        ``nugget_id`` is ``"<answer>-<fact>"``. An answer in which the splitter finds no statement
        (``"Paris"``, ``"1969"``) is one nugget as it stands. A topic whose reference answers are
        all blank or missing has no reference, and no nuggets.

    Raises:
        ValueError: a missing column, or a ``gold_answer`` that is no text; the message names the row and qid.
    """
    from pyterrier_rag_axioms.nuggets.facts.splitting import atomic_facts_of

    texts_of = _answer_texts(answers)
    query_of: dict[str, str | None] = {}
    for row in answers.to_dict("records"):
        query = row.get("query")
        query_of.setdefault(str(row["qid"]), query if isinstance(query, str) and query.strip() else None)
    rows = []
    for qid, texts in texts_of.items():
        for answer, facts in enumerate(atomic_facts_of(texts, query=query_of[qid])):
            statements = list(dict.fromkeys(fact.text for fact in facts)) or [" ".join(texts[answer].split())]
            rows.extend((qid, query_of[qid], f"{answer}-{number}", statement, "vital", answer)
                        for number, statement in enumerate(statements))
    frame = pd.DataFrame(rows, columns=["qid", "query", *REFERENCE_NUGGET_COLUMNS[1:]])
    return frame if "query" in answers.columns else frame.drop(columns=["query"])


def support_probabilities(assigner: NuggetAssigner, responses: pd.DataFrame) -> pd.DataFrame:
    """The assigner's pairs (``qid``, ``docno``, ``nugget_id``, ...) with ``probability``: its fitted
    probability of support, before the number and entity check (a long nugget's: the support model's)."""
    frame, evidence = assigner.evidence(responses)
    short = [pair for pair in evidence if not isinstance(pair, PartsEvidence)]
    features = np.array([pair.features for pair in short]).reshape(len(short), len(FEATURES))
    found = iter(assigner.decision.probability(features) if short else ())
    return frame.assign(probability=[pair.support if isinstance(pair, PartsEvidence) else float(next(found))
                                     for pair in evidence])


def reference_score(
    responses: pd.DataFrame, answers: pd.DataFrame, *, nuggets: pd.DataFrame | None = None,
    assigner: NuggetAssigner | None = None,
) -> pd.DataFrame:
    """The responses with their graded scores against their topics' reference answers.

    For each reference answer, ``nugget_recall`` is the mean, over its nuggets, of the assigner's
    probability that the response supports the nugget (before the number and entity check: a
    graded score keeps what a paraphrase shares; a long nugget's parts' mean), and ``rouge_l``
    the response's ROUGE-L F-measure against the answer (stemmed, as pyterrier-rag's ``ROUGELF``),
    which weighs exact words, names and numbers. :data:`SCORE_COLUMN` is their sum, the best
    reference answer's where a topic has several. Chosen among four graded scores by
    leave-one-dataset-out agreement with RAGChecker's human preferences (docs/nuggets.md).

    Args:
        responses: a response frame (pyterrier-rag's ``qanswer``, ``query_0`` too).
        answers: the gold-answer frame (see :func:`reference_nuggets`).
        nuggets: the topics' reference nuggets, where already drawn (default: drawn from ``answers``).
        assigner: the assigner, whose ``nuggets`` must be ``nuggets`` (default: the shipped one).

    Returns:
        The normalised response frame with ``nugget_recall``, ``rouge_l`` and :data:`SCORE_COLUMN`;
        NaN for the responses of a topic without a reference answer (blank or missing).
    """
    from rouge_score_rs import rouge_scorer

    from pyterrier_rag_axioms.frames import response_frame

    nuggets = reference_nuggets(answers) if nuggets is None else nuggets
    texts = _answer_texts(answers)
    frame = response_frame(responses, assigner)
    referenced = frame["qid"].isin(set(texts)) & frame["qid"].isin(set(nuggets["qid"].astype(str)))
    columns = ["nugget_recall", "rouge_l", SCORE_COLUMN]
    if not referenced.any():  # no topic has a reference answer: nothing to assign
        return frame.assign(**dict.fromkeys(columns, np.nan))
    if not referenced.all():  # the responses of topics without a reference answer score NaN
        scored = reference_score(frame[referenced], answers, nuggets=nuggets, assigner=assigner)
        return frame.merge(scored[["qid", "docno", *columns]], on=["qid", "docno"], how="left")
    assigner = NuggetAssigner(nuggets=nuggets, processes=1) if assigner is None else assigner
    pairs = support_probabilities(assigner, frame).merge(
        nuggets.assign(qid=nuggets["qid"].astype(str), nugget_id=nuggets["nugget_id"].astype(str))[
            ["qid", "nugget_id", "answer"]], on=["qid", "nugget_id"], how="left")
    recall = pairs.groupby(["qid", "docno", "answer"], sort=False)["probability"].mean()
    rouge = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)
    response_of = dict(zip(zip(frame["qid"], frame["docno"]), frame["response"]))
    rows = []
    for (qid, docno, answer), value in recall.items():
        overlap = float(rouge.score(texts[qid][int(answer)], response_of[(qid, docno)])["rougeL"].fmeasure)
        rows.append((qid, docno, value, overlap, value + overlap))
    scores = pd.DataFrame(rows, columns=["qid", "docno", "nugget_recall", "rouge_l", SCORE_COLUMN])
    best = scores.loc[scores.groupby(["qid", "docno"], sort=False)[SCORE_COLUMN].idxmax()]
    return frame.merge(best, on=["qid", "docno"], how="left")


__all__: Sequence[str] = ["REFERENCE_NUGGET_COLUMNS", "SCORE_COLUMN", "reference_nuggets", "reference_score",
                          "support_probabilities"]
