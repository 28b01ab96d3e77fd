"""Fit the shipped preference models on the development judgments and report cross-validated agreement.

Regenerates ``pyterrier_rag_axioms/models/preference-crowd.json`` (CrowdRAG-25, overall quality)
and ``preference-nuggets.json`` (TREC 2024 RAG nugget scores) from the development slices in
``../shared/data`` (or ``$RAG_AXIOMS_SHARED_DATA``), and prints, next to the single axioms and
majority votes, the leave-one-topic-out cross-validated agreement of every candidate model (each
topic's pairs are judged by a model fitted on the other topics) and of the choice among them,
itself cross-validated (nested: the candidate judging a topic is chosen on the other topics),
with 95 % bootstrap intervals of the concordance and of the runs' Kendall's tau that resample
topics. Training-set agreement is never printed. Only the weights are written, never the data.

- CrowdRAG-25: the judged pairs of ``ratings.dev.jsonl.gz``, truth ``quality_overall``.
- TREC 2024 RAG: all pairs of each topic's answers (one per run), truth the sign of the difference
  of their nugget scores (all nuggets, partial support 0.5); pairs with equal scores are not fitted.
  The answers have no retrieved context, so the context axioms are left out of this model.

Usage: ``make fit`` or ``.venv/bin/python benchmarks/fit_preference_models.py [--no-write]``.
"""

from __future__ import annotations

import argparse
import itertools
import math
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
NEW = ["LEN1", "COH3", "COH4", "COV4", "COV5", "COV6", "COV7", "CORR2", "CORR3", "CORR4", "CORR5"]
#: Axioms that read the retrieved context (no preference on the context-free nugget data).
CONTEXT = {"CONS1", "CONS2", "CORR2", "CORR3"}

#: Candidate models: feature sets and the inverse L2 strength C, declared before fitting, simplest
#: first. Each is cross-validated leave-one-topic-out. The choice among them is itself
#: cross-validated (nested): for each held-out topic, a candidate is chosen by its
#: leave-one-topic-out concordance on the *other* topics, fitted on those topics, and judges the
#: held-out one; that nested figure is the honest estimate of the whole procedure. The rule
#: (``RULES``; the shipped models use ``"one standard error"``): the simplest candidate whose
#: concordance lies within one binomial standard error of the best one's. The shipped model is the
#: candidate the same rule picks on all development topics, fitted on all of them.
CANDIDATES: dict[str, tuple[list[str], float]] = {
    "LEN1 alone": (["LEN1"], 1.0),
    "paper axioms": (PAPER, 1.0),
    "new axioms": (NEW, 1.0),
    "paper + new, C=0.1": (PAPER + NEW, 0.1),
    "paper + new, C=1": (PAPER + NEW, 1.0),
}
#: Every candidate weighs each feature only in its axiom's direction (``follow_directions``): a
#: feature can only favour the response its axiom prefers, so every decision reads as the axioms'
#: intuitions. Leave-one-topic-out on the nugget preferences, this cost 0.003 always deciding and
#: gained 0.01 on the confident half (the new axioms; 5 of their 9 weights become 0).
FOLLOW_DIRECTIONS = True
#: The numbers of topics the runs' tau is projected to (``rag.evaluation.projected_run_correlation``).
PROJECTED_TOPICS = [10, 20, 30, 40, 50]
#: For CrowdRAG-25 also, and first in order (it fits no parameter on CrowdRAG-25, so under the
#: one-standard-error rule it counts as the simplest): the nugget model as it is (fitted on the
#: 5,676 nugget preferences: out of domain, but on 34 times more pairs).
TRANSFER = "nugget model (out of domain, no fitting here)"


def crowd_pairs() -> pd.DataFrame:
    folder = DATA / "crowdrag-25"
    return rag.judgments.load_crowdrag_judgments(folder / "ratings.dev.jsonl.gz", folder / "responses.dev.jsonl.gz")


def nugget_pairs() -> tuple[pd.DataFrame, pd.DataFrame]:
    """All pairs of each topic's answers with the nugget oracle's column, and the nugget scores."""
    assignments = rag.judgments.load_nugget_assignments(DATA / "trec-rag-2024" / "nugget_assignment.dev.jsonl")
    oracle = rag.TrecRagNuggetAxiom(assignments_path=assignments)
    pairs = oracle(assignments.drop(columns=["nuggets"]))
    return pairs, rag.judgments.nugget_scores(assignments)


def features_for(kind: str, names: list[str]) -> list[str]:
    return [name for name in names if not (kind == "nuggets" and name in CONTEXT)]


def half_concordance(predicted: pd.DataFrame, column: str, truth: str) -> tuple[float, float]:
    """Concordance on the half of the pairs where the model is most confident, and the confidence there."""
    confidence = (predicted[f"{column}_probability"] - 0.5).abs().to_numpy()
    threshold = float(np.quantile(confidence, 0.5))
    decided = predicted[confidence >= threshold]
    row = rag.agreement(decided, truth=truth, axioms=[column]).iloc[0]
    return float(row["concordance"]), threshold


def concordance(probability: np.ndarray, signs: np.ndarray) -> float:
    """Share of pairs, among those where both the model and the truth decide, on which they agree."""
    decided = (signs != 0) & (probability != 0.5)
    return float(np.mean(np.sign(probability[decided] - 0.5) == signs[decided])) if decided.any() else float("nan")


def choose_best(scores: list[float], counts: list[int]) -> int:
    """The candidate with the highest concordance (the first of equal ones)."""
    return int(np.nanargmax(scores))


def choose_within_one_error(scores: list[float], counts: list[int]) -> int:
    """The first (simplest) candidate within one binomial standard error of the best concordance."""
    best = int(np.nanargmax(scores))
    error = math.sqrt(scores[best] * (1.0 - scores[best]) / max(counts[best], 1))
    return next(index for index, score in enumerate(scores) if score >= scores[best] - error)


#: How to choose among candidates from their cross-validated concordances and decided pairs.
RULES = {"one standard error": choose_within_one_error, "highest concordance": choose_best}
RULE = "one standard error"


class Candidate:
    """One candidate model: its features' differences over all judged pairs, computed once."""

    def __init__(self, label: str, model: rag.PreferenceModel, judged: pd.DataFrame, *, fixed: bool = False):
        self.label, self.model, self.fixed = label, model, fixed
        self.differences = model.differences(rag.frames.ResponseTable.from_pairs(judged))

    def predict(self, train: np.ndarray, test: np.ndarray, signs: np.ndarray) -> np.ndarray:
        """Fit on the rows ``train`` (unless fixed) and return the probabilities of the rows ``test``."""
        if not self.fixed:
            fitted = train & (signs != 0)
            self.model._fit_differences(self.differences[fitted], signs[fitted], np.ones(int(fitted.sum())))
        return self.model.probabilities_of(self.differences[test])

    def leave_one_out(self, rows: np.ndarray, groups: np.ndarray, signs: np.ndarray) -> np.ndarray:
        """Leave-one-topic-out probabilities over the rows ``rows`` (NaN elsewhere)."""
        predicted = np.full(len(groups), np.nan)
        for group in pd.unique(groups[rows]):
            held_out = rows & (groups == group)
            predicted[held_out] = self.predict(rows & (groups != group), held_out, signs)
        return predicted


def figures(judged: pd.DataFrame, probability: np.ndarray, truth: str, label: str, count: int,
            scores: pd.DataFrame | None) -> dict:
    """Agreement of held-out probabilities with the truth: always deciding, deciding half, runs' tau."""
    column = "PreferenceModel"
    predicted = judged.assign(**{column: np.sign(probability - 0.5), f"{column}_probability": probability})
    row = rag.agreement(predicted, truth=truth, axioms=[column], confidence=0.95).iloc[0]
    half, threshold = half_concordance(predicted, column, truth)
    result = {"model": label, "features": count, "decisiveness": row["decisiveness"],
              "concordance": row["concordance"], "concordance_low": row["concordance_low"],
              "concordance_high": row["concordance_high"], "concordance_half": half, "min_confidence_half": threshold}
    if scores is not None:
        tau = rag.evaluation.run_correlation(
            rag.evaluation.win_rates(predicted, column), scores.rename(columns={"docno": "run"}),
            score_first="win_rate", score_second="score", confidence=0.95,
        )
        result.update(kendall_tau_runs=tau["tau"], kendall_tau_runs_low=tau["tau_low"],
                      kendall_tau_runs_high=tau["tau_high"])
    return result


def project_tau(predicted: pd.DataFrame, scores: pd.DataFrame) -> pd.DataFrame:
    """Print and return the runs' tau projected to more topics, with the projection's check on subsets."""
    wins = rag.evaluation.win_rates(predicted, "PreferenceModel")
    nuggets = scores.rename(columns={"docno": "run"})
    topics = sorted(wins["qid"].unique())
    projection = rag.evaluation.projected_run_correlation(wins, nuggets, score_first="win_rate", score_second="score",
                                               topics=[len(topics), *PROJECTED_TOPICS])
    print(f"  runs' tau projected to more topics like these (nested choice, {RULE}; correlation of the runs' "
          f"true means {projection.attrs['true_correlation']:.3f}, of their deviations on a topic "
          f"{projection.attrs['deviation_correlation']:.3f}; the first row is the observed number of topics, "
          "its tau Greiner's value for the observed correlation):")
    print(projection.round(3).to_string(index=False))
    observed = rag.evaluation.run_correlation(wins, nuggets, score_first="win_rate", score_second="score")
    observed = observed["tau"]
    for size in range(1, len(topics)):
        subsets = [(wins[wins["qid"].isin(subset)], nuggets[nuggets["qid"].isin(subset)])
                   for subset in itertools.combinations(topics, size)]
        taus = [
            rag.evaluation.run_correlation(*pair, score_first="win_rate", score_second="score")["tau"]
            for pair in subsets
        ]
        line = f"  each set of {size} topics: observed tau {np.mean(taus):.3f} on average"
        if size > 1:
            projected = [rag.evaluation.projected_run_correlation(*pair, score_first="win_rate", score_second="score",
                                                       topics=len(topics))["tau"][0] for pair in subsets]
            line += (f"; projected to all {len(topics)}: mean {np.nanmean(projected):.3f}, "
                     f"range {np.nanmin(projected):.3f}-{np.nanmax(projected):.3f} (observed: {observed:.3f})")
        print(line)
    return projection


def report(kind: str, pairs: pd.DataFrame, truth: str, scores: pd.DataFrame | None,
           transfer: rag.PreferenceModel | None = None) -> rag.PreferenceModel:
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
        nuggets = rag.evaluation.mean_run_scores(scores)
        for column in (paper_vote.name, all_vote.name, "LEN1"):
            wins = rag.evaluation.run_win_rates(judged, column)
            tau = rag.evaluation.run_correlation(wins, nuggets, score_first="win_rate", score_second="score")
            print(f"Kendall's tau, runs by {column} win rate vs mean nugget score: {tau['tau']:.3f}")

    judged = judged.reset_index(drop=True)
    signs = np.nan_to_num(np.sign(pd.to_numeric(judged[truth], errors="coerce").to_numpy(dtype=float)), nan=0.0)
    groups = judged["qid"].astype(str).to_numpy()
    everything = np.ones(len(judged), dtype=bool)
    candidates = [
        Candidate(label, rag.PreferenceModel(axioms=features_for(kind, features), regularization=c,
                                             follow_directions=FOLLOW_DIRECTIONS), judged)
        for label, (features, c) in CANDIDATES.items()
    ]
    if transfer is not None:  # first: no parameter of it is fitted on these judgments, so it is the simplest
        candidates.insert(0, Candidate(TRANSFER, transfer._copy(), judged, fixed=True))

    print("\nPreference models, leave-one-topic-out cross-validated (never training-set figures):")
    rows, loto = [], {}
    for candidate in candidates:
        loto[candidate.label] = candidate.leave_one_out(everything, groups, signs)
        rows.append(figures(judged, loto[candidate.label], truth, candidate.label, len(candidate.model.axioms), scores))
    print(pd.DataFrame(rows).round(3).to_string(index=False))

    print("\nNested: per held-out topic, the candidate chosen on the other topics, by each rule:")
    nested = {rule_name: np.full(len(judged), np.nan) for rule_name in RULES}
    picks: dict[str, list[str]] = {rule_name: [] for rule_name in RULES}
    for group in pd.unique(groups):
        inner = groups != group
        held_in = [c.leave_one_out(inner, groups, signs)[inner] for c in candidates]  # once for all rules
        decided = [int(((signs[inner] != 0) & (p != 0.5)).sum()) for p in held_in]
        inner_concordances = [concordance(p, signs[inner]) for p in held_in]
        for rule_name, rule in RULES.items():
            best = candidates[rule(inner_concordances, decided)]
            nested[rule_name][~inner] = best.predict(inner, ~inner, signs)
            picks[rule_name].append(best.label)
    nested_rows, nested_figures = [], {}
    for rule_name in RULES:
        counts = pd.Series(picks[rule_name]).value_counts()
        print(f"  {rule_name}: chosen per topic: " + ", ".join(f"{label} ({n})" for label, n in counts.items()))
        nested_figures[rule_name] = figures(judged, nested[rule_name], truth, f"nested, {rule_name}", 0, scores)
        nested_figures[rule_name].pop("features")
        nested_rows.append(nested_figures[rule_name])
    print(pd.DataFrame(nested_rows).round(3).to_string(index=False))
    projection = None
    if scores is not None:
        projection = project_tau(judged.assign(PreferenceModel=np.sign(nested[RULE] - 0.5)), scores)
    reliability = rag.evaluation.calibration(judged.assign(PreferenceModel_probability=nested[RULE]), truth=truth)
    print(f"  calibration of the nested choice ({RULE}): agreement with the truth by confidence")
    print(reliability.round(3).to_string(index=False))

    decided = [int(((signs != 0) & (loto[c.label] != 0.5)).sum()) for c in candidates]
    best = candidates[RULES[RULE]([row["concordance"] for row in rows], decided)]
    best_row = next(row for row in rows if row["model"] == best.label)
    chosen = best.model._copy()
    if not best.fixed:
        chosen.fit(judged, truth=truth)
    print(f"\nChosen on all development topics ({RULE}): {best.label}; weights fitted on all of them:")
    print(chosen.weights().round(3).to_string(index=False))
    chosen.cv = best_row  # type: ignore[attr-defined]
    chosen.nested = nested_figures[RULE]  # type: ignore[attr-defined]
    chosen.calibration = reliability  # type: ignore[attr-defined]
    chosen.projection = projection  # type: ignore[attr-defined]
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--no-write", action="store_true", help="report only; do not rewrite the shipped JSON")
    parser.add_argument("--kinds", default="crowd,nuggets", help="which models: crowd, nuggets (default both)")
    arguments = parser.parse_args(argv)
    if not DATA.is_dir():
        print(f"fit_preference_models: development data not found at {DATA}", file=sys.stderr)
        return 2
    kinds = arguments.kinds.split(",")
    unknown = [kind for kind in kinds if kind not in DEFAULT_MODELS]
    if unknown:
        print(f"fit_preference_models: unknown kind {unknown[0]!r}", file=sys.stderr)
        return 2
    nugget_source = "TREC 2024 RAG dev nugget assignments, nugget score (all nuggets), all pairs per topic"
    nugget_model = None
    for kind in sorted(kinds, key=["nuggets", "crowd"].index):  # the crowd candidates include the nugget model
        if kind == "crowd":
            pairs, truth, scores, source = crowd_pairs(), "quality_overall", None, "CrowdRAG-25 dev, quality_overall"
            transfer = nugget_model if nugget_model is not None else rag.PreferenceModel.default("nuggets")
        else:
            (pairs, scores), truth, source, transfer = nugget_pairs(), "TREC_RAG_NUGGET", nugget_source, None
        model = report(kind, pairs, truth, scores, transfer)
        if kind == "nuggets":
            nugget_model = model
        if model.cv["model"] == TRANSFER:
            source = f"{nugget_source}; chosen for CrowdRAG-25 dev, quality_overall, without fitting there"
        if not arguments.no_write:
            path = MODELS_DIR / DEFAULT_MODELS[kind]
            rounded = [{key: (round(value, 4) if isinstance(value, float) else value) for key, value in figures.items()}
                       for figures in (model.cv, model.nested)]
            model.save(path, metadata={
                "fitted_on": source,
                "topics": int(pairs["qid"].nunique()),
                "pairs": int(len(pairs)),
                "leave_one_topic_out": rounded[0],
                "nested_leave_one_topic_out": rounded[1],
                "nested_calibration": model.calibration.round(4).to_dict(orient="records"),
                **({} if model.projection is None else
                   {"nested_tau_projected": model.projection.round(4).to_dict(orient="records")}),
                "script": "benchmarks/fit_preference_models.py",
            })
            print(f"wrote {path.relative_to(PROJECT_ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
