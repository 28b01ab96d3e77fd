"""Fit the shipped nugget-assignment model and report its nested leave-one-topic-out agreement with people.

Reads the TREC 2024 RAG development assignments (``../shared/data/trec-rag-2024/nugget_assignment.dev.jsonl``
or ``$RAG_AXIOMS_SHARED_DATA``), computes the features of every (answer, nugget) pair with
:class:`~pyterrier_rag_axioms.nuggets.NuggetAssigner`, and reports, as TREC reports assigners:

- per (answer, nugget): three-way agreement, Cohen's kappa, and kappa of support-or-partial vs not;
- per topic: Kendall's tau of the answers' automatic against manual All scores (partial 0.5), mean over topics;
- per run: Kendall's tau of the runs' mean automatic against mean manual All scores;
- per response pair: the concordance of the automatic All score's preference (the axiom on top)
  with the manual one, over the pairs both prefer one response in.

Every figure is nested (``NuggetAssigner.cross_validate``): each topic is assigned by a model fitted
on the other topics, whose regularisation and thresholds were chosen by leave-one-topic-out
cross-validation on those topics alone. Beside it stands the crude overlap baseline (a nugget's
content lemmas looked up in the answer: all found is support, at least half partial support;
nothing fitted). The model written (``pyterrier_rag_axioms/nuggets/nugget-model.json``) is fitted on all topics.

Usage: ``make fit-nuggets`` or ``.venv/bin/python benchmarks/fit_nugget_assigner.py [--no-write]``.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import pandas as pd
from _setup import DEV_DATA, PROJECT_ROOT  # noqa: E402  (first: the checkout's package, offline models)
from scipy.stats import kendalltau  # noqa: E402
from sklearn.metrics import cohen_kappa_score  # noqa: E402

from pyterrier_rag_axioms.declaration import replaced  # noqa: E402
from pyterrier_rag_axioms.judgments import NUGGET_ASSIGNMENT_SCORES, load_nugget_assignments  # noqa: E402
from pyterrier_rag_axioms.nuggets import NuggetAssigner, fit_nugget_model  # noqa: E402
from pyterrier_rag_axioms.nuggets.assigner import DEFAULT_ENCODER  # noqa: E402
from pyterrier_rag_axioms.nuggets.model import resolve_nugget_model  # noqa: E402
from pyterrier_rag_axioms.tools.embeddings import BACKENDS, encoder_name, resolve_encoder  # noqa: E402

DATA = DEV_DATA
ASSIGNMENTS = DATA / "trec-rag-2024" / "nugget_assignment.dev.jsonl"
MODEL_PATH = PROJECT_ROOT / "pyterrier_rag_axioms" / "nuggets" / "nugget-model.json"


def human_labels(assignments: pd.DataFrame) -> pd.DataFrame:
    """One row per (response, nugget) of the assignments file: qid, docno, nugget_id, label."""
    rows = [
        (qid, docno, str(position), nugget["assignment"])
        for qid, docno, nuggets in zip(assignments["qid"], assignments["docno"], assignments["nuggets"])
        for position, nugget in enumerate(nuggets)
    ]
    return pd.DataFrame(rows, columns=["qid", "docno", "nugget_id", "label"])


def overlap_baseline(lexical: np.ndarray) -> np.ndarray:
    """The crude overlap assigner: all content lemmas found is support, at least half partial support."""
    return np.where(lexical >= 1.0, "support", np.where(lexical >= 0.5, "partial_support", "not_support"))


def figures(pairs: pd.DataFrame, assigned: np.ndarray) -> dict[str, float]:
    """TREC's agreement figures of automatic against manual assignments."""
    labels = pairs["label"].to_numpy(dtype=object)
    assigned = np.asarray(assigned, dtype=object)
    supported, assigned_support = labels != "not_support", assigned != "not_support"
    scores = pairs.assign(manual=pd.Series(labels).map(NUGGET_ASSIGNMENT_SCORES).to_numpy(),
                          automatic=pd.Series(assigned).map(NUGGET_ASSIGNMENT_SCORES).to_numpy())
    answers = scores.groupby(["qid", "docno"])[["manual", "automatic"]].mean()  # All scores, partial 0.5
    topic_taus = [kendalltau(group["manual"], group["automatic"]).statistic for _, group in answers.groupby("qid")]
    runs = answers.groupby(level="docno").mean()
    concordant = decisive = 0
    for _, group in answers.groupby("qid"):
        manual, automatic = group["manual"].to_numpy(), group["automatic"].to_numpy()
        a, b = np.triu_indices(len(manual), 1)
        human, machine = np.sign(manual[a] - manual[b]), np.sign(automatic[a] - automatic[b])
        both = (human != 0) & (machine != 0)
        concordant += int(((human == machine) & both).sum())
        decisive += int(both.sum())
    return {
        "agreement": float((labels == assigned).mean()),
        "kappa": float(cohen_kappa_score(labels, assigned)),
        "kappa_binary": float(cohen_kappa_score(supported, assigned_support)),
        "topic_tau": float(np.mean(topic_taus)),
        "run_tau": float(kendalltau(runs["manual"], runs["automatic"]).statistic),
        "pair_concordance": concordant / decisive if decisive else float("nan"),
        "pairs": decisive,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="report only; do not write the model")
    parser.add_argument("--encoder", default=DEFAULT_ENCODER, choices=BACKENDS,
                        help=f"the sentence encoder's backend (default: the assigner's, {DEFAULT_ENCODER})")
    args = parser.parse_args(argv)
    if not ASSIGNMENTS.is_file():
        sys.exit(f"no development assignments at {ASSIGNMENTS}")
    assignments = load_nugget_assignments(ASSIGNMENTS)
    encoder = resolve_encoder(f":{args.encoder}")
    fitted_on = encoder_name(encoder)
    assigner = NuggetAssigner(nuggets=ASSIGNMENTS, encoder=encoder, verbose=True,
                              model=replaced(resolve_nugget_model(None), encoder=fitted_on))
    pairs = assigner.features(assignments).merge(human_labels(assignments), on=["qid", "docno", "nugget_id"])
    print(f"{len(pairs)} (answer, nugget) pairs, {pairs['qid'].nunique()} topics, {pairs['docno'].nunique()} runs; "
          f"{(pairs['label'] == 'not_support').mean():.1%} not_support")
    rows = {"overlap baseline (fixed thresholds)": figures(pairs, overlap_baseline(pairs["lexical"].to_numpy()))}
    nested = assigner.cross_validate(assignments, assignments)
    assigned = pairs[["qid", "docno", "nugget_id"]].merge(nested, on=["qid", "docno", "nugget_id"])["assignment"]
    rows["NuggetAssigner (nested LOTO)"] = figures(pairs, assigned.to_numpy())
    table = pd.DataFrame(rows).T
    with pd.option_context("display.width", 200, "display.max_columns", 20, "display.precision", 3):
        print(table)
    if not args.no_write:
        model = fit_nugget_model(pairs, pairs["label"], pairs["qid"], encoder=fitted_on)
        model.save(MODEL_PATH)
        print(f"wrote {MODEL_PATH.relative_to(PROJECT_ROOT)}: partial >= {model.partial_threshold:.2f}, "
              f"support >= {model.support_threshold:.2f}")


if __name__ == "__main__":
    main()
