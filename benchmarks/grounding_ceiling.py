"""How far word-level evidence goes on RAGTruth: a fitted model of which answer words are unsupported.

RAGTruth's annotators mark the few words of an answer that its passages do not support. This script
fits a model of exactly that, word by word, to see how far the evidence that the package can compute
without an entailment model goes beyond CONS4:

- each content lemma of each RAGTruth QA train answer (the term extractor's, as CONS4 reads them) is
  a row; it is positive where it lies in a marked span;
- its features: whether any passage holds it, one minus its best static-vector cosine to a passage
  lemma, its IDF (the support model's table), the IDF mass missing from it, the same shares over its
  sentence (missing share, missing IDF share, soft share, length), its neighbours' missing shares,
  whether its sentence declines to answer, its position in the answer and the answer's missing share;
- a gradient-boosted classifier (scikit-learn, fixed seed) by question folds (5) gives each word a
  probability of being unsupported, and each answer the sum of its words' probabilities.

Printed: the words' AUC (the lemma missing from every passage alone, and the model), and on the
pairs of a faithful and a hallucinated answer to one question the share where the faithful one has
the lower sum (ties count half), beside CONS4 (``grounding_features.py``'s table, where given).

Usage: ``nice -n 10 .venv/bin/python benchmarks/grounding_ceiling.py [--table PATH]`` (about four
minutes on two cores).
"""

from __future__ import annotations

import argparse
import bisect
import pickle
from pathlib import Path

import _setup  # noqa: F401  (first: the checkout's package, offline models)
import numpy as np
import pandas as pd
from grounding_features import ragtruth_responses  # noqa: E402
from sklearn.ensemble import HistGradientBoostingClassifier  # noqa: E402
from sklearn.metrics import roc_auc_score  # noqa: E402
from sklearn.model_selection import GroupKFold  # noqa: E402

from pyterrier_rag_axioms.grounding.claims import declines  # noqa: E402
from pyterrier_rag_axioms.support import SupportModel  # noqa: E402
from pyterrier_rag_axioms.support.model import term_vectors  # noqa: E402
from pyterrier_rag_axioms.tools.terms import term_extractor  # noqa: E402
from pyterrier_rag_axioms.tools.text import text_analyzer  # noqa: E402

FOLDS = 5
WORD_FEATURES = ("missing", "soft_missing", "idf", "missing_idf", "sentence_missing", "sentence_missing_idf",
                 "sentence_terms", "sentence_soft_missing", "neighbours_1", "neighbours_2", "declines",
                 "position", "answer_missing")


def word_table(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per content lemma of each answer, with its label and its raw evidence."""
    analyzer = text_analyzer()
    extractor = term_extractor(analyzer)
    idf, default_idf = SupportModel.default().idf_table
    passages = list(dict.fromkeys(passage for context in frame["context"] for passage in context))
    vocabulary = {passage: frozenset(profile.terms) for passage, profile in zip(passages, extractor.profiles(passages))}
    rows = []
    for number, (analysis, context, marks) in enumerate(
        zip(analyzer.analyse(frame["response"].tolist()), frame["context"], frame["marked_spans"], strict=True)
    ):
        held = frozenset().union(*(vocabulary[passage] for passage in context))
        starts = [sentence.start_char for sentence in analysis.sentences]
        declining = [declines(sentence.text) for sentence in analysis.sentences]
        profile = extractor.profile_of(analysis)
        for term, offset in zip(profile.terms, profile.offsets):
            sentence = max(bisect.bisect_right(starts, offset) - 1, 0)
            rows.append((number, term, offset, sentence, term not in held, idf.get(term, default_idf),
                         declining[sentence] if declining else False, any(s <= offset < e for s, e in marks),
                         tuple(sorted(held))))
    words = pd.DataFrame(rows, columns=["answer", "term", "offset", "sentence", "missing", "idf", "declines",
                                        "marked", "held"])
    terms = sorted(set(words["term"]) | {term for held in words["held"] for term in held})
    vectors = dict(zip(terms, term_vectors().embed(terms)))
    held_vectors = {held: np.stack([vectors[term] for term in held]) for held in set(words["held"]) if held}
    words["soft_missing"] = [
        0.0 if not missing else 1.0 - float((held_vectors[held] @ vectors[term]).max()) if held else 1.0
        for term, missing, held in zip(words["term"], words["missing"], words["held"])
    ]
    return words.drop(columns="held")


def with_features(words: pd.DataFrame) -> pd.DataFrame:
    """The word features of :data:`WORD_FEATURES`, read from each word's sentence, neighbours and answer."""
    words = words.sort_values(["answer", "offset"]).reset_index(drop=True)
    words["missing"] = words["missing"].astype(float)
    words["declines"] = words["declines"].astype(float)
    words["missing_idf"] = words["missing"] * words["idf"]
    sentences = words.groupby(["answer", "sentence"])
    words["sentence_missing"] = sentences["missing"].transform("mean")
    words["sentence_missing_idf"] = sentences["missing_idf"].transform("sum") / sentences["idf"].transform("sum")
    words["sentence_terms"] = sentences["missing"].transform("size")
    words["sentence_soft_missing"] = sentences["soft_missing"].transform("mean")
    answers = words.groupby("answer")
    for distance in (1, 2):
        before = answers["missing"].shift(distance).fillna(0.0)
        after = answers["missing"].shift(-distance).fillna(0.0)
        words[f"neighbours_{distance}"] = (before + after) / 2
    words["position"] = answers.cumcount() / answers["missing"].transform("size")
    words["answer_missing"] = answers["missing"].transform("mean")
    return words


def preferred(score: np.ndarray, frame: pd.DataFrame) -> float:
    """On the (faithful, hallucinated) pairs of one question: the share where the faithful answer has
    the lower ``score`` (ties half)."""
    answers = frame.assign(score=score)
    pairs = answers[~answers["hallucinated"]].merge(answers[answers["hallucinated"]], on="qid", suffixes=("_a", "_b"))
    return float(np.mean(np.where(pairs["score_a"] == pairs["score_b"], 0.5, pairs["score_a"] < pairs["score_b"])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", type=Path, default=Path("/tmp/grounding-features.pkl"),
                        help="grounding_features.py's table, for CONS4 beside the model (optional)")
    arguments = parser.parse_args()
    frame = ragtruth_responses()
    words = with_features(word_table(frame))
    features, labels = words[list(WORD_FEATURES)].to_numpy(), words["marked"].to_numpy()
    questions = frame["qid"].to_numpy()[words["answer"].to_numpy()]
    probabilities = np.zeros(len(words))
    for train, test in GroupKFold(n_splits=FOLDS).split(features, labels, questions):
        model = HistGradientBoostingClassifier(max_iter=200, random_state=0).fit(features[train], labels[train])
        probabilities[test] = model.predict_proba(features[test])[:, 1]
    print(f"{len(words)} words of {len(frame)} answers, {labels.mean():.1%} marked")
    print(f"word AUC: missing from every passage {roc_auc_score(labels, words['missing']):.3f}, "
          f"model (question folds) {roc_auc_score(labels, probabilities):.3f}")
    expected = np.bincount(words["answer"], weights=probabilities, minlength=len(frame))
    missing_idf = np.bincount(words["answer"], weights=words["missing_idf"], minlength=len(frame))
    print(f"prefers the faithful answer: expected unsupported words {preferred(expected, frame):.3f}, "
          f"IDF mass of missing words {preferred(missing_idf, frame):.3f}")
    if arguments.table.exists():
        table = pickle.loads(arguments.table.read_bytes())["ragtruth"].set_index("docno")
        cons4 = table.loc[frame["docno"], "cons4"].to_numpy()
        both = np.log1p(cons4) + np.log1p(expected)
        print(f"  CONS4 {preferred(cons4, frame):.3f}; "
              f"log(1 + CONS4) + log(1 + expected words) {preferred(both, frame):.3f}")


if __name__ == "__main__":
    main()
