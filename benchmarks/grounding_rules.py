"""Grounding terms for the default judge, tried on the table of ``grounding_features.py``.

Each rule subtracts ``w`` times a per-response grounding value ``g`` from the default judge's score
(``PreferenceModel.default()``, no grounding term), for each ``w`` of :data:`WEIGHTS`, and prints:

- RAGTruth QA train: on the pairs of a faithful answer (no marked span) and a hallucinated one to the
  same question, the share where the faithful one is preferred (ties count half);
- CrowdRAG-25 dev: agreement with ``quality_overall`` on the judged pairs, always deciding (ties half;
  out of 165) and on the more confident half (out of 82).

``g`` alone (no default score) ranks RAGTruth's pairs as the column ``alone`` says. Nothing is
fitted: each line is a rule and a weight, so every figure is a development figure.
docs/preference.md reports what these lines show.

Usage: ``.venv/bin/python benchmarks/grounding_features.py`` once (several minutes), then
``.venv/bin/python benchmarks/grounding_rules.py [--table PATH]`` (seconds).
"""

from __future__ import annotations

import argparse
import pickle
from collections.abc import Callable

import numpy as np
import pandas as pd

WEIGHTS = (0.25, 1.0, 4.0, 16.0)


def signed_log(values) -> np.ndarray:
    """``sign(x) * log(1 + |x|)``, the transform of the grounding term."""
    values = np.asarray(values, dtype=float)
    return np.sign(values) * np.log1p(np.abs(values))


def _claims(frame: pd.DataFrame, value: Callable[[np.ndarray, np.ndarray], float]) -> np.ndarray:
    claims = zip(frame["probabilities"], frame["claim_missing"])
    return np.array([value(np.asarray(probabilities), np.asarray(missing)) for probabilities, missing in claims])


def hard_mass(below: float) -> Callable[[pd.DataFrame], np.ndarray]:
    """The IDF mass missing from the passages, over the claims whose support probability is under ``below``."""
    return lambda frame: signed_log(_claims(frame, lambda p, m: float(m[p < below].sum()) if len(p) else 0.0))


#: Per-response grounding values (more is less grounded), by name.
RULES: dict[str, Callable[[pd.DataFrame], np.ndarray]] = {
    "t(CONS4) (grounding_weight)": lambda frame: signed_log(frame["cons4"]),
    "t(IDF mass of answer terms in no passage)": lambda frame: signed_log(frame["answer_missing_idf"]),
    "CONS4 per claim": lambda frame: frame["cons4"].to_numpy() / np.maximum(frame["n_claims"].to_numpy(), 1),
    "CONS4 per word": lambda frame: frame["cons4"].to_numpy() / np.maximum(frame["words"].to_numpy(), 1),
    "1 - faithfulness": lambda frame: 1 - frame["faithfulness"].to_numpy(),
    "t(missing mass of claims with p < 0.2)": hard_mass(0.2),
    "t(missing mass of claims with p < 0.3)": hard_mass(0.3),
    "t(numbers in no passage)": lambda frame: signed_log(frame["numbers_missing"]),
}


class Pairs:
    """The pairs of both sources, as indices into their response tables."""

    def __init__(self, table: dict):
        self.ragtruth = table["ragtruth"].reset_index(drop=True)
        self.crowdrag = table["crowdrag"].reset_index(drop=True)
        faithful, hallucinated = zip(*[
            (good, bad) for _, topic in self.ragtruth.groupby("qid")
            for good in topic.index[~topic["hallucinated"]] for bad in topic.index[topic["hallucinated"]]
        ])
        self.faithful, self.hallucinated = np.array(faithful), np.array(hallucinated)
        position = {key: i for i, key in enumerate(zip(self.crowdrag["qid"], self.crowdrag["docno"]))}
        judged = table["crowdrag_pairs"]
        truth = np.sign(judged["quality_overall"].to_numpy())
        keep = truth != 0
        self.a = np.array([position[key] for key in zip(judged["qid"], judged["docno_a"])])[keep]
        self.b = np.array([position[key] for key in zip(judged["qid"], judged["docno_b"])])[keep]
        self.truth = truth[keep]

    def ragtruth_share(self, scores: np.ndarray) -> float:
        logits = scores[self.faithful] - scores[self.hallucinated]
        return float(np.mean(np.where(logits == 0, 0.5, logits > 0)))

    def crowdrag_agreement(self, scores: np.ndarray) -> tuple[float, float]:
        logits = scores[self.a] - scores[self.b]
        confident = np.argsort(-np.abs(logits), kind="stable")[: len(logits) // 2]
        always = np.where(logits == 0, 0.5, np.sign(logits) == self.truth)
        return float(always.mean()), float(np.mean(np.sign(logits[confident]) == self.truth[confident]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", default="/tmp/grounding-features.pkl", help="the pickle of grounding_features.py")
    with open(parser.parse_args().table, "rb") as file:
        pairs = Pairs(pickle.load(file))
    base_ragtruth, base_crowdrag = pairs.ragtruth["score"].to_numpy(), pairs.crowdrag["score"].to_numpy()
    always, confident = pairs.crowdrag_agreement(base_crowdrag)
    print(f"{'rule':44s} {'w':>5s} {'RAGTruth':>9s} {'CrowdRAG':>9s} {'half':>6s} {'alone':>6s}")
    print(f"{'the default judge':44s} {0:5g} {pairs.ragtruth_share(base_ragtruth):9.3f} {always:9.3f} {confident:6.3f}")
    for name, rule in RULES.items():
        ragtruth, crowdrag = rule(pairs.ragtruth), rule(pairs.crowdrag)
        alone = pairs.ragtruth_share(-ragtruth)
        for weight in WEIGHTS:
            always, confident = pairs.crowdrag_agreement(base_crowdrag - weight * crowdrag)
            share = pairs.ragtruth_share(base_ragtruth - weight * ragtruth)
            print(f"{name:44s} {weight:5g} {share:9.3f} {always:9.3f} {confident:6.3f} {alone:6.3f}")


if __name__ == "__main__":
    main()
