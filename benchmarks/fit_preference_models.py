"""Fit the shipped preference models on the development judgments and report cross-validated agreement.

Regenerates ``pyterrier_rag_axioms/models/preference-crowd.json`` (CrowdRAG-25, overall quality)
and ``preference-nuggets.json`` (TREC 2024 RAG nugget scores) from the development slices in
``../shared/data`` (or ``$RAG_AXIOMS_SHARED_DATA``), and prints, next to the single axioms and
majority votes, the leave-one-topic-out cross-validated agreement of every candidate model: each
topic's pairs are judged by a model fitted on the other topics. Training-set agreement is never
printed. Only the weights are written, never the data.

- CrowdRAG-25: the judged pairs of ``ratings.dev.jsonl.gz``, truth ``quality_overall``.
- TREC 2024 RAG: all pairs of each topic's answers (one per run), truth the sign of the difference
  of their nugget scores (all nuggets, partial support 0.5); pairs with equal scores are not fitted.
  The answers have no retrieved context, so the context axioms are left out of this model.

Usage: ``make fit`` or ``.venv/bin/python benchmarks/fit_preference_models.py [--no-write]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

PROJECT_ROOT = Path(__file__).resolve().parents[1]
if str(PROJECT_ROOT) not in sys.path:
    sys.path.insert(0, str(PROJECT_ROOT))

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
warnings.filterwarnings("ignore")

import pyterrier_rag_axioms as rag  # noqa: E402
from pyterrier_rag_axioms.preference import DEFAULT_MODELS  # noqa: E402

MODELS_DIR = PROJECT_ROOT / "pyterrier_rag_axioms" / "models"
DATA = Path(os.environ.get("RAG_AXIOMS_SHARED_DATA", PROJECT_ROOT.parent / "shared" / "data"))

#: The ten offline axioms of the paper (CLAR1 needs a LanguageTool server).
PAPER = ["COH1", "COH2", "COV1", "COV2", "COV3", "CONS1", "CONS2", "CONS3", "CORR1", "CLAR2"]
#: The axioms beyond the paper.
NEW = ["LEN1", "COH3", "COH4", "COV4", "COV5", "CORR2", "CORR3", "CORR4"]
#: Axioms that read the retrieved context (no preference on the context-free nugget data).
CONTEXT = {"CONS1", "CONS2", "CORR2", "CORR3"}

#: Candidate models: feature sets and the inverse L2 strength C. Each is cross-validated; per kind,
#: the one with the highest cross-validated concordance (always deciding; the first on a tie) is
#: fitted on all development topics and written. The candidates are declared before fitting; the
#: choice among them is not itself cross-validated, so the chosen figure is slightly optimistic.
CANDIDATES: dict[str, tuple[list[str], float]] = {
    "LEN1 alone": (["LEN1"], 1.0),
    "paper axioms": (PAPER, 1.0),
    "new axioms": (NEW, 1.0),
    "paper + new, C=1": (PAPER + NEW, 1.0),
    "paper + new, C=0.1": (PAPER + NEW, 0.1),
}


def crowd_pairs() -> pd.DataFrame:
    folder = DATA / "crowdrag-25"
    return rag.load_crowdrag_judgments(folder / "ratings.dev.jsonl.gz", folder / "responses.dev.jsonl.gz")


def nugget_pairs() -> tuple[pd.DataFrame, pd.DataFrame]:
    """All pairs of each topic's answers with the nugget oracle's column, and the nugget scores."""
    assignments = rag.load_nugget_assignments(DATA / "trec-rag-2024" / "nugget_assignment.dev.jsonl")
    oracle = rag.TrecRagNuggetAxiom(assignments_path=assignments)
    pairs = oracle(assignments.drop(columns=["nuggets"]))
    return pairs, rag.nugget_scores(assignments)


def features_for(kind: str, names: list[str]) -> list[str]:
    return [name for name in names if not (kind == "nuggets" and name in CONTEXT)]


def half_concordance(predicted: pd.DataFrame, column: str, truth: str) -> tuple[float, float]:
    """Concordance on the half of the pairs where the model is most confident, and the confidence there."""
    confidence = (predicted[f"{column}_probability"] - 0.5).abs().to_numpy()
    threshold = float(np.quantile(confidence, 0.5))
    decided = predicted[confidence >= threshold]
    row = rag.agreement(decided, truth=truth, axioms=[column]).iloc[0]
    return float(row["concordance"]), threshold


def report(kind: str, pairs: pd.DataFrame, truth: str, scores: pd.DataFrame | None) -> dict[str, rag.PreferenceModel]:
    print(f"\n=== {kind}: {pairs['qid'].nunique()} topics, {len(pairs)} pairs, truth {truth} ===", flush=True)
    start = time.time()
    names = features_for(kind, PAPER + NEW)
    single = [rag.EXTRA_AXIOMS.get(name, rag.RAG_AXIOMS.get(name))() for name in names]
    paper_vote = rag.MajorityVote(*features_for(kind, PAPER), name="MajorityVote(paper)")
    all_vote = rag.MajorityVote(*names, name="MajorityVote(paper+new)")
    judged = pairs
    for axiom in [*single, paper_vote, all_vote]:
        judged = axiom(judged)
    print(f"(axiom values and preferences in {time.time() - start:.0f} s)")
    table = rag.agreement(judged, truth=truth, axioms=[*names, paper_vote.name, all_vote.name])
    print("Single axioms and majority votes (no fitting):")
    print(table.drop(columns=["truth"]).round(3).to_string(index=False))
    if scores is not None:
        nuggets = rag.mean_run_scores(scores)
        for column in (paper_vote.name, all_vote.name, "LEN1"):
            wins = rag.run_win_rates(judged, column)
            tau = rag.run_correlation(wins, nuggets, score_first="win_rate", score_second="score")
            print(f"Kendall's tau, runs by {column} win rate vs mean nugget score: {tau['tau']:.3f}")
    print("\nPreference models, leave-one-topic-out cross-validated (never training-set figures):")
    rows, fitted = [], {}
    for label, (candidate, regularization) in CANDIDATES.items():
        model = rag.PreferenceModel(axioms=features_for(kind, candidate), regularization=regularization)
        predicted = model.cross_validate(judged, truth=truth)
        row = rag.agreement(predicted, truth=truth, axioms=[model.name]).iloc[0]
        half, threshold = half_concordance(predicted, model.name, truth)
        result = {
            "model": label,
            "features": len(model.axioms),
            "decisiveness": row["decisiveness"],
            "concordance": row["concordance"],
            "concordance_half": half,
            "min_confidence_half": threshold,
        }
        if scores is not None:
            tau = rag.run_correlation(
                rag.run_win_rates(predicted, model.name), rag.mean_run_scores(scores),
                score_first="win_rate", score_second="score",
            )
            result["kendall_tau_runs"] = tau["tau"]
        rows.append(result)
        fitted[label] = model
    print(pd.DataFrame(rows).round(3).to_string(index=False))
    best = max(rows, key=lambda row: row["concordance"])  # the first of equal ones
    chosen = rag.PreferenceModel(axioms=features_for(kind, CANDIDATES[best["model"]][0]),
                                 regularization=CANDIDATES[best["model"]][1])
    chosen.fit(judged, truth=truth)
    print(f"\nChosen: {best['model']}; weights fitted on all development topics:")
    print(chosen.weights().round(3).to_string(index=False))
    chosen.cv = best  # type: ignore[attr-defined]
    return {"chosen": chosen}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--no-write", action="store_true", help="report only; do not rewrite the shipped JSON")
    parser.add_argument("--kinds", default="crowd,nuggets", help="which models: crowd, nuggets (default both)")
    arguments = parser.parse_args(argv)
    if not DATA.is_dir():
        print(f"fit_preference_models: development data not found at {DATA}", file=sys.stderr)
        return 2
    for kind in arguments.kinds.split(","):
        if kind == "crowd":
            pairs, truth, scores, source = crowd_pairs(), "quality_overall", None, "CrowdRAG-25 dev, quality_overall"
        elif kind == "nuggets":
            (pairs, scores), truth = nugget_pairs(), "TREC_RAG_NUGGET"
            source = "TREC 2024 RAG dev nugget assignments, nugget score (all nuggets), all pairs per topic"
        else:
            print(f"fit_preference_models: unknown kind {kind!r}", file=sys.stderr)
            return 2
        model = report(kind, pairs, truth, scores)["chosen"]
        if not arguments.no_write:
            path = MODELS_DIR / DEFAULT_MODELS[kind]
            cv = {key: (round(value, 4) if isinstance(value, float) else value) for key, value in model.cv.items()}
            model.save(path, metadata={
                "fitted_on": source,
                "topics": int(pairs["qid"].nunique()),
                "pairs": int(len(pairs)),
                "leave_one_topic_out": cv,
                "script": "benchmarks/fit_preference_models.py",
            })
            print(f"wrote {path.relative_to(PROJECT_ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
