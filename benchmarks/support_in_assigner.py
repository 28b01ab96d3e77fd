"""Does the support model help the nugget assigner on TREC's (short) nuggets?

On the TREC 2024 RAG development assignments, every (answer, nugget) pair is decided by a logistic
regression fitted leave-one-topic-out on the other topics (its threshold at the best binary kappa
on those topics), on three sets of inputs:

- the assigner's own features (:data:`~pyterrier_rag_axioms.nuggets._features.FEATURES`), with its
  rule that a missing number or entity means ``not_support``;
- the same plus the log-odds of the support model;
- the support model's log-odds alone.

The support model here is fitted on RAGTruth alone (``benchmarks/fit_support_model.py``'s fit), so no
TREC label reaches it. Printed: TREC's agreement figures (``fit_nugget_assigner.figures``).

Usage: ``.venv/bin/python benchmarks/support_in_assigner.py --features-cache PATH`` (the cache that
``fit_support_model.py --features-cache PATH`` writes; about two minutes).
"""

from __future__ import annotations

import argparse
import pickle
from pathlib import Path

import numpy as np
from _setup import DEV_DATA  # noqa: F401,E402  (first: the checkout's package, offline models)
from fit_nugget_assigner import ASSIGNMENTS, figures, human_labels  # noqa: E402
from fit_support_model import MODEL_FEATURES, fit, predict  # noqa: E402
from scipy.special import logit  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.metrics import cohen_kappa_score  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

from pyterrier_rag_axioms.judgments import load_nugget_assignments  # noqa: E402
from pyterrier_rag_axioms.nuggets import NuggetAssigner  # noqa: E402
from pyterrier_rag_axioms.support import FEATURES, SupportModel  # noqa: E402

SHOWN = ("kappa", "kappa_binary", "topic_tau", "run_tau", "pair_concordance")


def _probability(model, scaler, inputs: np.ndarray, matched: np.ndarray | None, rows: np.ndarray) -> np.ndarray:
    found = model.predict_proba(scaler.transform(inputs[rows]))[:, 1]
    return found if matched is None else np.where(matched[rows], found, 0.0)


def leave_one_topic_out(inputs: np.ndarray, supported: np.ndarray, topics: np.ndarray, matched: np.ndarray | None):
    """Each pair's assignment by a model fitted on the other topics (``matched``: where given, a pair
    whose numbers and entities do not all match is ``not_support``)."""
    assigned = np.empty(len(supported), dtype=object)
    for topic in np.unique(topics):
        train, test = topics != topic, topics == topic
        scaler = StandardScaler().fit(inputs[train])
        model = LogisticRegression(max_iter=2000).fit(scaler.transform(inputs[train]), supported[train])

        own = _probability(model, scaler, inputs, matched, train)
        grid = np.unique(np.quantile(own, np.linspace(0.05, 0.95, 91)))
        threshold = grid[np.argmax([cohen_kappa_score(supported[train], own >= value) for value in grid])]
        held_out = _probability(model, scaler, inputs, matched, test)
        assigned[test] = np.where(held_out >= threshold, "support", "not_support")
    return assigned


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--features-cache", type=Path, required=True, help="fit_support_model.py's features cache")
    arguments = parser.parse_args()
    assignments = load_nugget_assignments(ASSIGNMENTS)
    frame, evidence = NuggetAssigner(nuggets=ASSIGNMENTS).evidence(assignments)
    own = np.array([pair.features for pair in evidence])
    matched = np.array([pair.numbers_match and pair.entities_match for pair in evidence])
    pairs = frame[["qid", "docno", "nugget_id"]].merge(human_labels(assignments), on=["qid", "docno", "nugget_id"])
    supported = (pairs["label"] != "not_support").to_numpy(dtype=int)
    responses = dict(zip(zip(assignments["qid"], assignments["docno"]), assignments["response"]))
    statements = SupportModel.default().features(
        frame["nugget"].tolist(), [responses[key] for key in zip(frame["qid"], frame["docno"])]
    )
    _, support_pairs, support_features, _, _ = pickle.loads(arguments.features_cache.read_bytes())
    columns = [FEATURES.index(name) for name in MODEL_FEATURES]
    ragtruth = support_pairs["sources"] == "ragtruth"
    fitted = fit(
        support_features[ragtruth][:, columns],
        support_pairs["labels"][ragtruth],
        support_pairs["weights"][ragtruth],
        support_pairs["sources"][ragtruth],
    )
    support = logit(np.clip(predict(fitted, statements[:, columns]), 1e-6, 1 - 1e-6))[:, None]
    topics = frame["qid"].to_numpy()
    for name, inputs, rule in (
        ("the assigner's features", own, matched),
        ("the assigner's features + the support model", np.hstack([own, support]), matched),
        ("the support model alone", support, None),
    ):
        found = figures(pairs, leave_one_topic_out(inputs, supported, topics, rule))
        print(f"{name}: " + ", ".join(f"{key} {found[key]:.3f}" for key in SHOWN))


if __name__ == "__main__":
    main()
