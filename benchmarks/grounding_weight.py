"""How the default judge's grounding term trades RAGTruth's faithful answers against CrowdRAG-25's quality.

For each weight, ``PreferenceModel.default(grounding_weight=w)`` on the development data:

- RAGTruth QA train: pairs of a faithful answer (no marked span) and a hallucinated one to the same
  question, each with its three passages as ``context``: the share where the faithful one is preferred
  (ties count half);
- CrowdRAG-25 dev: the judged pairs with their retrieved passages as ``context``: agreement with
  ``quality_overall``, always deciding and on the more confident half.

Nothing is fitted: the pairwise log-odds are the default model's plus ``w`` times the grounding
term (``pyterrier_rag_axioms.preference.grounding``), computed once per response. docs/grounding.md
reports the table and the weight chosen.

Usage: ``.venv/bin/python benchmarks/grounding_weight.py``.
"""

from __future__ import annotations

import gzip
import json

import numpy as np
import pandas as pd
from _setup import DEV_DATA  # noqa: E402  (first: the checkout's package, offline models)

import pyterrier_rag_axioms as rag  # noqa: E402
from pyterrier_rag_axioms.judgments import load_crowdrag_judgments  # noqa: E402

WEIGHTS = (0.0, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)


def ragtruth_responses() -> pd.DataFrame:
    with gzip.open(DEV_DATA / "ragtruth" / "qa_train.jsonl.gz", "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines]
    return pd.DataFrame({
        "qid": [str(row["source_id"]) for row in rows], "query": [row["query"] for row in rows],
        "docno": [f"{row['source_id']}-{row['model']}" for row in rows], "response": [row["response"] for row in rows],
        "context": [list(row["context"]) for row in rows], "hallucinated": [bool(row["labels"]) for row in rows],
    }).drop_duplicates(["qid", "docno"]).reset_index(drop=True)


def per_response(responses: pd.DataFrame) -> pd.DataFrame:
    """Each response's default score and grounding value (the transformed CONS4 value)."""
    model = rag.PreferenceModel.default(grounding_weight=1.0)
    frame = responses[["qid", "query", "docno", "response", "context"]]
    with_term = model.scores(frame)["PreferenceModel_score"].to_numpy()
    without = rag.PreferenceModel.default().scores(frame)["PreferenceModel_score"].to_numpy()
    return responses.assign(score=without, grounding=with_term - without)  # score gains -t(u), weight 1


def ragtruth_table(responses: pd.DataFrame) -> dict[float, float]:
    pairs = [(good, bad) for _, topic in responses.groupby("qid")
             for good in topic.index[~topic["hallucinated"]] for bad in topic.index[topic["hallucinated"]]]
    good, bad = (np.array(side) for side in zip(*pairs))
    figures = {}
    for weight in WEIGHTS:
        values = responses["score"] + weight * responses["grounding"]
        logits = values.to_numpy()[good] - values.to_numpy()[bad]
        figures[weight] = float(np.mean(np.where(logits == 0, 0.5, logits > 0)))
    print(f"RAGTruth QA train: {len(pairs)} pairs of a faithful and a hallucinated answer")
    return figures


def crowdrag_table() -> dict[float, tuple[float, float]]:
    folder = DEV_DATA / "crowdrag-25"
    pairs = load_crowdrag_judgments(folder / "ratings.dev.jsonl.gz", folder / "responses.dev.jsonl.gz")
    explained = rag.PreferenceModel.default(grounding_weight=1.0).explain(pairs)
    base = (explained["PreferenceModel_logit"] - explained["grounding_contribution"]).to_numpy()
    term = explained["grounding_contribution"].to_numpy()
    truth = np.sign(pairs["quality_overall"].to_numpy())
    judged = truth != 0
    figures = {}
    for weight in WEIGHTS:
        logits, signs = (base + weight * term)[judged], truth[judged]
        half = np.argsort(-np.abs(logits))[: len(logits) // 2]
        figures[weight] = (float(np.mean(np.where(logits == 0, 0.5, np.sign(logits) == signs))),
                           float(np.mean(np.sign(logits[half]) == signs[half])))
    print(f"CrowdRAG-25 dev: {int(judged.sum())} judged pairs with their retrieved passages")
    return figures


def main() -> None:
    truthful = ragtruth_table(per_response(ragtruth_responses()))
    crowd = crowdrag_table()
    print("| grounding_weight | RAGTruth: prefers the faithful answer | CrowdRAG: always deciding | confident half |")
    print("|---:|---:|---:|---:|")
    for weight in WEIGHTS:
        print(f"| {weight:g} | {truthful[weight]:.3f} | {crowd[weight][0]:.3f} | {crowd[weight][1]:.3f} |")


if __name__ == "__main__":
    main()
