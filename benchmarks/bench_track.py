"""A synthetic TREC RAG track, timed cold: the run judge, the nugget extractor and the nugget assigner.

Builds a track from the TREC 2024 RAG development answers (``../shared/data`` or
``$RAG_AXIOMS_SHARED_DATA``): ``--topics`` topics (the development topics in turn) x ``--runs``
runs, each answer recombined from its topic's sentences with the development distribution of
sentences per answer, each sentence marked with its answer's number so that every text is new
(nothing is encoded or parsed twice across answers); each topic keeps its development nuggets.
Each stage runs in a fresh process with no cache, and reports the wall time of the whole process
(Python, imports and models included) and of the stage alone, CPU time (the process's and its
worker processes') and peak resident memory (of the largest process); the previous release's
path of the judge, the extractor and the assigner (the transformer for the judge and the
extractor, one process for the assigner) runs beside the current one. The model files (the
static encoder, the ONNX exports) are built before the first stage, as ``make setup`` builds
them. The process's wall time is scaled linearly to a full track (301 topics x 45 runs).

Topics beyond the development ones reuse their sentences, so the words and clauses of the
synthetic topics repeat across topics, and a process that encodes several of them encodes those
once; ``--development`` times the development answers themselves instead (real, distinct topics).

Usage: ``make bench-track`` or ``.venv/bin/python benchmarks/bench_track.py [--topics N] [--runs N] [--development]``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _setup import DEV_DATA  # noqa: E402  (first: the checkout's package, offline models)

os.environ.pop("RAG_AXIOMS_CACHE", None)  # cold: every text parsed and embedded

DATA = DEV_DATA
ASSIGNMENTS = DATA / "trec-rag-2024" / "nugget_assignment.dev.jsonl"
FULL_TOPICS, FULL_RUNS = 301, 45
#: The stages, in order: what each runs on the track's responses and nuggets. "before" is the
#: path of the previous release: the judge and the extractor on the transformer, the assigner in one
#: process.
STAGES: dict[str, str] = {
    "run judge (before: int8 transformer)":
        "PreferenceModel.default('nuggets', encoder='onnx-int8-per-channel').scores(responses)",
    "run judge": "PreferenceModel.default('nuggets').scores(responses)",
    "extractor (before: transformer)":
        "NuggetExtractor(encoder=sentence_similarity(), similarity=0.7)(responses)",
    "extractor": "NuggetExtractor()(responses)",
    "assigner (before: in one process)": "NuggetAssigner(nuggets=nuggets, processes=1)(responses)",
    "assigner": "NuggetAssigner(nuggets=nuggets)(responses)",
    "judge and assigner on one parse": "judge_and_assign(responses, NuggetAssigner(nuggets=nuggets))[0]",
}
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def build_track(topics: int, runs: int, seed: int = 0):
    """The synthetic track: a response frame and its nugget frame (see the module)."""
    import numpy as np
    import pandas as pd

    from pyterrier_rag_axioms.judgments import load_nugget_assignments
    from pyterrier_rag_axioms.nuggets import load_nuggets

    development = load_nugget_assignments(ASSIGNMENTS)
    nuggets = load_nuggets(ASSIGNMENTS)
    rng = np.random.default_rng(seed)
    qids = list(dict.fromkeys(development["qid"]))
    responses, nugget_parts = [], []
    for number in range(topics):
        source = qids[number % len(qids)]
        answers = development[development["qid"] == source]
        sentences = [s for text in answers["response"] for s in _SENTENCE_END.split(text.strip()) if s]
        counts = [len([s for s in _SENTENCE_END.split(text.strip()) if s]) for text in answers["response"]]
        qid = f"{source}-{number}"
        for run in range(runs):
            chosen = rng.choice(len(sentences), size=max(1, counts[run % len(counts)]), replace=False) \
                if len(sentences) >= max(counts) else rng.choice(len(sentences), size=1)
            text = " ".join(f"{sentences[i].rstrip('.!?')} ({number}.{run}.{k})." for k, i in enumerate(chosen))
            responses.append({"qid": qid, "query": answers["query"].iloc[0], "docno": f"run{run}", "response": text})
        nugget_parts.append(nuggets[nuggets["qid"] == source].assign(qid=qid))
    return pd.DataFrame(responses), pd.concat(nugget_parts, ignore_index=True)


def run_stage(stage: str, track: Path) -> dict:
    """Run one stage on the pickled track in this process; its wall, CPU and peak memory (with its workers')."""
    import pandas as pd

    from pyterrier_rag_axioms import PreferenceModel  # noqa: F401 (the stages' names)
    from pyterrier_rag_axioms.nuggets import NuggetAssigner, NuggetExtractor  # noqa: F401
    from pyterrier_rag_axioms.tools.embeddings import sentence_similarity  # noqa: F401
    from pyterrier_rag_axioms.track import judge_and_assign  # noqa: F401

    responses, nuggets = pd.read_pickle(track)
    start, cpu = time.perf_counter(), _cpu_seconds()
    result = eval(STAGES[stage])  # noqa: S307 (the table above)
    return {
        "wall": time.perf_counter() - start,
        "cpu": _cpu_seconds() - cpu,
        "peak_mib": max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
        / 1024,
        "rows": len(result),
    }


def _cpu_seconds() -> float:
    """User and system CPU seconds of this process and its ended workers."""
    usages = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    return sum(usage.ru_utime + usage.ru_stime for usage in usages)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=FULL_TOPICS, help=f"topics (default {FULL_TOPICS})")
    parser.add_argument("--runs", type=int, default=FULL_RUNS, help=f"runs per topic (default {FULL_RUNS})")
    parser.add_argument("--development", action="store_true",
                        help="the development answers themselves (real, distinct topics) instead of a synthetic track")
    parser.add_argument("--stages", default=",".join(STAGES), help="comma-separated stages (default: all)")
    parser.add_argument("--stage", help=argparse.SUPPRESS)
    parser.add_argument("--track", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.stage:  # a child process: one stage, cold
        print(json.dumps(run_stage(args.stage, Path(args.track))))
        return
    if not ASSIGNMENTS.is_file():
        sys.exit(f"bench_track: no development assignments at {ASSIGNMENTS}")
    stages = [stage.strip() for stage in args.stages.split(",")]
    unknown = [stage for stage in stages if stage not in STAGES]
    if unknown:
        sys.exit(f"bench_track: unknown stage {unknown[0]!r}; known: {', '.join(STAGES)}")
    import pandas as pd

    if args.development:
        from pyterrier_rag_axioms.judgments import load_nugget_assignments
        from pyterrier_rag_axioms.nuggets import load_nuggets

        responses = load_nugget_assignments(ASSIGNMENTS)[["qid", "query", "docno", "response"]]
        nuggets = load_nuggets(ASSIGNMENTS)
        described = f"the development answers: {responses['qid'].nunique()} topics"
    else:
        responses, nuggets = build_track(args.topics, args.runs)
        described = f"synthetic track: {args.topics} topics x {args.runs} runs"
    answers = len(responses)
    scale = FULL_TOPICS * FULL_RUNS / answers
    print(f"{described} = {answers} answers, {len(nuggets)} nuggets, {os.cpu_count()} CPU cores; "
          "each stage cold in a fresh process")
    print(f"{'stage':42s} {'process wall s':>14s} {'stage wall s':>12s} {'CPU s':>7s} {'peak MiB':>9s} {'rows':>7s} "
          f"{'full track (process wall, min)':>31s}")
    subprocess.run([sys.executable, "-m", "pyterrier_rag_axioms", "cache", "--build"], check=True,
                   capture_output=True)  # as make setup does: model files are not a stage's work
    with tempfile.TemporaryDirectory() as directory:
        track = Path(directory) / "track.pkl"
        pd.to_pickle((responses, nuggets), track)
        for stage in stages:
            started = time.perf_counter()
            child = subprocess.run(
                [sys.executable, __file__, "--stage", stage, "--track", str(track)],
                capture_output=True, text=True, check=False,
            )
            if child.returncode != 0:
                sys.exit(f"bench_track: stage {stage!r} failed: {child.stderr.strip().splitlines()[-1:]}")
            process_wall = time.perf_counter() - started
            figures = json.loads(child.stdout.strip().splitlines()[-1])
            print(f"{stage:42s} {process_wall:14.1f} {figures['wall']:12.1f} {figures['cpu']:7.1f} "
                  f"{figures['peak_mib']:9.0f} {figures['rows']:7d} {process_wall * scale / 60:31.1f}")


if __name__ == "__main__":
    main()
