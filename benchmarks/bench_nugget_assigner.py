"""Speed of NuggetAssigner: assign every development nugget to every development answer, from a cold start.

Reads the TREC 2024 RAG development assignments (``../shared/data`` or ``$RAG_AXIOMS_SHARED_DATA``),
assigns each topic's nuggets to each answer with no cache (every text parsed and embedded), and
reports the time to load the models, the time per (answer, nugget) pair (wall clock and the
process's CPU time, which other load on the machine inflates less), the peak resident memory
of the process, and the estimated time for a full TREC RAG track (300 topics x 50 runs x the
development mean of nuggets per topic), scaled linearly from the time per pair.

Usage: ``.venv/bin/python benchmarks/bench_nugget_assigner.py [--encoder MODEL[:BACKEND]]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time

from _setup import DEV_DATA  # noqa: E402  (first: the checkout's package, offline models)

os.environ.pop("RAG_AXIOMS_CACHE", None)  # cold: every text parsed and embedded

DATA = DEV_DATA
ASSIGNMENTS = DATA / "trec-rag-2024" / "nugget_assignment.dev.jsonl"
TRACK_TOPICS, TRACK_RUNS = 300, 50


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--encoder", "--sentence-model",
                        help="the encoder, MODEL[:BACKEND] (default: the assigner's, all-MiniLM-L6-v2 with onnx)")
    args = parser.parse_args(argv)
    if not ASSIGNMENTS.is_file():
        sys.exit(f"no development assignments at {ASSIGNMENTS}")

    from pyterrier_rag_axioms.judgments import load_nugget_assignments
    from pyterrier_rag_axioms.nuggets import NuggetAssigner, load_nuggets
    from pyterrier_rag_axioms.tools.text import text_analyzer

    responses = load_nugget_assignments(ASSIGNMENTS)[["qid", "query", "docno", "response"]]
    nuggets = load_nuggets(ASSIGNMENTS)
    start = time.perf_counter()
    text_analyzer().nlp  # noqa: B018 (load spaCy)
    assigner = NuggetAssigner(nuggets=nuggets, encoder=args.encoder)
    assigner.encoder.embed(["warm up"])
    loading = time.perf_counter() - start

    start, cpu_start = time.perf_counter(), time.process_time()
    assigned = assigner(responses)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start

    pairs = len(assigned)
    per_pair = elapsed / pairs
    nuggets_per_topic = len(nuggets) / nuggets["qid"].nunique()
    track_pairs = TRACK_TOPICS * TRACK_RUNS * nuggets_per_topic
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(f"{len(responses)} answers x their topic's nuggets = {pairs} pairs "
          f"({responses['qid'].nunique()} topics, {nuggets_per_topic:.1f} nuggets per topic), "
          f"{os.cpu_count()} CPU cores")
    print(f"loading spaCy and the encoder: {loading:.1f} s")
    print(f"assignment: {elapsed:.1f} s, {per_pair * 1000:.2f} ms per (answer, nugget) pair, "
          f"{elapsed / len(responses) * 1000:.0f} ms per answer; CPU time {cpu:.1f} s "
          f"({cpu / pairs * 1000:.2f} ms per pair)")
    print(f"peak resident memory: {peak_mib:.0f} MiB")
    print(f"full TREC RAG track ({TRACK_TOPICS} topics x {TRACK_RUNS} runs x {nuggets_per_topic:.1f} nuggets = "
          f"{track_pairs:,.0f} pairs): about {per_pair * track_pairs / 60:.0f} min")


if __name__ == "__main__":
    main()
