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
import json
import math
import os
import sys
import time

import numpy as np
import pandas as pd
from _setup import DEV_DATA, PROJECT_ROOT  # noqa: E402  (first: the checkout's package, offline models)

os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")

import pyterrier_rag_axioms as rag  # noqa: E402
from pyterrier_rag_axioms.declaration import replaced  # noqa: E402
from pyterrier_rag_axioms.preference import DEFAULT_MODELS  # noqa: E402
from pyterrier_rag_axioms.preference.features import ENCODERS  # noqa: E402
from pyterrier_rag_axioms.preference.features import transformed_values as transformed  # noqa: E402
from pyterrier_rag_axioms.preference.scores import imputed  # noqa: E402

MODELS_DIR = PROJECT_ROOT / "pyterrier_rag_axioms" / "preference" / "models"
DATA = DEV_DATA

#: The ten offline axioms of the paper (CLAR1 needs a LanguageTool server).
PAPER = ["COH1", "COH2", "COV1", "COV2", "COV3", "CONS1", "CONS2", "CONS3", "CORR1", "CLAR2"]
#: The axioms beyond the paper.
NEW = ["LEN1", "COH3", "COH4", "COV4", "COV5", "COV6", "COV7", "CORR2", "CORR3", "CORR4", "CORR5"]
#: The pool axioms: their values depend on the other responses to the query (see docs/pool.md).
POOL = ["POOL1", "POOL2", "POOL3", "POOL4"]
#: Axioms that read the retrieved context (no preference on the context-free nugget data).
CONTEXT = {"CONS1", "CONS2", "CORR2", "CORR3"}

#: Candidate models: feature sets and the inverse L2 strength C, declared before fitting, simplest
#: first. Each is cross-validated leave-one-topic-out. The choice among them is itself
#: cross-validated (nested): for each held-out topic, a candidate is chosen by its
#: leave-one-topic-out concordance on the *other* topics, fitted on those topics, and judges the
#: held-out one; that nested figure is the honest estimate of the whole procedure. The rule
#: (``RULES``; ``RULE_FOR`` says which each model uses): the simplest candidate whose concordance
#: lies within one binomial standard error of the best one's; for the run judge (nugget scores),
#: among those candidates the one whose runs' tau is highest (leave-one-topic-out on the same
#: topics). The shipped model is the candidate the same rule picks on all development topics,
#: fitted on all of them. The pool candidates came after 98 feature sets measured in scratch
#: experiments on these topics (48 single pool features, 50 fitted sets; see docs/pool.md).
CANDIDATES: dict[str, tuple[list[str], float]] = {
    "LEN1 alone": (["LEN1"], 1.0),
    "paper axioms": (PAPER, 1.0),
    "new axioms": (NEW, 1.0),
    "paper + new, C=0.1": (PAPER + NEW, 0.1),
    "paper + new, C=1": (PAPER + NEW, 1.0),
    "pool axioms": (POOL, 1.0),
    "new + POOL1": (NEW + ["POOL1"], 1.0),
    "new + pool axioms": (NEW + POOL, 1.0),
    "paper + new + pool axioms": (PAPER + NEW + POOL, 1.0),
}
#: Every candidate weighs each feature only in its axiom's direction (``follow_directions``): a
#: feature can only favour the response its axiom prefers, so every decision reads as the axioms'
#: intuitions. Leave-one-topic-out on the nugget preferences, this cost 0.003 always deciding and
#: gained 0.01 on the confident half (the new axioms; 5 of their 9 weights become 0).
FOLLOW_DIRECTIONS = True
#: The numbers of topics the runs' tau is projected to (``rag.evaluation.projected_run_correlation``).
PROJECTED_TOPICS = [10, 20, 30, 40, 50]
#: For CrowdRAG-25 also, and first in order (they fit no parameter on CrowdRAG-25, so under the
#: one-standard-error rule they count as the simplest): the shipped crowd model as it is (the
#: nugget model before the pool axioms), and the nugget model as this run fits it (fitted on the
#: 5,676 nugget preferences: out of domain, but on 34 times more pairs). The crowd model changes
#: only where the nested figure beats the shipped one's held-out concordance.
SHIPPED = "shipped crowd model (as it is)"
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


def choose_within_one_error_by_tau(scores: list[float], counts: list[int], taus: list[float]) -> int:
    """Among the candidates within one binomial standard error of the best concordance, the one whose
    runs' tau is highest (the first of equal ones): for a run judge, what ranks runs best among
    the candidates that judge pairs equally well."""
    best = int(np.nanargmax(scores))
    error = math.sqrt(scores[best] * (1.0 - scores[best]) / max(counts[best], 1))
    close = [index for index, score in enumerate(scores) if score >= scores[best] - error]
    return max(close, key=lambda index: (np.nan_to_num(taus[index], nan=-2.0), -index))


#: How to choose among candidates from their cross-validated concordances, decided pairs (and runs' taus).
RULES = {
    "one standard error": lambda scores, counts, taus: choose_within_one_error(scores, counts),
    "highest concordance": lambda scores, counts, taus: choose_best(scores, counts),
    "one standard error, then runs' tau": choose_within_one_error_by_tau,
}
#: The rule each shipped model is chosen by.
RULE_FOR = {"crowd": "one standard error", "nuggets": "one standard error, then runs' tau"}


class Candidate:
    """One candidate model: its features' differences over all judged pairs and its features' values
    per response (for the pointwise path), computed once."""

    def __init__(self, label: str, model: rag.PreferenceModel, judged: pd.DataFrame, *, fixed: bool = False):
        self.label, self.model, self.fixed = label, model, fixed
        table = rag.frames.ResponseTable.from_pairs(judged)
        self.differences = model.differences(table, every=not fixed)
        self.responses = table.responses[["qid", "docno"]].rename(columns={"docno": "run"})
        qids = self.responses["qid"].to_numpy()
        weights = model.coefficients or (1.0,) * len(model.axioms)
        values = np.column_stack([  # a fixed model computes its features of non-zero weight only
            transformed(axiom.cached_values(table), model.value_transform) if weight else np.zeros(len(table))
            for axiom, weight in zip(model.axioms, weights)
        ])
        self.values = imputed(values, qids)
        self.points = np.full(len(table), np.nan)  # the pointwise scores of the last predicted topics

    def predict(self, train: np.ndarray, test: np.ndarray, signs: np.ndarray, test_qids=()) -> np.ndarray:
        """Fit on the rows ``train`` (unless fixed) and return the probabilities of the rows ``test``;
        the responses of ``test_qids`` get their pointwise scores in ``points``."""
        if not self.fixed:
            fitted = train & (signs != 0)
            self.model.fit_differences(self.differences[fitted], signs[fitted], np.ones(int(fitted.sum())))
        responses = self.responses["qid"].isin(list(test_qids)).to_numpy()
        weights = np.asarray(self.model.coefficients) / np.asarray(self.model.scales)
        self.points[responses] = self.values[responses] @ weights
        return self.model.probabilities_of(self.differences[test])

    def leave_one_out(self, rows: np.ndarray, groups: np.ndarray, signs: np.ndarray) -> np.ndarray:
        """Leave-one-topic-out probabilities over the rows ``rows`` (NaN elsewhere)."""
        predicted = np.full(len(groups), np.nan)
        for group in pd.unique(groups[rows]):
            held_out = rows & (groups == group)
            predicted[held_out] = self.predict(rows & (groups != group), held_out, signs, [group])
        return predicted

    def pointwise_tau(self, scores: pd.DataFrame, topics, confidence: float | None = None) -> dict:
        """Kendall's tau between the runs' mean pointwise scores and mean nugget scores over ``topics``."""
        points = self.responses.assign(point=self.points)
        points = points[points["qid"].isin(list(topics))]
        nuggets = scores.rename(columns={"docno": "run"})
        return rag.evaluation.run_correlation(points, nuggets[nuggets["qid"].isin(list(topics))],
                                              score_first="point", score_second="score", confidence=confidence)


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


def project_tau(predicted: pd.DataFrame, scores: pd.DataFrame, rule: str) -> pd.DataFrame:
    """Print and return the runs' tau projected to more topics, with the projection's check on subsets."""
    wins = rag.evaluation.win_rates(predicted, "PreferenceModel")
    nuggets = scores.rename(columns={"docno": "run"})
    topics = sorted(wins["qid"].unique())
    projection = rag.evaluation.projected_run_correlation(wins, nuggets, score_first="win_rate", score_second="score",
                                               topics=[len(topics), *PROJECTED_TOPICS])
    print(f"  runs' tau projected to more topics like these (nested choice, {rule}; correlation of the runs' "
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


def pool_bias(responses: pd.DataFrame, pool: np.ndarray, judge: np.ndarray, label: str, scores: pd.DataFrame,
              words: pd.Series, shift: int = 10) -> None:
    """Print the runs the pool axioms alone rank at least ``shift`` places away from the nugget scores
    (leave-one-topic-out, pointwise), and where the chosen judge with non-pool features puts them."""
    nuggets = rag.evaluation.mean_run_scores(scores)[["run", "score", "rank"]].set_index("run")
    table = pd.DataFrame({"nugget score": nuggets["score"], "words": words.round(0).astype(int),
                          "by nuggets": nuggets["rank"]})
    for name, points in (("by pool axioms", pool), (f"by {label}", judge)):
        means = responses.assign(point=points).groupby("run")["point"].mean()
        table[name] = means.rank(ascending=False, method="min").astype(int)
    moved = table["by pool axioms"] - table["by nuggets"]
    corrected = table[f"by {label}"] - table["by nuggets"]
    print(f"\nThe known bias (leave-one-topic-out, pointwise): runs the pool axioms alone rank {shift} or more places "
          f"from the nugget scores, and where {label} ranks them (mean |shift| over all runs: pool axioms "
          f"{moved.abs().mean():.1f}, {label} {corrected.abs().mean():.1f} places):")
    print(table[moved.abs() >= shift].sort_values("by nuggets").round(3).to_string())


def report(kind: str, pairs: pd.DataFrame, truth: str, scores: pd.DataFrame | None,
           fixed: list[tuple[str, rag.PreferenceModel]] = (), encoder: str = "torch") -> rag.PreferenceModel:
    print(f"\n=== {kind}: {pairs['qid'].nunique()} topics, {len(pairs)} pairs, truth {truth} ===", flush=True)
    start = time.time()
    rule = RULE_FOR[kind]
    names = features_for(kind, PAPER + NEW + POOL)
    single = [rag.registry.AXIOMS[name]() for name in names]
    paper_vote = rag.MajorityVote(*features_for(kind, PAPER), name="MajorityVote(paper)")
    all_vote = rag.MajorityVote(*features_for(kind, PAPER + NEW), name="MajorityVote(paper+new)")
    judged = pairs
    for axiom in [*single, paper_vote, all_vote]:
        judged = axiom(judged)
    print(f"(axiom values and preferences in {time.time() - start:.0f} s)")
    table = rag.agreement(judged, truth=truth, axioms=[*names, paper_vote.name, all_vote.name])
    print("Single axioms and majority votes (no fitting; POOL1-POOL4 pool each topic's responses):")
    print(table.drop(columns=["truth"]).round(3).to_string(index=False))
    if scores is not None:
        nuggets = rag.evaluation.mean_run_scores(scores)
        for column in (paper_vote.name, all_vote.name, "LEN1", *POOL):
            wins = rag.evaluation.run_win_rates(judged, column)
            tau = rag.evaluation.run_correlation(wins, nuggets, score_first="win_rate", score_second="score")
            print(f"Kendall's tau, runs by {column} win rate vs mean nugget score: {tau['tau']:.3f}")

    judged = judged.reset_index(drop=True)
    signs = np.nan_to_num(np.sign(pd.to_numeric(judged[truth], errors="coerce").to_numpy(dtype=float)), nan=0.0)
    groups = judged["qid"].astype(str).to_numpy()
    topics = list(pd.unique(groups))
    everything = np.ones(len(judged), dtype=bool)
    # first: no parameter of these is fitted on these judgments, so they count as the simplest
    candidates = [Candidate(label, replaced(model), judged, fixed=True) for label, model in fixed]
    candidates += [
        Candidate(label, rag.PreferenceModel(axioms=features_for(kind, features), regularization=c,
                                             follow_directions=FOLLOW_DIRECTIONS, encoder=encoder), judged)
        for label, (features, c) in CANDIDATES.items()
    ]

    print("\nPreference models, leave-one-topic-out cross-validated (never training-set figures); "
          "kendall_tau_runs ranks runs by win rate (pairwise), kendall_tau_pointwise by mean score:")
    rows, loto, loto_points = [], {}, {}
    for candidate in candidates:
        loto[candidate.label] = candidate.leave_one_out(everything, groups, signs)
        loto_points[candidate.label] = candidate.points.copy()
        rows.append(figures(judged, loto[candidate.label], truth, candidate.label, len(candidate.model.axioms), scores))
        if scores is not None:
            rows[-1]["kendall_tau_pointwise"] = candidate.pointwise_tau(scores, topics)["tau"]
    print(pd.DataFrame(rows).round(3).to_string(index=False))

    print("\nNested: per held-out topic, the candidate chosen on the other topics, by each rule:")
    nested = {rule_name: np.full(len(judged), np.nan) for rule_name in RULES}
    nested_points = {rule_name: pd.Series(np.nan, index=candidates[0].responses.index) for rule_name in RULES}
    picks: dict[str, list[str]] = {rule_name: [] for rule_name in RULES}
    for group in topics:
        inner = groups != group
        held_in = [c.leave_one_out(inner, groups, signs)[inner] for c in candidates]  # once for all rules
        decided = [int(((signs[inner] != 0) & (p != 0.5)).sum()) for p in held_in]
        inner_concordances = [concordance(p, signs[inner]) for p in held_in]
        inner_topics = [topic for topic in topics if topic != group]
        taus = [c.pointwise_tau(scores, inner_topics)["tau"] if scores is not None else np.nan for c in candidates]
        for rule_name, choose in RULES.items():
            best = candidates[choose(inner_concordances, decided, taus)]
            nested[rule_name][~inner] = best.predict(inner, ~inner, signs, [group])
            held_out = best.responses["qid"] == group
            nested_points[rule_name][held_out] = best.points[held_out.to_numpy()]
            picks[rule_name].append(best.label)
    nested_rows, nested_figures = [], {}
    for rule_name in RULES:
        counts = pd.Series(picks[rule_name]).value_counts()
        print(f"  {rule_name}: chosen per topic: " + ", ".join(f"{label} ({n})" for label, n in counts.items()))
        nested_figures[rule_name] = figures(judged, nested[rule_name], truth, f"nested, {rule_name}", 0, scores)
        nested_figures[rule_name].pop("features")
        if scores is not None:
            points = candidates[0].responses.assign(point=nested_points[rule_name])
            tau = rag.evaluation.run_correlation(points, scores.rename(columns={"docno": "run"}), score_first="point",
                                                 score_second="score", confidence=0.95)
            nested_figures[rule_name].update(kendall_tau_pointwise=tau["tau"], kendall_tau_pointwise_low=tau["tau_low"],
                                             kendall_tau_pointwise_high=tau["tau_high"])
        nested_rows.append(nested_figures[rule_name])
    print(pd.DataFrame(nested_rows).round(3).to_string(index=False))
    projection = None
    if scores is not None:
        projection = project_tau(judged.assign(PreferenceModel=np.sign(nested[rule] - 0.5)), scores, rule)
    reliability = rag.evaluation.calibration(judged.assign(PreferenceModel_probability=nested[rule]), truth=truth)
    print(f"  calibration of the nested choice ({rule}): agreement with the truth by confidence")
    print(reliability.round(3).to_string(index=False))

    decided = [int(((signs != 0) & (loto[c.label] != 0.5)).sum()) for c in candidates]
    taus = [row.get("kendall_tau_pointwise", np.nan) for row in rows]
    best = candidates[RULES[rule]([row["concordance"] for row in rows], decided, taus)]
    best_row = next(row for row in rows if row["model"] == best.label)
    chosen = replaced(best.model)
    if not best.fixed:
        chosen.fit(judged, truth=truth)
    if scores is not None and "pool axioms" in loto_points:
        texts = rag.frames.ResponseTable.from_pairs(judged).responses
        words = texts["response"].str.split().str.len().groupby(texts["docno"]).mean()  # the runs' mean length
        pool_bias(candidates[0].responses, loto_points["pool axioms"], loto_points[best.label], best.label, scores,
                  words)
    print(f"\nChosen on all development topics ({rule}): {best.label}; weights fitted on all of them:")
    print(chosen.weights().round(3).to_string(index=False))
    chosen.cv = best_row  # type: ignore[attr-defined]
    chosen.nested = nested_figures[rule]  # type: ignore[attr-defined]
    chosen.calibration = reliability  # type: ignore[attr-defined]
    chosen.projection = projection  # type: ignore[attr-defined]
    chosen.rows = rows  # type: ignore[attr-defined]
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--no-write", action="store_true", help="report only; do not rewrite the shipped JSON")
    parser.add_argument("--kinds", default="crowd,nuggets", help="which models: crowd, nuggets (default both)")
    parser.add_argument("--encoder", choices=ENCODERS, default=None,
                        help="how the run judge (nuggets) computes its embedding features (default: as shipped)")
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
    judge_encoder = arguments.encoder or rag.PreferenceModel.default("nuggets").encoder
    for kind in sorted(kinds, key=["nuggets", "crowd"].index):  # the crowd candidates include the nugget model
        extra = {}
        if kind == "crowd":
            pairs, truth, scores, source = crowd_pairs(), "quality_overall", None, "CrowdRAG-25 dev, quality_overall"
            transfer = nugget_model if nugget_model is not None else rag.PreferenceModel.default("nuggets")
            fixed = [(SHIPPED, rag.PreferenceModel.default("crowd")), (TRANSFER, transfer)]
        else:
            (pairs, scores), truth, source, fixed = nugget_pairs(), "TREC_RAG_NUGGET", nugget_source, []
        model = report(kind, pairs, truth, scores, fixed, encoder="torch" if kind == "crowd" else judge_encoder)
        if kind == "nuggets":
            nugget_model = model
            pairwise, pointwise = model.nested["kendall_tau_runs"], model.nested["kendall_tau_pointwise"]
            extra["run_ranking"] = "pointwise" if pointwise >= pairwise else "pairwise"
            print(f"Runs ranked by the nested choice: pairwise (win rates) tau {pairwise:.3f}, pointwise (mean "
                  f"scores) tau {pointwise:.3f}: the {extra['run_ranking']} path ranks runs by default")
        if kind == "crowd":
            shipped = next(row["concordance"] for row in model.rows if row["model"] == SHIPPED)
            if model.cv["model"] == SHIPPED or model.nested["concordance"] <= shipped:
                print(f"The crowd model stays as shipped: the nested choice reaches {model.nested['concordance']:.3f}, "
                      f"the shipped model {shipped:.3f} held out as it stands")
                continue
        if model.cv["model"] == TRANSFER:
            source = f"{nugget_source}; chosen for CrowdRAG-25 dev, quality_overall, without fitting there"
        if not arguments.no_write:
            path = MODELS_DIR / DEFAULT_MODELS[kind]
            rounded = [{key: (round(value, 4) if isinstance(value, float) else value) for key, value in figures.items()}
                       for figures in (model.cv, model.nested)]
            if kind == "crowd":  # its reference weight is chosen on RAGChecker by benchmarks/ragchecker_agreement.py
                shipped = json.loads(path.read_text(encoding="utf-8"))
                model.reference_weight = float(shipped.get("reference_weight", 0.0))
                extra["reference_weight"] = shipped.get("metadata", {}).get("reference_weight", {})
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
                **extra,
            })
            print(f"wrote {path.relative_to(PROJECT_ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
