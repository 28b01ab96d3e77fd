"""The default judge's grounding weight: RAGTruth's faithful answers against CrowdRAG-25's quality.

For each weight ``w`` of :data:`WEIGHTS`, the default judge's log-odds plus ``w`` times its grounding
term (``pyterrier_rag_axioms.preference.grounding``: the difference of the two answers' transformed
CONS4 values, 0 where either answer copies its passages), on the development data:

- RAGTruth QA train: pairs of a faithful answer (no marked span) and a hallucinated one to the same
  question, each with its three passages as ``context``: the share where the faithful one is preferred
  (ties count half);
- CrowdRAG-25 dev: the judged pairs with their retrieved passages as ``context``: agreement with
  ``quality_overall``, always deciding and on the more confident half.

The weight chosen is the largest whose two CrowdRAG figures are both at least those of weight 0 (the
judge may read the passages only as far as it keeps the quality people rate); RAGTruth does not
choose it, so its figure at that weight is held out from the choice. ``--write`` writes the weight and
the table into the shipped ``preference-crowd.json``. docs/preference.md reports the table.

Usage: ``.venv/bin/python benchmarks/grounding_weight.py [--write]`` (about ten minutes on two cores).
"""

from __future__ import annotations

import argparse
import json

import numpy as np
import pandas as pd
from _setup import DEV_DATA, PROJECT_ROOT  # noqa: E402  (first: the checkout's package, offline models)
from grounding_features import ragtruth_responses  # noqa: E402

import pyterrier_rag_axioms as rag  # noqa: E402
from pyterrier_rag_axioms.judgments import load_crowdrag_judgments  # noqa: E402
from pyterrier_rag_axioms.support import SupportModel  # noqa: E402

WEIGHTS = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
SHIPPED = PROJECT_ROOT / "pyterrier_rag_axioms" / "preference" / "models" / "preference-crowd.json"


def ragtruth_pairs() -> pd.DataFrame:
    """RAGTruth QA train's pairs of a faithful answer (a) and a hallucinated one (b) to the same question."""
    answers = ragtruth_responses()
    faithful, hallucinated = answers[~answers["hallucinated"]], answers[answers["hallucinated"]]
    pairs = faithful.merge(hallucinated, on=["qid", "query"], suffixes=("_a", "_b"))
    return pairs[["qid", "query", "docno_a", "docno_b", "response_a", "response_b", "context_a", "context_b"]]


def agreement(base: np.ndarray, term: np.ndarray, truth: np.ndarray) -> dict[float, tuple[float, float]]:
    """For each weight: agreement of ``sign(base + weight * term)`` with ``truth`` (ties half), and on the
    more confident half."""
    figures = {}
    for weight in WEIGHTS:
        logits = base + weight * term
        half = np.argsort(-np.abs(logits), kind="stable")[: len(logits) // 2]
        figures[weight] = (float(np.mean(np.where(logits == 0, 0.5, np.sign(logits) == truth))),
                           float(np.mean(np.sign(logits[half]) == truth[half])))
    return figures


def parts(pairs: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """The default judge's log-odds without its grounding term, and the term at weight 1, of each pair."""
    explained = rag.PreferenceModel.default(grounding_weight=1.0).explain(pairs)
    term = explained["grounding_contribution"].to_numpy()
    return explained["PreferenceModel_logit"].to_numpy() - term, term


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the chosen weight into preference-crowd.json")
    arguments = parser.parse_args()
    truthful_pairs = ragtruth_pairs()
    truthful = agreement(*parts(truthful_pairs), np.ones(len(truthful_pairs)))
    folder = DEV_DATA / "crowdrag-25"
    judged = load_crowdrag_judgments(folder / "ratings.dev.jsonl.gz", folder / "responses.dev.jsonl.gz")
    judged = judged[np.sign(judged["quality_overall"]) != 0].reset_index(drop=True)
    crowd = agreement(*parts(judged), np.sign(judged["quality_overall"].to_numpy()))
    print(f"RAGTruth QA train: {len(truthful_pairs)} pairs; CrowdRAG-25 dev: {len(judged)} judged pairs")
    print("| grounding_weight | RAGTruth: prefers the faithful answer | CrowdRAG: always deciding | confident half |")
    print("|---:|---:|---:|---:|")
    for weight in WEIGHTS:
        print(f"| {weight:g} | {truthful[weight][0]:.3f} | {crowd[weight][0]:.3f} | {crowd[weight][1]:.3f} |")
    kept = [weight for weight in WEIGHTS if crowd[weight][0] >= crowd[0.0][0] and crowd[weight][1] >= crowd[0.0][1]]
    chosen = max(kept)
    print(f"chosen: {chosen:g} (the largest weight that keeps both CrowdRAG figures)")
    if arguments.write:
        document = json.loads(SHIPPED.read_text(encoding="utf-8"))
        document["grounding_weight"] = chosen
        document["support_model"] = SupportModel.default().version  # the probabilities it was chosen on
        document["metadata"]["grounding_weight"] = {
            "chosen_on": "CrowdRAG-25 dev judged pairs with their passages: the largest weight of the grid whose "
                         "agreement with quality_overall, always deciding and on the confident half, is at least "
                         "that of weight 0",
            "script": "benchmarks/grounding_weight.py",
            "grid": list(WEIGHTS),
            "ragtruth_qa_train_faithful_preferred": {f"{w:g}": round(truthful[w][0], 4) for w in WEIGHTS},
            "crowdrag_dev_agreement": {f"{w:g}": round(crowd[w][0], 4) for w in WEIGHTS},
            "crowdrag_dev_agreement_confident_half": {f"{w:g}": round(crowd[w][1], 4) for w in WEIGHTS},
        }
        keys = [key for key in document if key not in ("grounding_weight", "support_model")]
        at = keys.index("reference_weight") + 1  # beside reference_weight, as the model saves its parameters
        keys[at:at] = ["grounding_weight", "support_model"]
        SHIPPED.write_text(json.dumps({key: document[key] for key in keys}, indent=2) + "\n", encoding="utf-8")
        print(f"wrote grounding_weight {chosen:g} into {SHIPPED.relative_to(PROJECT_ROOT)}")


if __name__ == "__main__":
    main()
