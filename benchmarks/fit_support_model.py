"""Fit the shipped support model and report its agreement by question folds and leave one source out.

Sources (``../shared/data`` or ``$RAG_AXIOMS_SHARED_DATA``):

- **RAGTruth QA train**: each claim of an answer (its atomic facts,
  :func:`~pyterrier_rag_axioms.grounding.claims.answer_claims`) against the answer's three
  passages; supported unless the claim's span overlaps a span the annotators marked.
- **TREC 2024 RAG** nugget assignments: each nugget (statement) against the answer (evidence);
  support 1, not support 0, partial support half of each.

The IDF table (``support-idf.json``) holds the document frequencies of the lemmas of the
development passages (RAGTruth's passages and CrowdRAG's retrieved passages), labels unread.
The logistic regression (standardised features, L2 penalty as scikit-learn's ``C=1``, each
coefficient bound to the sign of its feature's meaning) weighs both sources alike. Reported:

- per source, by question folds (5 folds grouped by question/topic; the model fitted on the
  other folds and the other source): AUC, accuracy and Cohen's kappa at the threshold fitted on
  the training pairs, beside word overlap (the share of the statement's content words found in
  the evidence) with its own fitted threshold;
- leave one source out: fitted on the other source only, tested on the held-out one;
- long statements: RAGTruth's answer sentences of more than 12 words (as long as a long nugget)
  against their passages, supported unless they overlap a marked span: the model fitted on TREC
  alone, at the threshold fitted on TREC, beside word overlap with its threshold fitted on TREC;
- the thresholds of a long nugget's assignment (``nugget_thresholds``): on TREC's three-way labels,
  the pair of probabilities with the highest three-way kappa;
- ``Faithfulness`` on RAGTruth answers by question folds: answer-level "has a hallucination" F1
  (the claim threshold fitted on the training folds), character-level span F1, and the share of
  (faithful, hallucinated) answer pairs to one question in which the faithful one scores higher
  (ties count half);
- the cost per pair.

Usage: ``.venv/bin/python benchmarks/fit_support_model.py [--no-write] [--features-cache PATH]``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import pickle
import time
from collections import Counter
from pathlib import Path

import numpy as np
from _setup import DEV_DATA, PROJECT_ROOT  # noqa: E402  (first: the checkout's package, offline models)
from rouge_score_rs import rouge_scorer  # noqa: E402
from scipy.optimize import minimize  # noqa: E402
from scipy.special import expit  # noqa: E402
from sklearn.metrics import cohen_kappa_score, roc_auc_score  # noqa: E402
from sklearn.model_selection import GroupKFold  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

from pyterrier_rag_axioms.axioms.consistency import UNCOVERED_WEIGHT  # noqa: E402
from pyterrier_rag_axioms.grounding.claims import answer_claims, without_source_references  # noqa: E402
from pyterrier_rag_axioms.grounding.faithfulness import uncovered_idf  # noqa: E402
from pyterrier_rag_axioms.nuggets.facts import atomic_facts_of  # noqa: E402
from pyterrier_rag_axioms.support.features import FEATURES  # noqa: E402
from pyterrier_rag_axioms.support.model import idf_weights, support_features  # noqa: E402
from pyterrier_rag_axioms.tools.lexical import content_words  # noqa: E402
from pyterrier_rag_axioms.tools.terms import term_extractor  # noqa: E402
from pyterrier_rag_axioms.tools.text import text_analyzer  # noqa: E402

VERSION = "support-3"
MODEL_DIR = PROJECT_ROOT / "pyterrier_rag_axioms" / "support"
RAGTRUTH = DEV_DATA / "ragtruth" / "qa_train.jsonl.gz"
TREC = DEV_DATA / "trec-rag-2024" / "nugget_assignment.dev.jsonl"
CROWDRAG = DEV_DATA / "crowdrag-25" / "responses.dev.jsonl.gz"
FOLDS = 5
#: The features the model reads: with the lengths and unweighted counts too, it fits TREC's
#: topics and RAGTruth apart and falls on the held-out source.
MODEL_FEATURES = (
    "idf_recall",
    "window_idf_recall",
    "window_pairs",
    "aligned_idf_recall",
    "numbers_missing",
    "entities_missing",
    "negation_mismatch",
)
#: The key of the answers' uncovered IDF mass among the answer-level baselines (not a baseline itself).
UNCOVERED = "uncovered"
TREC_LABELS = {"support": 1.0, "partial_support": 0.5, "not_support": 0.0}


def read_jsonl(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def idf_table(passages: list[str]) -> dict:
    """Document frequencies of the lemmas of ``passages`` (lemmas in at least two passages)."""
    extractor = term_extractor(text_analyzer())
    frequencies: Counter[str] = Counter()
    for profile in extractor.profiles(passages):
        frequencies.update(profile.vocabulary)
    return {
        "version": VERSION,
        "documents": len(passages),
        "df": {term: df for term, df in sorted(frequencies.items()) if df >= 2},
    }


def rouge_l_recall(statements: list[str], evidence: list[tuple[str, ...]]) -> np.ndarray:
    """ROUGE-L recall of each statement in its best evidence text: the share of the statement's words
    (Porter stems, as pyterrier-rag's ROUGE-L) that the longest common subsequence with one text holds."""
    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)
    return np.array([
        max((scorer.score(statement, text)["rougeL"].recall for text in texts), default=0.0)
        for statement, texts in zip(statements, evidence)
    ])


def overlap(statements: list[str], evidence: list[tuple[str, ...]]) -> np.ndarray:
    """Word overlap: the share of a statement's distinct content words found in its evidence."""
    shares = []
    for statement, passages in zip(statements, evidence):
        words = set(content_words(statement))
        found = set(content_words(" ".join(passages)))
        shares.append(len(words & found) / len(words) if words else 1.0)
    return np.array(shares)


def build_pairs(answers: list[dict], assignments: list[dict]) -> dict:
    """The labelled pairs of both sources, with their groups (question) and, for RAGTruth, answer and span."""
    claims = answer_claims([answer["response"] for answer in answers])
    statements, evidence, labels, weights, groups, sources, owners, spans = [], [], [], [], [], [], [], []
    for number, (answer, facts) in enumerate(zip(answers, claims)):
        marked = [(label["start"], label["end"]) for label in answer["labels"]]
        for fact in facts:
            statements.append(without_source_references(fact.text))
            evidence.append(tuple(answer["context"]))
            labels.append(float(not any(start < fact.end and fact.start < end for start, end in marked)))
            weights.append(1.0)
            groups.append("ragtruth:" + answer["source_id"])
            sources.append("ragtruth")
            owners.append(number)
            spans.append((fact.start, fact.end))
    for line in assignments:
        for nugget in line["nuggets"]:
            label = TREC_LABELS[nugget["assignment"]]
            for value, weight in ((1.0, label), (0.0, 1.0 - label)):
                if weight > 0:
                    statements.append(nugget["text"])
                    evidence.append((line["answer_text"],))
                    labels.append(value)
                    weights.append(weight)
                    groups.append("trec:" + line["qid"])
                    sources.append("trec")
                    owners.append(-1)
                    spans.append((-1, -1))
    return {
        "statements": statements,
        "evidence": evidence,
        "labels": np.array(labels),
        "weights": np.array(weights),
        "groups": np.array(groups),
        "sources": np.array(sources),
        "owners": np.array(owners),
        "spans": np.array(spans),
    }


#: The sign each coefficient may take: evidence found raises the probability of support, evidence
#: missing or contradicting lowers it (a coefficient that the data would give the other sign is 0).
SIGNS = {
    "idf_recall": 1,
    "window_idf_recall": 1,
    "window_pairs": 1,
    "aligned_idf_recall": 1,
    "numbers_missing": -1,
    "entities_missing": -1,
    "negation_mismatch": -1,
}


def fit(features: np.ndarray, labels: np.ndarray, weights: np.ndarray, sources: np.ndarray):
    """The scaler, coefficients and intercept of a logistic regression fitted on pairs, each source
    weighing alike: L2 penalty as scikit-learn's ``C=1``, each coefficient of its sign (:data:`SIGNS`)."""
    balanced = weights.copy()
    for source in np.unique(sources):
        mask = sources == source
        balanced[mask] *= len(sources) / (len(np.unique(sources)) * weights[mask].sum())
    scaler = StandardScaler().fit(features)
    scaled = np.column_stack([scaler.transform(features), np.ones(len(features))])

    def loss(parameters: np.ndarray) -> tuple[float, np.ndarray]:
        margins = scaled @ parameters
        probabilities = expit(margins)
        value = (
            np.sum(balanced * (np.logaddexp(0.0, margins) - labels * margins)) + 0.5 * parameters[:-1] @ parameters[:-1]
        )
        gradient = scaled.T @ (balanced * (probabilities - labels))
        gradient[:-1] += parameters[:-1]
        return value, gradient

    bounds = [(0.0, None) if SIGNS[name] > 0 else (None, 0.0) for name in MODEL_FEATURES] + [(None, None)]
    result = minimize(loss, np.zeros(scaled.shape[1]), jac=True, method="L-BFGS-B", bounds=bounds)
    return scaler, result.x[:-1], float(result.x[-1])


def predict(fitted, features: np.ndarray) -> np.ndarray:
    scaler, coefficients, intercept = fitted
    return expit(scaler.transform(features) @ coefficients + intercept)


def best_threshold(scores: np.ndarray, labels: np.ndarray) -> float:
    """The threshold on ``scores`` (>= is supported) with the highest kappa on binary ``labels``."""
    candidates = np.unique(np.quantile(scores, np.linspace(0.02, 0.98, 49)))
    kappas = [cohen_kappa_score(labels, scores >= threshold) for threshold in candidates]
    return float(candidates[int(np.argmax(kappas))])


def binary(pairs: dict, mask: np.ndarray) -> np.ndarray:
    """The pairs of ``mask`` with a definite label (TREC's partial support left out)."""
    return mask & (pairs["weights"] == 1.0)


def agreement(scores: np.ndarray, labels: np.ndarray, threshold: float) -> dict:
    decided = scores >= threshold
    return {
        "auc": roc_auc_score(labels, scores),
        "accuracy": float(np.mean(decided == labels.astype(bool))),
        "kappa": cohen_kappa_score(labels, decided),
    }


def cross_validated(
    pairs: dict, features: np.ndarray, baselines: dict[str, np.ndarray]
) -> tuple[np.ndarray, list[str]]:
    """Question-fold probabilities of every pair, and the report lines (per source and leave one source
    out), each beside the ``baselines`` (a score per pair, higher is supported; each its own threshold)."""
    lines = []
    labels, weights, sources, groups = pairs["labels"], pairs["weights"], pairs["sources"], pairs["groups"]
    probabilities = np.full(len(labels), np.nan)
    for source in ("ragtruth", "trec"):
        mask = sources == source
        indices = np.flatnonzero(mask)
        scores = np.zeros(len(labels))
        thresholds = {name: np.zeros(len(labels)) for name in ("model", *baselines)}
        for train, test in GroupKFold(n_splits=FOLDS).split(indices, groups=groups[indices]):
            training = np.concatenate([indices[train], np.flatnonzero(~mask)])
            fitted = fit(features[training], labels[training], weights[training], sources[training])
            scores[indices[test]] = predict(fitted, features[indices[test]])
            own = binary(pairs, np.isin(np.arange(len(labels)), indices[train]))
            thresholds["model"][indices[test]] = best_threshold(predict(fitted, features[own]), labels[own])
            for name, baseline in baselines.items():
                thresholds[name][indices[test]] = best_threshold(baseline[own], labels[own])
        probabilities[mask] = scores[mask]
        kept = binary(pairs, mask)
        shown = []
        for name, values in {"model": scores, **baselines}.items():
            figures = agreement(values[kept] - thresholds[name][kept] + 0.5, labels[kept], 0.5)
            figures["auc"] = roc_auc_score(labels[kept], values[kept])
            shown.append(f"{name} {_shown(figures)}")
        lines.append(f"{source} question folds ({kept.sum()} pairs): " + " | ".join(shown))
    for held in ("ragtruth", "trec"):
        test, train = sources == held, sources != held
        fitted = fit(features[train], labels[train], weights[train], sources[train])
        own = binary(pairs, train)
        kept = binary(pairs, test)
        threshold = best_threshold(predict(fitted, features[own]), labels[own])
        shown = [f"model {_shown(agreement(predict(fitted, features[kept]), labels[kept], threshold))}"]
        for name, baseline in baselines.items():
            figures = agreement(baseline[kept], labels[kept], best_threshold(baseline[own], labels[own]))
            shown.append(f"{name} {_shown(figures)}")
        lines.append(f"leave out {held} ({kept.sum()} pairs): " + " | ".join(shown))
    return probabilities, lines


def _shown(figures: dict) -> str:
    return ", ".join(f"{name} {value:.3f}" for name, value in figures.items())


def answer_figures(
    answers: list[dict], pairs: dict, probabilities: np.ndarray, missing: np.ndarray, crude: dict[str, np.ndarray]
) -> list[str]:
    """Faithfulness on RAGTruth's answers by question folds: answer F1, span F1, pairwise preference
    (``missing``: each pair's IDF mass of statement terms the evidence lacks; ``crude``: answer-level baselines)."""
    rt = pairs["sources"] == "ragtruth"
    owners, spans = pairs["owners"][rt], pairs["spans"][rt]
    claim_p, claim_missing = probabilities[rt], missing[rt]
    count = len(answers)
    truth = np.array([bool(answer["labels"]) for answer in answers])
    questions = np.array([answer["source_id"] for answer in answers])
    candidates = np.round(np.arange(0.05, 0.96, 0.01), 2)

    def flagged(threshold: float) -> np.ndarray:
        result = np.zeros(count, dtype=bool)
        np.logical_or.at(result, owners, claim_p < threshold)
        return result

    def f1(predicted: np.ndarray, actual: np.ndarray) -> float:
        tp = np.sum(predicted & actual)
        return 2 * tp / (predicted.sum() + actual.sum()) if predicted.sum() + actual.sum() else 0.0

    flags = {threshold: flagged(threshold) for threshold in candidates}
    predicted = np.zeros(count, dtype=bool)
    chosen = []
    for train, test in GroupKFold(n_splits=FOLDS).split(np.arange(count), groups=questions):
        best = max(candidates, key=lambda threshold: (f1(flags[threshold][train], truth[train]), -threshold))
        chosen.append(best)
        predicted[test] = flags[best][test]
    final = max(candidates, key=lambda threshold: (f1(flags[threshold], truth), -threshold))
    # span level: characters of the unsupported claims against the marked characters
    tp = fp = fn = 0
    for number, answer in enumerate(answers):
        fold_threshold = final
        marked = np.zeros(len(answer["response"]) + 1, dtype=bool)
        for label in answer["labels"]:
            marked[label["start"] : label["end"]] = True
        found = np.zeros_like(marked)
        if predicted[number]:
            for (start, end), p in zip(spans[owners == number], claim_p[owners == number]):
                if p < fold_threshold:
                    found[start:end] = True
        tp += np.sum(found & marked)
        fp += np.sum(found & ~marked)
        fn += np.sum(~found & marked)
    span_f1 = 2 * tp / (2 * tp + fp + fn)
    # answer scores for pairwise preference (higher is more faithful)
    share, mean, expected, mass = np.ones(count), np.ones(count), np.zeros(count), np.zeros(count)
    for number in range(count):
        p = claim_p[owners == number]
        if len(p):
            share[number] = np.mean(p >= final)
            mean[number] = np.mean(p)
            expected[number] = np.sum(1 - p)
            mass[number] = np.sum((1 - p) * claim_missing[owners == number])
    scores = {
        "faithfulness (share of supported claims)": share,
        "mean claim probability": mean,
        "expected unsupported claims (fewer wins)": -expected,
        "expected unsupported IDF mass of the claims (less wins)": -mass,
        "CONS4 (less wins)": -(mass + UNCOVERED_WEIGHT * crude[UNCOVERED]),
        **{name: score for name, score in crude.items() if name != UNCOVERED},
    }
    lines = [
        f"answers {count}, with a hallucination {truth.sum()}; claim thresholds by fold {chosen}, all {final}",
        f"answer-level F1 (question folds) {f1(predicted, truth):.3f}; "
        f"all flagged F1 {f1(np.ones(count, bool), truth):.3f}",
        f"span-level character F1 {span_f1:.3f}",
    ]
    pairs_of = [
        (a, b)
        for question in np.unique(questions)
        for a in np.flatnonzero((questions == question) & ~truth)
        for b in np.flatnonzero((questions == question) & truth)
    ]
    for name, score in scores.items():
        wins = [1.0 if score[a] > score[b] else 0.5 if score[a] == score[b] else 0.0 for a, b in pairs_of]
        decided = np.mean([score[a] != score[b] for a, b in pairs_of])
        lines.append(f"pairwise ({len(pairs_of)} pairs) {name}: {np.mean(wins):.3f} (decides {decided:.0%})")
    return lines, final


def answer_baselines(answers: list[dict], table: dict) -> dict[str, np.ndarray]:
    """Crude answer-level scores (higher: more faithful): the share of the answer's content words found
    in its passages, and minus the IDF mass of its distinct lemmas that no passage holds."""
    extractor = term_extractor(text_analyzer())
    idf, default_idf = idf_weights(table["df"], table["documents"])
    passages = list(dict.fromkeys(passage for answer in answers for passage in answer["context"]))
    vocabulary = {passage: profile.vocabulary for passage, profile in zip(passages, extractor.profiles(passages))}
    masses = []
    for answer, profile in zip(answers, extractor.profiles([answer["response"] for answer in answers])):
        found = frozenset().union(*(vocabulary[passage] for passage in answer["context"]))
        masses.append(-sum(idf.get(term, default_idf) for term in profile.vocabulary - found))
    shares = overlap([answer["response"] for answer in answers], [tuple(answer["context"]) for answer in answers])
    responses = [answer["response"] for answer in answers]
    contexts = [tuple(answer["context"]) for answer in answers]
    # CONS4's second part: lemmas outside all facts that no passage holds
    uncovered = uncovered_idf(responses, contexts, atomic_facts_of(responses), (idf, default_idf), text_analyzer())
    return {
        "word overlap of the answer": shares,
        "IDF mass of the answer's lemmas in no passage (less wins)": np.array(masses),
        UNCOVERED: np.array(uncovered),
    }


def trec_three_way(pairs: dict) -> tuple[np.ndarray, np.ndarray]:
    """One row per TREC (nugget, answer) (its first pair) and its label: 1 support, 0.5 partial, 0 not."""
    rows, labels = [], []
    position = 0
    trec = np.flatnonzero(pairs["sources"] == "trec")
    while position < len(trec):
        row = trec[position]
        weight, label = pairs["weights"][row], pairs["labels"][row]
        rows.append(row)
        labels.append(label * weight if weight < 1 else label)
        position += 2 if weight < 1 else 1  # a partial support is two half-weighted pairs
    return np.array(rows), np.array(labels)


def nugget_thresholds(probabilities: np.ndarray, labels: np.ndarray) -> dict[str, float]:
    """The probabilities from which a long nugget is ``partial_support`` and ``support``: the pair with
    the highest three-way kappa on TREC's labels (the lowest such pair)."""
    grid = np.round(np.arange(0.05, 0.96, 0.01), 2)
    truth = np.round(2 * labels).astype(int)
    best, chosen = -np.inf, (0.5, 0.5)
    for partial in grid:
        for support in grid[grid >= partial]:
            found = np.where(probabilities >= support, 2, np.where(probabilities >= partial, 1, 0))
            kappa = cohen_kappa_score(truth, found)
            if kappa > best + 1e-12:
                best, chosen = kappa, (float(partial), float(support))
    return {"partial_support": chosen[0], "support": chosen[1]}


def long_statements(answers: list[dict]) -> dict:
    """RAGTruth's answer sentences of more than 12 words against their passages: supported unless
    the sentence overlaps a marked span."""
    statements, evidence, labels = [], [], []
    for answer, analysis in zip(answers, text_analyzer().analyse([answer["response"] for answer in answers])):
        for sentence in analysis.doc.sents:
            if len(sentence.text.split()) <= 12:
                continue
            start, end = sentence.start_char, sentence.end_char
            statements.append(sentence.text.strip())
            evidence.append(tuple(answer["context"]))
            labels.append(float(not any(label["start"] < end and start < label["end"] for label in answer["labels"])))
    return {"statements": statements, "evidence": evidence, "labels": np.array(labels)}


def long_statement_lines(pairs: dict, features: np.ndarray, long: dict, long_features: np.ndarray) -> list[str]:
    """Leave RAGTruth out: the model and word overlap fitted on TREC (threshold included), tested on the
    long statements."""
    train = pairs["sources"] == "trec"
    fitted = fit(features[train], pairs["labels"][train], pairs["weights"][train], pairs["sources"][train])
    own = binary(pairs, train)
    threshold = best_threshold(predict(fitted, features[own]), pairs["labels"][own])
    model = agreement(predict(fitted, long_features), long["labels"], threshold)
    trec_overlap = overlap([pairs["statements"][i] for i in np.flatnonzero(own)],
                           [pairs["evidence"][i] for i in np.flatnonzero(own)])
    base = agreement(overlap(long["statements"], long["evidence"]), long["labels"],
                     best_threshold(trec_overlap, pairs["labels"][own]))
    share = long["labels"].mean()
    return [f"long statements, leave out ragtruth ({len(long['labels'])} sentences, {share:.0%} supported): "
            f"model {_shown(model)} | word overlap {_shown(base)}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="report only; leave the shipped files")
    parser.add_argument("--features-cache", type=Path, help="keep the pairs' features in this file between runs")
    arguments = parser.parse_args()
    answers = read_jsonl(RAGTRUTH)
    assignments = read_jsonl(TREC)
    passages = list(
        dict.fromkeys(
            [passage for answer in answers for passage in answer["context"]]
            + [passage for line in read_jsonl(CROWDRAG) for passage in line["references_texts"]]
        )
    )
    analyzer = text_analyzer()
    if arguments.features_cache and arguments.features_cache.exists():
        table, pairs, features, seconds, crude = pickle.loads(arguments.features_cache.read_bytes())
    else:
        table = idf_table(passages)
        pairs = build_pairs(answers, assignments)
        idf, default_idf = idf_weights(table["df"], table["documents"])
        start = time.perf_counter()
        features = support_features(
            pairs["statements"], pairs["evidence"], idf=idf, default_idf=default_idf, text_analyzer=analyzer
        )
        seconds = time.perf_counter() - start
        crude = answer_baselines(answers, table)
        if arguments.features_cache:
            arguments.features_cache.write_bytes(pickle.dumps((table, pairs, features, seconds, crude)))
    print(
        f"{len(pairs['labels'])} pairs; features of all pairs {seconds:.1f} s "
        f"({1000 * seconds / len(pairs['labels']):.2f} ms a pair, parses included)"
    )
    all_features, features = features, features[:, [FEATURES.index(name) for name in MODEL_FEATURES]]
    start = time.perf_counter()
    baselines = {"word overlap": overlap(pairs["statements"], pairs["evidence"])}
    overlap_seconds = time.perf_counter() - start
    baselines["ROUGE-L recall"] = rouge_l_recall(pairs["statements"], pairs["evidence"])
    rouge_seconds = time.perf_counter() - start - overlap_seconds
    print(f"baselines: word overlap {1000 * overlap_seconds / len(pairs['labels']):.2f} ms a pair, "
          f"ROUGE-L {1000 * rouge_seconds / len(pairs['labels']):.2f} ms a pair")
    probabilities, lines = cross_validated(pairs, features, baselines)
    print("\n".join(lines))
    missing = np.expm1(all_features[:, FEATURES.index("missing_idf")])
    answer_lines, claim_threshold = answer_figures(answers, pairs, probabilities, missing, crude)
    print("\n".join(answer_lines))
    long = long_statements(answers)
    idf, default_idf = idf_weights(table["df"], table["documents"])
    long_features = support_features(
        long["statements"], long["evidence"], idf=idf, default_idf=default_idf, text_analyzer=analyzer
    )[:, [FEATURES.index(name) for name in MODEL_FEATURES]]
    print("\n".join(long_statement_lines(pairs, features, long, long_features)))
    scaler, coefficients, intercept = fit(features, pairs["labels"], pairs["weights"], pairs["sources"])
    rows, three_way = trec_three_way(pairs)
    thresholds = nugget_thresholds(predict((scaler, coefficients, intercept), features[rows]), three_way)
    print(f"long nuggets' thresholds (TREC, three-way): {thresholds}")
    fitted = {
        "version": VERSION,
        "features": list(MODEL_FEATURES),
        "mean": np.round(scaler.mean_, 6).tolist(),
        "scale": np.round(scaler.scale_, 6).tolist(),
        "coefficients": np.round(coefficients, 6).tolist(),
        "intercept": round(intercept, 6),
        "claim_threshold": float(claim_threshold),
        "nugget_thresholds": thresholds,
        "idf_file": "support-idf.json",
    }
    print("coefficients:", dict(zip(MODEL_FEATURES, fitted["coefficients"])))
    if not arguments.no_write:
        table["version"] = VERSION  # the table's terms are read from the passages alone; its version is the model's
        (MODEL_DIR / "support-idf.json").write_text(json.dumps(table, sort_keys=True) + "\n", encoding="utf-8")
        (MODEL_DIR / "support-model.json").write_text(json.dumps(fitted, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {MODEL_DIR / 'support-model.json'} and support-idf.json")


if __name__ == "__main__":
    main()
