"""Time the ten offline RAG axioms of ir-axioms 1.2.5 on a response file (run by the ir-axioms venv's python).

This script is the reference side of ``bench_rag_axioms.py``; it imports nothing from
``pyterrier_rag_axioms`` and runs in its own virtual environment (``.venv-irax``, created by
``make bench``). It reads a JSON-lines file of responses (``qid``, ``query``, ``docno``,
``response``, ``context``), runs COH1, COH2, COV1, COV2, COV3, CONS1, CONS2, CONS3, CORR1 and CLAR2
through ir-axioms' batched ``preferences(request, responses)`` once per query, and writes a JSON
report: seconds per axiom, total seconds, peak resident memory, and the preference of every pair
(a before b in input order).

Tools are injected so that both sides use the same models: spaCy sentence and term tokenizers,
noun-chunk aspects and the spaCy-based axioms (COH2, CONS3, CLAR2) all load the given spaCy model;
sentence similarity uses the given sentence-transformers model path. Models are loaded, and every
axiom run once on a tiny request, before the clock starts.

ROUGE: CONS2's scorer splits summaries into sentences with NLTK's punkt tokenizer, whose data
it downloads on first use. So that the benchmark runs offline, the scorer is replaced by one that
splits with the same spaCy sentence tokenizer (each distinct text split once, as cheap as punkt
would be) and otherwise scores with ``rouge-score`` exactly as ir-axioms configures it.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from collections import defaultdict

AXIOM_NAMES = ("COH1", "COH2", "COV1", "COV2", "COV3", "CONS1", "CONS2", "CONS3", "CORR1", "CLAR2")


class SpacySplitRougeScorer:
    """ROUGE-Lsum as ir-axioms computes it, with sentences split by a spaCy sentence tokenizer instead of NLTK."""

    def __init__(self, sentence_tokenizer):
        from rouge_score.rouge_scorer import RougeScorer

        self._scorer = RougeScorer(rouge_types=["rougeLsum"], use_stemmer=False, split_summaries=False)
        self._sentence_tokenizer = sentence_tokenizer
        self._split: dict[str, str] = {}

    def _lines(self, text: str) -> str:
        if text not in self._split:
            self._split[text] = "\n".join(self._sentence_tokenizer.sentences(text))
        return self._split[text]

    def score(self, target: str, prediction: str):
        return self._scorer.score(target=self._lines(target), prediction=self._lines(prediction))


def build_axioms(spacy_model: str, sentence_model: str) -> dict[str, object]:
    """The ten axioms, sharing one instance of each tool, all on the given models."""
    from ir_axioms.axiom.generation import CLAR2, COH1, COH2, CONS1, CONS2, CONS3, CORR1, COV1, COV2, COV3
    from ir_axioms.tools import SentenceTransformersSentenceSimilarity, SpacyNounChunksAspectExtraction
    from ir_axioms.tools.tokenizer import SpacySentenceTokenizer, SpacyTermTokenizer

    sentences = SpacySentenceTokenizer(language_name=spacy_model)
    terms = SpacyTermTokenizer(language_name=spacy_model)
    aspects = SpacyNounChunksAspectExtraction(language_name=spacy_model)
    similarity = SentenceTransformersSentenceSimilarity(model_name=sentence_model)
    axioms = {
        "COH1": COH1(sentence_tokenizer=sentences, term_tokenizer=terms),
        "COH2": COH2(language_name=spacy_model),
        "COV1": COV1(aspect_extraction=aspects),
        "COV2": COV2(aspect_extraction=aspects, sentence_similarity=similarity),
        "COV3": COV3(aspect_extraction=aspects, sentence_tokenizer=sentences, sentence_similarity=similarity),
        "CONS1": CONS1(aspect_extraction=aspects, sentence_tokenizer=sentences, sentence_similarity=similarity),
        "CONS2": CONS2(sentence_tokenizer=sentences, term_tokenizer=terms),
        "CONS3": CONS3(language_name=spacy_model),
        "CORR1": CORR1(sentence_tokenizer=sentences),
        "CLAR2": CLAR2(language_name=spacy_model),
    }
    # ``_rouge_scorer`` is a cached property of a frozen dataclass: fill its cache slot directly.
    axioms["CONS2"].__dict__["_rouge_scorer"] = SpacySplitRougeScorer(sentences)
    return axioms


def read_requests(path: str):
    """``(request, responses)`` per query, in order of first appearance."""
    from ir_axioms.model import GenerationRequest, GenerationResponse

    rows = defaultdict(list)
    queries: dict[str, tuple[str, list[str] | None]] = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            qid = str(row["qid"])
            queries.setdefault(qid, (row["query"], row.get("context")))
            rows[qid].append(GenerationResponse(id=str(row["docno"]), text=row["response"]))
    return [
        (GenerationRequest(id=qid, text=query, context=context), rows[qid]) for qid, (query, context) in queries.items()
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", required=True, help="JSON lines: qid, query, docno, response, context")
    parser.add_argument("--output", required=True, help="where to write the JSON report")
    parser.add_argument("--spacy-model", required=True, help="spaCy model name or path")
    parser.add_argument("--sentence-model", required=True, help="sentence-transformers model path")
    parser.add_argument("--axioms", default=",".join(AXIOM_NAMES), help="comma-separated short names")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    args = parser.parse_args(argv)

    import numpy as np
    import torch
    from ir_axioms.model import GenerationRequest, GenerationResponse

    if args.threads:
        torch.set_num_threads(args.threads)
    names = [name for name in args.axioms.split(",") if name]
    unknown = sorted(set(names) - set(AXIOM_NAMES))
    if unknown:
        parser.error(f"unknown axioms {unknown}; choose from {AXIOM_NAMES}")
    axioms = build_axioms(args.spacy_model, args.sentence_model)
    requests = read_requests(args.input)

    # Load every model and run every axiom once before timing.
    warm_context = ["Cats are small animals. They purr."]
    warm_request = GenerationRequest(id="warm-up", text="What is a cat?", context=warm_context)
    warm_responses = [
        GenerationResponse(id="a", text="A cat is an animal [0]. It purrs."),
        GenerationResponse(id="b", text="Cats are pets that are not dogs."),
    ]
    for name in names:
        axioms[name].preferences(warm_request, warm_responses)

    seconds: dict[str, float] = {}
    preferences: dict[str, list[float]] = {}
    pairs: list[tuple[str, str, str]] = []
    for request, responses in requests:
        upper_a, upper_b = np.triu_indices(len(responses), k=1)
        pairs.extend((request.id, responses[i].id, responses[j].id) for i, j in zip(upper_a, upper_b))
    started = time.perf_counter()
    for name in names:
        axiom_started = time.perf_counter()
        values: list[float] = []
        for request, responses in requests:
            matrix = np.asarray(axioms[name].preferences(request, responses), dtype=float)
            upper_a, upper_b = np.triu_indices(len(responses), k=1)
            values.extend(np.sign(matrix[upper_a, upper_b]).tolist())
        seconds[name] = time.perf_counter() - axiom_started
        preferences[name] = values
        print(f"ir-axioms {name}: {seconds[name]:.1f} s", file=sys.stderr, flush=True)
    total = time.perf_counter() - started

    from importlib.metadata import version

    report = {
        "ir_axioms_version": version("ir_axioms"),
        "responses": sum(len(responses) for _, responses in requests),
        "queries": len(requests),
        "seconds": seconds,
        "total_seconds": total,
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "torch_threads": torch.get_num_threads(),
        "pairs": pairs,
        "preferences": preferences,
    }
    with open(args.output, "w", encoding="utf-8") as file:
        json.dump(report, file)
    return 0


if __name__ == "__main__":
    sys.exit(main())
