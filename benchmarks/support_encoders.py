"""What a transformer adds to the support model, on this machine: BERTScore recall and a cross-encoder.

Reads the pairs and features that ``fit_support_model.py --features-cache PATH`` keeps (RAGTruth's
claims against their passages, TREC's nuggets against their answers) and tries, with the package's
all-MiniLM-L6-v2 weights (float32, on the CPU):

- ``bertscore``: the IDF-weighted recall of each statement's contextual token vectors in its evidence
  (each token's best cosine to an evidence token; word-piece IDF over the evidence texts), with its
  mean, minimum and mean of the three lowest, added to the support model's features; a logistic
  regression (scikit-learn, standardised) by question folds and leave one source out, with and
  without them;
- ``cross-encoder``: the encoder fine-tuned as a cross-encoder (statement, the passage that shares
  most words with it; the first token's vector and a linear layer) on 9,000 RAGTruth claims of four
  fifths of the questions, for at most ``--minutes`` of wall clock, and its AUC on 3,000 claims of
  the other fifth beside the shipped feature ``aligned_idf_recall`` on the same claims.

Usage: ``nice -n 10 .venv/bin/python benchmarks/support_encoders.py bertscore|cross-encoder
--features-cache PATH`` (BERTScore about four minutes on two cores; the cross-encoder its budget).
"""

from __future__ import annotations

import argparse
import pickle
import re
import time
from collections import Counter
from pathlib import Path

import _setup  # noqa: F401  (first: the checkout's package, offline models)
import numpy as np
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.metrics import roc_auc_score  # noqa: E402
from sklearn.model_selection import GroupKFold  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

from pyterrier_rag_axioms.support.features import FEATURES  # noqa: E402
from pyterrier_rag_axioms.tools.embeddings.similarity import shipped_model_path  # noqa: E402

MODEL_FEATURES = ("idf_recall", "window_idf_recall", "window_pairs", "aligned_idf_recall", "numbers_missing",
                  "entities_missing", "negation_mismatch")
_WORD = re.compile(r"\w+")


def encoder():
    import torch
    from transformers import AutoModel, AutoTokenizer

    torch.manual_seed(0)
    path = shipped_model_path()
    return AutoTokenizer.from_pretrained(path), AutoModel.from_pretrained(path)


def token_vectors(texts: list[str], tokenizer, model) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each text's unit-length contextual token vectors and word-piece ids (special tokens left out)."""
    import torch

    result: list = [None] * len(texts)
    order = np.argsort([len(text) for text in texts], kind="stable")
    model.eval()
    for start in range(0, len(texts), 64):
        batch = order[start : start + 64]
        encoded = tokenizer([texts[i] for i in batch], padding=True, truncation=True, max_length=256,
                            return_tensors="pt")
        with torch.no_grad():
            hidden = torch.nn.functional.normalize(model(**encoded).last_hidden_state, dim=-1)
        for row, i in enumerate(batch):
            mask = encoded["attention_mask"][row].bool()
            result[i] = (hidden[row][mask][1:-1].numpy(), encoded["input_ids"][row][mask][1:-1].numpy())
    return result


def bertscore_features(pairs: dict) -> np.ndarray:
    """IDF-weighted recall, mean, minimum and mean of the three lowest best cosines of each statement."""
    tokenizer, model = encoder()
    texts = sorted({text for evidence in pairs["evidence"] for text in evidence})
    position = {text: i for i, text in enumerate(texts)}
    evidence_vectors = token_vectors(texts, tokenizer, model)
    statement_vectors = token_vectors(pairs["statements"], tokenizer, model)
    frequencies = Counter(token for _, ids in evidence_vectors for token in set(ids.tolist()))
    stop = set(tokenizer.convert_tokens_to_ids(["the", "a", "an", "of", "to", "and", "in", "is", "are", "was", "for",
                                                "on", "that", "with", "as", "by", "it", "this", "be", "or", ".", ","]))
    rows = np.zeros((len(statement_vectors), 4))
    for number, ((vectors, ids), evidence) in enumerate(zip(statement_vectors, pairs["evidence"], strict=True)):
        keep = np.array([token not in stop for token in ids.tolist()], dtype=bool)
        if not len(ids):
            continue
        keep = keep if keep.any() else np.ones(len(ids), dtype=bool)
        weights = np.log((len(texts) + 1) / (np.array([frequencies.get(t, 0) for t in ids.tolist()]) + 1)) * keep
        best = (vectors @ np.concatenate([evidence_vectors[position[text]][0] for text in evidence]).T).max(axis=1)
        rows[number] = [(best * weights).sum() / weights.sum(), best[keep].mean(), best[keep].min(),
                        np.sort(best[keep])[:3].mean()]
    return rows


def compare(pairs: dict, features: np.ndarray, extra: np.ndarray) -> None:
    labels, sources, groups, weights = pairs["labels"] > 0.5, pairs["sources"], pairs["groups"], pairs["weights"]
    columns = [FEATURES.index(name) for name in MODEL_FEATURES]
    base = np.nan_to_num(np.asarray(features, dtype=float)[:, columns])
    for name, matrix in (("features", base), ("features + BERTScore", np.hstack([base, extra])),
                         ("BERTScore alone", extra)):
        for source in ("ragtruth", "trec"):
            mask = sources == source
            scores = np.zeros(len(labels))
            inside = np.flatnonzero(mask)
            for train, test in GroupKFold(n_splits=5).split(inside, groups=groups[inside]):
                training = np.concatenate([inside[train], np.flatnonzero(~mask)])
                model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)).fit(
                    matrix[training], labels[training], logisticregression__sample_weight=weights[training])
                scores[inside[test]] = model.decision_function(matrix[inside[test]])
            held = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)).fit(
                matrix[~mask], labels[~mask], logisticregression__sample_weight=weights[~mask])
            folds = roc_auc_score(labels[mask], scores[mask], sample_weight=weights[mask])
            out = roc_auc_score(labels[mask], held.decision_function(matrix[mask]), sample_weight=weights[mask])
            print(f"{name}, {source}: AUC question folds {folds:.3f}, held-out source {out:.3f}")


def cross_encoder(pairs: dict, features: np.ndarray, minutes: float) -> None:
    import torch

    torch.set_num_threads(2)
    tokenizer, model = encoder()
    head = torch.nn.Linear(model.config.hidden_size, 1)
    labels = (pairs["labels"] > 0.5).astype(np.float32)
    groups = pairs["groups"]
    claims = np.flatnonzero(pairs["sources"] == "ragtruth")
    questions = np.array(sorted(set(groups[claims])))
    rng = np.random.default_rng(0)
    rng.shuffle(questions)
    held = set(questions[: len(questions) // 5])
    test = np.array([i for i in claims if groups[i] in held])[:3000]
    train = np.array([i for i in claims if groups[i] not in held])
    rng.shuffle(train)
    train = train[:9000]

    def best_passage(i: int) -> str:
        words = set(_WORD.findall(pairs["statements"][i].lower()))
        return max(pairs["evidence"][i], key=lambda text: len(words & set(_WORD.findall(text.lower()))))

    def logits(rows: np.ndarray):
        encoded = tokenizer([pairs["statements"][i] for i in rows], [best_passage(i) for i in rows], padding=True,
                            truncation="only_second", max_length=192, return_tensors="pt")
        return head(model(**encoded).last_hidden_state[:, 0]).squeeze(-1)

    optimiser = torch.optim.AdamW([*model.parameters(), *head.parameters()], lr=3e-5)
    loss = torch.nn.BCEWithLogitsLoss()
    started, seen = time.perf_counter(), 0
    model.train()
    for start in range(0, len(train), 16):
        rows = train[start : start + 16]
        value = loss(logits(rows), torch.tensor(labels[rows]))
        optimiser.zero_grad()
        value.backward()
        optimiser.step()
        seen += len(rows)
        if time.perf_counter() - started > 60 * minutes:
            break
    trained = time.perf_counter() - started
    model.eval()
    with torch.no_grad():
        scores = np.concatenate([logits(test[start : start + 64]).numpy() for start in range(0, len(test), 64)])
    aligned = np.nan_to_num(np.asarray(features, dtype=float)[test, FEATURES.index("aligned_idf_recall")])
    print(f"cross-encoder: {seen} claims in {trained / 60:.1f} min; AUC on {len(test)} held-out claims "
          f"{roc_auc_score(labels[test], scores):.3f}; aligned_idf_recall {roc_auc_score(labels[test], aligned):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("bertscore", "cross-encoder"))
    parser.add_argument("--features-cache", type=Path, required=True, help="fit_support_model.py's features cache")
    parser.add_argument("--minutes", type=float, default=25.0, help="the cross-encoder's training budget")
    arguments = parser.parse_args()
    _, pairs, features, _, _ = pickle.loads(arguments.features_cache.read_bytes())
    if arguments.what == "bertscore":
        compare(pairs, features, bertscore_features(pairs))
    else:
        cross_encoder(pairs, features, arguments.minutes)


if __name__ == "__main__":
    main()
