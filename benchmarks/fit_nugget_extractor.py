"""Fit NuggetExtractor's parameters and report how well fully automatic nugget scores rank the development runs.

Reads the TREC 2024 RAG development assignments (``../shared/data/trec-rag-2024/nugget_assignment.dev.jsonl``
or ``$RAG_AXIOMS_SHARED_DATA``): 6 topics, their answers and the human All scores. For every
setting of the grid, each topic's nuggets are drawn from its answers alone (no human nugget is
seen) and assigned by :class:`~pyterrier_rag_axioms.nuggets.NuggetAssigner` with a decision model
fitted on the human assignments of the *other* topics. Every figure is nested leave-one-topic-out:
each topic is scored with the setting that did best on the other five (the mean of their run tau
and per-topic tau). Reported, against the human All scores (partial support 0.5):

- run tau: Kendall's tau of the runs' mean automatic All scores against their mean human ones;
- pair concordance: over the pairs of a topic's answers that both scores order, the share ordered alike;
- per-topic tau: Kendall's tau of a topic's answers, mean over topics;
- the nuggets' form: the share in TREC's form (:func:`~pyterrier_rag_axioms.nuggets.facts.trec_form_problems`),
  their mean length in words, the share that is vital and the mean count per topic;
- length tau: Kendall's tau of a topic's scores with its answers' length in words, mean over topics
  (the human All scores' beside it).

Beside them: the shipped defaults, the crude extractor (whole sentences, cosine >= 0.7, 20 nuggets, no credit for a
nugget taken from the run's own answer) and the assigner on the human nuggets.

Usage: ``.venv/bin/python benchmarks/fit_nugget_extractor.py [--encoder static] [--similarities 0.6,0.7]``
(minutes on two shared cores: each text is parsed and embedded once for the whole grid; set
``RAG_AXIOMS_CACHE`` to keep parses and embeddings between runs).
"""

from __future__ import annotations

import argparse
import itertools
import sys

import numpy as np
import pandas as pd
from _setup import DEV_DATA  # noqa: E402  (first: the checkout's package, offline models)
from scipy.stats import kendalltau  # noqa: E402

from pyterrier_rag_axioms.judgments import load_nugget_assignments, nugget_scores  # noqa: E402
from pyterrier_rag_axioms.nuggets import NuggetAssigner, NuggetExtractor, fit_nugget_model  # noqa: E402
from pyterrier_rag_axioms.nuggets.facts import in_trec_form  # noqa: E402
from pyterrier_rag_axioms.tools.embeddings.similarity import (  # noqa: E402
    BACKENDS,
    SentenceSimilarity,
    sentence_similarity,
)
from pyterrier_rag_axioms.tools.text import CITATION_PATTERN, text_analyzer  # noqa: E402

DATA = DEV_DATA
ASSIGNMENTS = DATA / "trec-rag-2024" / "nugget_assignment.dev.jsonl"
#: The grid (64 settings): settings that change which nuggets are drawn; caps and support shares cut their list.
SIMILARITIES = (0.6, 0.65, 0.7, 0.75)
MERGE_OFFSETS = (0.0, -0.1)
CAPS = (10, 15, 20, 30)
SUPPORT_SHARES = (0.0, 0.3)  # the fewest supporting answers, as a share of the topic's best-supported nugget's


def human_features(assignments: pd.DataFrame) -> tuple[pd.DataFrame, pd.Series]:
    """The assigner's features of every (answer, human nugget) pair and the human label."""
    pairs = NuggetAssigner(nuggets=ASSIGNMENTS, processes=1).features(assignments)
    labels = {
        (qid, docno, str(position)): nugget["assignment"]
        for qid, docno, nuggets in zip(assignments["qid"], assignments["docno"], assignments["nuggets"])
        for position, nugget in enumerate(nuggets)
    }
    return pairs, pd.Series([labels[key] for key in zip(pairs["qid"], pairs["docno"], pairs["nugget_id"])])


def held_out_models(pairs: pd.DataFrame, labels: pd.Series) -> dict[str, object]:
    """Per topic: the assigner's decision fitted on the human assignments of the other topics."""
    models = {}
    for qid in dict.fromkeys(pairs["qid"]):
        kept = (pairs["qid"] != qid).to_numpy()
        models[qid] = fit_nugget_model(pairs[kept], labels[kept], pairs.loc[kept, "qid"])
    return models


def assigned_scores(nuggets: pd.DataFrame, responses: pd.DataFrame, models: dict) -> pd.DataFrame:
    """Each (answer, nugget) pair's held-out assignment: each topic assigned with the model fitted on the others."""
    parts = []
    for qid, model in models.items():
        own = nuggets[nuggets["qid"] == qid]
        if len(own):
            assigner = NuggetAssigner(nuggets=own, model=model, processes=1)
            parts.append(assigner(responses[responses["qid"] == qid]))
    return pd.concat(parts, ignore_index=True)


def kept_nuggets(nuggets: pd.DataFrame, cap: int, share: float) -> pd.DataFrame:
    """A topic's first ``cap`` nuggets with at least ``share`` of its best-supported nugget's support."""
    best = nuggets.groupby("qid")["support"].transform("max")
    return nuggets[(nuggets["nugget_id"].astype(int) < cap) & (nuggets["support"] >= share * best)]


def all_scores(assigned: pd.DataFrame, nuggets: pd.DataFrame, cap: int, share: float) -> pd.DataFrame:
    """The All score of every answer over the nuggets of :func:`kept_nuggets`."""
    kept = kept_nuggets(nuggets, cap, share)
    chosen = assigned.merge(kept[["qid", "nugget_id"]], on=["qid", "nugget_id"])
    scores = nugget_scores(chosen) if len(chosen) else pd.DataFrame(columns=["qid", "docno", "score"])
    everyone = assigned[["qid", "docno"]].drop_duplicates()
    return everyone.merge(scores, on=["qid", "docno"], how="left").fillna({"score": 0.0})


def figures(automatic: pd.DataFrame, human: pd.DataFrame, topics=None) -> dict[str, float]:
    """Run tau, pair concordance and mean per-topic tau of automatic against human All scores."""
    both = human.merge(automatic, on=["qid", "docno"], suffixes=("_human", "_auto"))
    if topics is not None:
        both = both[both["qid"].isin(topics)]
    taus, concordant, decisive = [], 0, 0
    for _, group in both.groupby("qid"):
        manual, machine = group["score_human"].to_numpy(), group["score_auto"].to_numpy()
        tau = kendalltau(manual, machine).statistic
        taus.append(0.0 if np.isnan(tau) else tau)
        a, b = np.triu_indices(len(manual), 1)
        first, second = np.sign(manual[a] - manual[b]), np.sign(machine[a] - machine[b])
        ordered = (first != 0) & (second != 0)
        concordant += int(((first == second) & ordered).sum())
        decisive += int(ordered.sum())
    runs = both.groupby("docno")[["score_human", "score_auto"]].mean()
    return {
        "run_tau": float(kendalltau(runs["score_human"], runs["score_auto"]).statistic),
        "pair_concordance": concordant / decisive if decisive else float("nan"),
        "topic_tau": float(np.mean(taus)),
    }


def nugget_shape(nuggets: pd.DataFrame, queries: dict[str, str]) -> dict[str, float]:
    """The share of nuggets in TREC's form, their mean words, the vital share and the mean count per topic."""
    form = [in_trec_form(text, queries[qid]) for qid, text in zip(nuggets["qid"], nuggets["nugget"])]
    return {
        "in_form": float(np.mean(form)) if form else float("nan"),
        "words": float(nuggets["nugget"].str.split().str.len().mean()),
        "vital": float((nuggets["importance"] == "vital").mean()),
        "per_topic": float(nuggets.groupby("qid").size().reindex(list(queries), fill_value=0).mean()),
    }


def length_tau(scores: pd.DataFrame, responses: pd.DataFrame) -> float:
    """Kendall's tau of a topic's scores with its answers' length in words, mean over topics."""
    lengths = responses.assign(length=responses["response"].str.split().str.len())[["qid", "docno", "length"]]
    both = scores.merge(lengths, on=["qid", "docno"])
    taus = [kendalltau(group["score"], group["length"]).statistic for _, group in both.groupby("qid")]
    return float(np.nanmean(taus))


def crude_nuggets(responses: pd.DataFrame) -> pd.DataFrame:
    """The crude extractor of the issue: whole answer sentences, cosine >= 0.7, 20 nuggets, upper half vital."""
    analyzer, encoder = text_analyzer(), sentence_similarity()
    records = []
    for qid, rows in responses.groupby("qid", sort=True):
        rows = rows.sort_values("docno")
        owners, sentences = [], []
        for position, analysis in enumerate(analyzer.analyse(list(rows["response"]))):
            for text in analysis.sentence_texts:
                cleaned = CITATION_PATTERN.sub("", text).strip()
                if len(cleaned.split()) >= 3:
                    owners.append(position)
                    sentences.append(cleaned)
        owners = np.array(owners)
        vectors = encoder.embed(sentences).astype(np.float64)
        close = vectors @ vectors.T >= 0.7
        restated = np.zeros((len(sentences), len(rows)), dtype=bool)
        for position in range(len(rows)):
            restated[:, position] = close[:, owners == position].any(axis=1)
        restated[np.arange(len(sentences)), owners] = False
        support = restated.sum(axis=1)
        open_ = np.ones(len(sentences), dtype=bool)
        chosen = []
        for index in np.lexsort((np.arange(len(sentences)), -support)):
            if len(chosen) == 20:
                break
            if open_[index] and support[index] > 0:
                chosen.append(index)
                open_ &= ~close[index]
        docnos = rows["docno"].tolist()
        for rank, index in enumerate(chosen):
            records.append(
                {
                    "qid": qid,
                    "nugget_id": str(rank),
                    "nugget": sentences[index],
                    "importance": "vital" if rank < (len(chosen) + 1) // 2 else "okay",
                    "support": int(support[index]) + 1,
                    "drawn_from": [docnos[owners[index]]],
                }
            )
    return pd.DataFrame(records)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], epilog="Writes the grid's figures and the nested ones to stdout."
    )
    parser.add_argument("--encoder", choices=BACKENDS, default=None,
                        help="the extractor's sentence encoder backend (default: the extractor's own)")
    parser.add_argument("--similarities", default=",".join(map(str, SIMILARITIES)),
                        help=f"the grid's restatement cosines (default {','.join(map(str, SIMILARITIES))})")
    args = parser.parse_args(argv)
    encoder = None if args.encoder is None else SentenceSimilarity.shared(backend=args.encoder)
    similarities = tuple(float(value) for value in args.similarities.split(","))
    if not ASSIGNMENTS.is_file():
        sys.exit(f"no development assignments at {ASSIGNMENTS}")
    assignments = load_nugget_assignments(ASSIGNMENTS)
    responses = assignments[["qid", "query", "docno", "response"]]
    human = nugget_scores(assignments)
    topics = sorted(human["qid"].unique())
    pairs, labels = human_features(assignments)
    models = held_out_models(pairs, labels)
    print(f"{len(responses)} answers, {len(topics)} topics; decision models fitted leave-one-topic-out", flush=True)

    queries = dict(zip(responses["qid"], responses["query"]))

    def row(scores: pd.DataFrame, nuggets: pd.DataFrame) -> dict[str, float]:
        return {**figures(scores, human), **nugget_shape(nuggets, queries), "length_tau": length_tau(scores, responses)}

    rows = {"human All scores": {"length_tau": length_tau(human, responses)}}
    human_nuggets = NuggetAssigner(nuggets=ASSIGNMENTS).nugget_frame
    human_assigned = assigned_scores(human_nuggets, responses, models)
    rows["assigner on human nuggets"] = row(nugget_scores(human_assigned), human_nuggets)
    crude = crude_nuggets(responses)
    crude_assigned = assigned_scores(crude, responses, models)
    crude_assigned["assignment"] = np.where(crude_assigned["counted"], crude_assigned["assignment"], "not_support")
    rows["crude extractor (issue)"] = row(nugget_scores(crude_assigned.drop(columns="counted")), crude)
    with pd.option_context("display.width", 250, "display.max_columns", None):
        print(pd.DataFrame(rows).T.round(3), flush=True)

    scored: dict[tuple, pd.DataFrame] = {}
    drawn: dict[tuple, pd.DataFrame] = {}
    for similarity, offset in itertools.product(similarities, MERGE_OFFSETS):
        extractor = NuggetExtractor(
            encoder=encoder,
            similarity=similarity,
            merge_similarity=round(similarity + offset, 2),
            max_nuggets=max(CAPS),
            min_support_share=0.0,
            processes=1,  # the parses stay in this process for the whole grid
        )
        nuggets = extractor(responses)
        assigned = assigned_scores(nuggets, responses, models)
        for cap, share in itertools.product(CAPS, SUPPORT_SHARES):
            key = (similarity, round(similarity + offset, 2), cap, share)
            scored[key] = all_scores(assigned, nuggets, cap, share)
            drawn[key] = kept_nuggets(nuggets, cap, share)
            print(key, {k: round(v, 3) for k, v in figures(scored[key], human).items()}, flush=True)

    chosen_parts, chosen_nuggets = [], []
    for held_out in topics:
        training = [qid for qid in topics if qid != held_out]

        def objective(key, training=training):
            found = figures(scored[key], human, training)
            return found["run_tau"] + found["topic_tau"]

        best = max(scored, key=objective)
        print(
            f"held out {held_out}: chose similarity={best[0]}, merge={best[1]}, cap={best[2]}, share={best[3]}",
            flush=True,
        )
        chosen_parts.append(scored[best][scored[best]["qid"] == held_out])
        chosen_nuggets.append(drawn[best][drawn[best]["qid"] == held_out])
    rows["NuggetExtractor (nested LOTO)"] = row(pd.concat(chosen_parts), pd.concat(chosen_nuggets))
    defaults = NuggetExtractor(encoder=encoder, processes=1)(responses)
    default_scores = nugget_scores(assigned_scores(defaults, responses, models))
    rows["NuggetExtractor, defaults (not fitted)"] = row(default_scores, defaults)
    with pd.option_context("display.width", 250, "display.max_columns", None, "display.precision", 3):
        print(pd.DataFrame(rows).T)


if __name__ == "__main__":
    main()
