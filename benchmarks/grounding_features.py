"""One table of grounding features per response, for trying grounding terms of the default judge.

For RAGTruth QA train's answers (each with its three passages) and CrowdRAG-25 dev's responses
(each with its retrieved passages), computes once per response and saves to a pickle:

- ``score``: the default judge's score (``PreferenceModel.default()``, no grounding term) and
  ``contrib_<axiom>``, each feature's part of it (``value_<axiom>``: its raw value);
- the claims (atomic facts, less those that decline) with each claim's support probability
  (``probabilities``), its support features (``claim_features``, rows of
  ``pyterrier_rag_axioms.support.FEATURES``), its IDF mass (``claim_idf``) and the IDF mass of its
  terms that no passage holds (``claim_missing``);
- ``cons4`` and its parts ``unsupported_mass`` and ``uncovered_idf``; ``faithfulness``;
- over the whole answer: ``words``, ``answer_idf`` (IDF mass of its distinct terms),
  ``answer_missing_idf`` (of those no passage holds), ``found_share`` and ``found_idf_share``,
  ``numbers``/``numbers_missing`` (numbers in digits), ``entities``/``entities_missing`` (named
  entities, not numeric ones), ``declines`` (a sentence declines to answer);
- RAGTruth: ``hallucinated`` (a marked span) and ``marked_chars``; CrowdRAG: the judged pairs
  (``quality_overall``) in a second frame.

Usage: ``nice -n 10 .venv/bin/python benchmarks/grounding_features.py [--output PATH] [--limit N]``
(default output ``/tmp/grounding-features.pkl``). RAGTruth takes several minutes on two cores.
"""

from __future__ import annotations

import argparse
import gzip
import json
import pickle
import re
import time

import numpy as np
import pandas as pd
from _setup import DEV_DATA  # noqa: E402  (first: the checkout's package, offline models)

import pyterrier_rag_axioms as rag  # noqa: E402
from pyterrier_rag_axioms.frames import ResponseTable  # noqa: E402
from pyterrier_rag_axioms.grounding.claims import declines, without_source_references  # noqa: E402
from pyterrier_rag_axioms.grounding.faithfulness import groundings  # noqa: E402
from pyterrier_rag_axioms.judgments import load_crowdrag_judgments, load_crowdrag_responses  # noqa: E402
from pyterrier_rag_axioms.preference.features import transformed_values  # noqa: E402
from pyterrier_rag_axioms.preference.scores import imputed  # noqa: E402
from pyterrier_rag_axioms.tools.terms import term_extractor  # noqa: E402

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_NUMERIC = frozenset({"CARDINAL", "ORDINAL", "PERCENT", "QUANTITY", "MONEY", "DATE", "TIME"})
_CITATION = re.compile(r"\[\d+(?:\s*,\s*\d+)*\]")


def ragtruth_responses(limit: int | None = None) -> pd.DataFrame:
    """RAGTruth QA train's answers as a response frame with ``hallucinated``, ``marked_spans`` (each marked
    span's ``(start, end)``) and ``marked_chars``."""
    with gzip.open(DEV_DATA / "ragtruth" / "qa_train.jsonl.gz", "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines]
    frame = pd.DataFrame({
        "qid": [str(row["source_id"]) for row in rows], "query": [row["query"] for row in rows],
        "docno": [f"{row['source_id']}-{row['model']}" for row in rows], "response": [row["response"] for row in rows],
        "context": [list(row["context"]) for row in rows], "hallucinated": [bool(row["labels"]) for row in rows],
        "marked_spans": [[(label["start"], label["end"]) for label in row["labels"]] for row in rows],
        "marked_chars": [sum(label["end"] - label["start"] for label in row["labels"]) for row in rows],
        "quality": [row["quality"] for row in rows],
    }).drop_duplicates(["qid", "docno"]).reset_index(drop=True)
    if limit:
        frame = frame[frame["qid"].isin(frame["qid"].unique()[:limit])].reset_index(drop=True)
    return frame


def _numbers(text: str) -> set[str]:
    """The numbers written in digits in a text, without thousands separators."""
    return {match.replace(",", "").rstrip(".") for match in _NUMBER.findall(text)}


def default_scores(frame: pd.DataFrame) -> dict[str, np.ndarray]:
    """The default judge's score of each response and each feature's part of it (as ``scores`` computes them)."""
    model = rag.PreferenceModel.default()
    table = ResponseTable.from_responses(frame[["qid", "query", "docno", "response", "context"]])
    qids = table.responses["qid"].to_numpy()
    out: dict[str, np.ndarray] = {}
    total = np.zeros(len(table))
    for axiom, weight, scale in zip(model.computed_axioms(), model.fitted_coefficients(), model.scales):
        if weight == 0.0:
            continue
        started = time.time()
        values = np.asarray(axiom.cached_values(table), dtype=float)
        part = weight / scale * imputed(transformed_values(values, model.value_transform)[:, None], qids)[:, 0]
        out[f"value_{axiom.name}"], out[f"contrib_{axiom.name}"] = values, part
        total += part
        print(f"  {axiom.name}: {time.time() - started:.0f} s", flush=True)
    out["score"] = total
    return out


def grounding_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The grounding features of each response (see the module's docstring)."""
    cons4 = rag.PreferenceModel.default().grounding_axiom()
    support, analyzer = cons4.support_model, cons4.text_analyzer
    started = time.time()
    found = groundings(frame["response"].tolist(), frame["context"].tolist(), support_model=support,
                       text_analyzer=analyzer, verbose=True)
    print(f"  groundings: {time.time() - started:.0f} s", flush=True)
    extractor = term_extractor(analyzer)
    weights, default_idf = support.idf_table
    passages = list(dict.fromkeys(passage for context in frame["context"] for passage in context))
    vocabulary = {passage: profile.vocabulary for passage, profile in zip(passages, extractor.profiles(passages))}
    statements = [without_source_references(claim.text) for grounding in found for claim in grounding.claims]
    statement_terms = dict(zip(statements, (profile.vocabulary for profile in extractor.profiles(statements))))
    analyses = analyzer.analyse(frame["response"].tolist())
    threshold = support.claim_threshold
    missing_column = rag.support.FEATURES.index("missing_idf")
    rows = []
    for grounding, analysis, context in zip(found, analyses, frame["context"]):
        held = frozenset().union(*(vocabulary[passage] for passage in context))
        flat = " ".join(context).lower()
        terms = extractor.profile_of(analysis).vocabulary
        idf = {term: weights.get(term, default_idf) for term in terms}
        answer_idf = float(sum(idf.values()))
        missing_idf = float(sum(value for term, value in idf.items() if term not in held))
        claim_idf = [float(sum(weights.get(term, default_idf) for term in statement_terms[
            without_source_references(claim.text)])) for claim in grounding.claims]
        text = _CITATION.sub(" ", analysis.text)
        numbers = _numbers(text)
        context_numbers = set().union(*(_numbers(passage) for passage in context))
        entities = {entity.text.lower().strip() for entity in analysis.doc.ents if entity.label_ not in _NUMERIC}
        entities.discard("")
        rows.append({
            "n_claims": len(grounding.claims),
            "probabilities": np.asarray(grounding.probabilities, dtype=float),
            "claim_features": np.asarray(grounding.features, dtype=float),
            "claim_idf": np.asarray(claim_idf),
            "claim_missing": np.expm1(grounding.features[:, missing_column]) if grounding.claims else np.zeros(0),
            "claim_words": np.array([len(claim.text.split()) for claim in grounding.claims]),
            "unsupported_mass": grounding.unsupported_mass(),
            "uncovered_idf": grounding.uncovered_idf,
            "cons4": grounding.unsupported_mass() + 0.5 * grounding.uncovered_idf,
            "faithfulness": grounding.faithfulness(threshold),
            "words": len(text.split()),
            "terms": len(terms),
            "answer_idf": answer_idf,
            "answer_missing_idf": missing_idf,
            "found_share": float(np.mean([term in held for term in terms])) if terms else 1.0,
            "found_idf_share": 1.0 - missing_idf / answer_idf if answer_idf else 1.0,
            "numbers": len(numbers),
            "numbers_missing": len(numbers - context_numbers),
            "entities": len(entities),
            "entities_missing": sum(entity not in flat for entity in entities),
            "declines": any(declines(sentence.text) for sentence in analysis.sentences),
        })
    return pd.DataFrame(rows, index=frame.index)


def features(frame: pd.DataFrame, label: str) -> pd.DataFrame:
    """The response frame with its grounding features and the default judge's scores."""
    print(f"{label}: {len(frame)} responses", flush=True)
    started = time.time()
    table = frame.join(grounding_table(frame))
    for column, values in default_scores(frame).items():
        table[column] = values
    print(f"{label}: {time.time() - started:.0f} s", flush=True)
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default="/tmp/grounding-features.pkl")
    parser.add_argument("--limit", type=int, default=None, help="RAGTruth: only the first N questions")
    args = parser.parse_args()
    folder = DEV_DATA / "crowdrag-25"
    crowd = features(load_crowdrag_responses(folder / "responses.dev.jsonl.gz"), "CrowdRAG-25 dev")
    pairs = load_crowdrag_judgments(folder / "ratings.dev.jsonl.gz")
    truth = features(ragtruth_responses(args.limit), "RAGTruth QA train")
    with open(args.output, "wb") as out:
        pickle.dump({"ragtruth": truth, "crowdrag": crowd, "crowdrag_pairs": pairs}, out)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
