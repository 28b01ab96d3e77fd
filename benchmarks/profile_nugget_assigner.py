"""Where a cold NuggetAssigner spends its CPU: stage by stage on the development assignments, in one process.

Reads the TREC 2024 RAG development assignments (``../shared/data`` or ``$RAG_AXIOMS_SHARED_DATA``)
and runs the assigner's steps one after the other with no cache, each timed in wall and CPU
seconds of the process (CPU seconds vary less with other load on the machine): loading spaCy and
the encoder, the spaCy syntax, the deferred spaCy components, the evidence read from the parse,
the embeddings of nuggets, passages (sentences and clauses), nugget lemmas and answer lemmas,
and the per-pair features. Then the shipped model's decisions are compared with the human
assignments (kappa, 3-way and support-or-partial vs not, and the run tau, as
``benchmarks/fit_nugget_assigner.py`` reports them, but not cross-validated) and, with
``--save``, written to a pickle; ``--compare`` reports the share of labels equal to a saved one.

Usage: ``.venv/bin/python benchmarks/profile_nugget_assigner.py [--save FILE] [--compare FILE]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

from _setup import DEV_DATA  # noqa: E402  (first: the checkout's package, offline models)

os.environ.pop("RAG_AXIOMS_CACHE", None)  # cold: every text parsed and embedded

DATA = DEV_DATA
ASSIGNMENTS = DATA / "trec-rag-2024" / "nugget_assignment.dev.jsonl"


class Clock:
    """Wall and CPU seconds of named stages, printed as they end."""

    def __init__(self) -> None:
        self.stages: list[tuple[str, float, float]] = []

    def __call__(self, name: str, work):
        wall, cpu = time.perf_counter(), time.process_time()
        result = work()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        self.stages.append((name, wall, cpu))
        print(f"{name:<40} wall {wall:7.1f} s   CPU {cpu:7.1f} s", flush=True)
        return result


def assigner_stages(assigner, responses):
    """The assigner's steps on a response frame, in order, as (name, function) pairs."""
    from pyterrier_rag_axioms.nuggets._evidence import text_evidence
    from pyterrier_rag_axioms.nuggets._features import _passages, lemma_weights, topic_features

    analyzer, state = assigner.text_analyzer, {}
    nugget_frame = assigner.nugget_frame
    nugget_texts = list(dict.fromkeys(nugget_frame["nugget"]))
    answer_texts = list(dict.fromkeys([*responses["query"], *responses["response"]]))

    def load():
        analyzer.nlp  # noqa: B018 (load spaCy)
        state["similarity"] = assigner.encoder
        state["similarity"].embed(["warm up"])

    def syntax():
        state["nuggets"] = analyzer.analyse(nugget_texts)
        state["answers"] = analyzer.analyse(answer_texts)
        analyzer.complete([*state["nuggets"], *state["answers"]], syntax_only=True)

    def components():  # as text_evidence asks for them
        analyzer.complete(state["nuggets"])
        analyzer.complete(state["answers"], through="lemmatizer")

    def evidence():
        state["nugget evidence"] = {analysis.text: text_evidence(analysis) for analysis in state["nuggets"]}
        state["evidence"] = {analysis.text: text_evidence(analysis, entities=False) for analysis in state["answers"]}

    def embed_nuggets():
        state["similarity"].embed(list(nugget_frame["nugget"]))

    def answer_evidence():
        return [state["evidence"][text] for text in dict.fromkeys(responses["response"])]

    def embed_passages():
        state["similarity"].embed(sorted({p.text for answer in answer_evidence() for p in _passages(answer)}))

    def embed_nugget_lemmas():
        lemmas = set()
        for qid, group in nugget_frame.groupby("qid", sort=False):
            query = state["evidence"][responses.loc[responses["qid"] == qid, "query"].iloc[0]]
            lemmas |= set(lemma_weights([state["nugget evidence"][text] for text in group["nugget"]], query))
        state["similarity"].embed(sorted(lemmas))

    def embed_answer_lemmas():
        state["similarity"].embed(sorted(frozenset().union(
            *(p.lemmas for answer in answer_evidence() for p in _passages(answer)))))

    def features():
        for qid, group in nugget_frame.groupby("qid", sort=False):
            rows = responses[responses["qid"] == qid]
            topic_features(state["evidence"][rows["query"].iloc[0]],
                           [state["nugget evidence"][text] for text in group["nugget"]],
                           [state["evidence"][text] for text in dict.fromkeys(rows["response"])],
                           state["similarity"].embed)

    return [
        ("loading spaCy and the encoder", load),
        (f"spaCy syntax ({len(nugget_texts) + len(answer_texts)} texts)", syntax),
        ("spaCy lemmatizer (all), NER (nuggets)", components),
        ("evidence from the parse", evidence),
        ("embedding nuggets", embed_nuggets),
        ("embedding sentences and clauses", embed_passages),
        ("embedding nugget lemmas", embed_nugget_lemmas),
        ("embedding answer lemmas", embed_answer_lemmas),
        ("per-pair features", features),
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save", type=Path, help="write the assignments to this pickle")
    parser.add_argument("--compare", type=Path, help="report the share of labels equal to this saved pickle's")
    args = parser.parse_args(argv)
    if not ASSIGNMENTS.is_file():
        sys.exit(f"no development assignments at {ASSIGNMENTS}")

    import pandas as pd

    from benchmarks.fit_nugget_assigner import figures, human_labels
    from pyterrier_rag_axioms.judgments import load_nugget_assignments
    from pyterrier_rag_axioms.nuggets import NuggetAssigner, load_nuggets

    assignments = load_nugget_assignments(ASSIGNMENTS)
    responses = assignments[["qid", "query", "docno", "response"]]
    nuggets = load_nuggets(ASSIGNMENTS)
    assigner = NuggetAssigner(nuggets=nuggets)
    clock = Clock()
    total_wall, total_cpu = time.perf_counter(), time.process_time()
    for name, work in assigner_stages(assigner, responses):
        clock(name, work)
    total_wall, total_cpu = time.perf_counter() - total_wall, time.process_time() - total_cpu
    loading = sum(cpu for name, _, cpu in clock.stages if name.startswith("loading"))
    print(f"{'assigner in all (without loading)':<40} CPU {total_cpu - loading:7.1f} s "
          f"(with loading: wall {total_wall:.1f} s, CPU {total_cpu:.1f} s)")
    print(f"peak resident memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")

    assigned = assigner(responses)
    pairs = assigned[["qid", "docno", "nugget_id"]].merge(human_labels(assignments), on=["qid", "docno", "nugget_id"])
    result = figures(pairs, assigned["assignment"].to_numpy())
    print(f"{len(assigned)} pairs: kappa {result['kappa']:.4f}, binary kappa {result['kappa_binary']:.4f}, "
          f"run tau {result['run_tau']:.4f}")
    if args.compare:
        before = pd.read_pickle(args.compare)
        same = (before["assignment"].to_numpy() == assigned["assignment"].to_numpy()).mean()
        drift = (before["confidence"] - assigned["confidence"]).abs().max()
        print(f"labels as in {args.compare}: {same:.1%}; largest confidence difference {drift:.2g}")
    if args.save:
        assigned.to_pickle(args.save)


if __name__ == "__main__":
    main()
