"""spaCy's attribute ruler and lemmatizer against the faster ones the analyzer loads, on the same texts.

Parses the TREC 2024 RAG development answers (``../shared/data`` or ``$RAG_AXIOMS_SHARED_DATA``;
the shipped sample where they are absent) with the pipeline the analyzer uses (named-entity
recognition aside), once with spaCy's own attribute ruler and lemmatizer and once with
:mod:`pyterrier_rag_axioms.tools.text.faster_components`, in turns, each round on freshly loaded
pipelines (as a process parses: nothing kept from an earlier round), and prints the CPU time of
each component and of the whole parse, with the ratio, and whether the annotations are the same.

Usage: ``.venv/bin/python benchmarks/bench_spacy_components.py [--rounds N]``.
"""

from __future__ import annotations

import argparse
import time

from _setup import DEV_DATA, PROJECT_ROOT  # noqa: E402  (first: the checkout's package, offline models)

ASSIGNMENTS = DEV_DATA / "trec-rag-2024" / "nugget_assignment.dev.jsonl"
COMPONENTS = ("attribute_ruler", "lemmatizer")


def load_texts() -> tuple[str, list[str]]:
    from pyterrier_rag_axioms.io import read_responses
    from pyterrier_rag_axioms.judgments import load_nugget_assignments

    if ASSIGNMENTS.is_file():
        return "development answers", list(load_nugget_assignments(ASSIGNMENTS)["response"])
    return "shipped sample", list(read_responses(PROJECT_ROOT / "data" / "sample" / "responses.jsonl")["response"])


def annotations(doc) -> list[tuple[str, ...]]:
    """What the two components set or read of each token."""
    return [(token.tag_, token.pos_, str(token.morph), token.dep_, token.lemma_) for token in doc]


def timed(nlp, texts: list[str]) -> dict[str, float]:
    """CPU seconds of the parse up to the attribute ruler, of each component, and in all."""
    start = time.process_time()
    docs = list(nlp.pipe(texts, disable=[*COMPONENTS, "ner", "negex"]))
    seconds = {"parse before them": time.process_time() - start}
    for name in COMPONENTS:
        component = nlp.get_pipe(name)
        start = time.process_time()
        docs = [component(doc) for doc in docs]
        seconds[name] = time.process_time() - start
    seconds["all"] = sum(seconds.values())
    return seconds


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="turns of each pipeline (default 3)")
    args = parser.parse_args(argv)
    from pyterrier_rag_axioms.tools.text import spacy_model

    name, texts = load_texts()

    def pipelines():
        """A fresh pipeline of each kind (nothing kept from an earlier round): the faster, spaCy's own."""
        return spacy_model.load_spacy_model(), spacy_model.load_spacy_model(speed_up=False)

    totals = {"spaCy's": {}, "faster": {}}
    for _ in range(args.rounds):
        faster, own = pipelines()
        for label, nlp in (("spaCy's", own), ("faster", faster)):
            for part, seconds in timed(nlp, texts).items():
                totals[label][part] = totals[label].get(part, 0.0) + seconds
    faster, own = pipelines()
    same = all(annotations(a) == annotations(b) for a, b in zip(own.pipe(texts), faster.pipe(texts)))
    print(f"{len(texts)} {name}, {args.rounds} rounds each (CPU seconds per round); same annotations: {same}")
    print(f"{'':20}{'spaCy':>8}{'faster':>8}{'ratio':>8}")
    for part in totals["spaCy's"]:
        before, after = totals["spaCy's"][part] / args.rounds, totals["faster"][part] / args.rounds
        print(f"{part:20}{before:8.2f}{after:8.2f}{before / max(after, 1e-9):7.1f}x")


if __name__ == "__main__":
    main()
