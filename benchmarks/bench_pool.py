"""Benchmark the pool axioms and the run judge against the non-pool model, measured in the same run.

Inputs:

- ``dev``: the TREC 2024 RAG development answers (6 topics, about 44 runs each);
- ``q1000``: one query with 1,000 responses, built from the development answers of its topic: each
  response joins 2 to 8 of that topic's answer sentences, drawn with a fixed seed.

Judges, each measured in a fresh process (spaCy and the sentence encoder loaded and warmed up on
other texts before the clock starts, no persistent cache), so that every text is parsed and
encoded once inside the measurement:

- ``non-pool model``: ``PreferenceModel.default("crowd")``, the nugget model without pool axioms,
  judging all pairs (as ``rag-axioms runs --ranking pairwise`` does);
- ``run judge, pointwise``: ``PreferenceModel.default("nuggets")`` scoring each response
  (``scores``; the default of ``rag-axioms runs``);
- ``run judge, pairwise``: the same model judging all pairs;
- ``pool axioms``: the values of POOL1-POOL4.

For each it prints the wall-clock time, the CPU time of the process (all its threads: less
sensitive than wall-clock time to other work on a shared machine) and the peak of memory allocated
during the measurement (Python and numpy, by ``tracemalloc``), and the CPU time and memory as
ratios to the non-pool model's. Ratios compare measurements made one after the other by one run.

Usage: ``.venv/bin/python benchmarks/bench_pool.py [--inputs dev,q1000]``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pandas as pd
from _setup import DEV_DATA  # noqa: E402  (first: the checkout's package, offline models)

DATA = DEV_DATA
NUGGETS = DATA / "trec-rag-2024" / "nugget_assignment.dev.jsonl"
JUDGES = ("non-pool model", "run judge, pointwise", "run judge, pairwise", "pool axioms")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")


def development_answers() -> pd.DataFrame:
    from pyterrier_rag_axioms.judgments import load_nugget_assignments

    return load_nugget_assignments(NUGGETS)[["qid", "query", "docno", "response"]]


def thousand_responses(answers: pd.DataFrame, size: int = 1000, seed: int = 0) -> pd.DataFrame:
    """One query's responses, each 2 to 8 sentences of that topic's development answers."""
    qid = answers["qid"].iloc[0]
    topic = answers[answers["qid"] == qid]
    sentences = sorted({s.strip() for text in topic["response"] for s in _SENTENCE_END.split(text) if s.strip()})
    rng = np.random.default_rng(seed)
    texts = [" ".join(rng.choice(sentences, size=int(rng.integers(2, 9)), replace=False)) for _ in range(size)]
    return pd.DataFrame({"qid": qid, "query": topic["query"].iloc[0], "docno": [f"r{i:04d}" for i in range(size)],
                         "response": texts})


def measure(judge: str, path: str) -> dict:
    """Time and peak allocation of one judge over the responses in ``path`` (run in a fresh process)."""
    import pyterrier_rag_axioms as rag

    responses = pd.read_parquet(path)
    warm = pd.DataFrame({"qid": "w", "query": "what is warm", "docno": ["a", "b"],
                         "response": ["Warm means a little hot. It is pleasant.", "Warmth is heat."]})
    run_judge, non_pool = rag.PreferenceModel.default("nuggets"), rag.PreferenceModel.default("crowd")
    pool_axioms = [rag.POOL1(), rag.POOL2(), rag.POOL3(), rag.POOL4()]
    work = {
        "non-pool model": lambda frame: non_pool(frame),
        "run judge, pointwise": lambda frame: run_judge.scores(frame),
        "run judge, pairwise": lambda frame: run_judge(frame),
        "pool axioms": lambda frame: [axiom.values(frame) for axiom in pool_axioms],
    }[judge]
    work(warm)  # loads the models
    tracemalloc.start()
    start, cpu = time.perf_counter(), time.process_time()
    work(responses)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"seconds": seconds, "cpu_seconds": cpu, "peak_mib": peak / 2**20}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", default="dev,q1000", help="which inputs: dev, q1000 (default both)")
    parser.add_argument("--child", nargs=2, metavar=("JUDGE", "PATH"), help=argparse.SUPPRESS)
    arguments = parser.parse_args(argv)
    if arguments.child:
        print(json.dumps(measure(*arguments.child)))
        return 0
    if not NUGGETS.is_file():
        print(f"bench_pool: development data not found at {NUGGETS}", file=sys.stderr)
        return 2
    answers = development_answers()
    inputs = {"dev": answers, "q1000": thousand_responses(answers)}
    with tempfile.TemporaryDirectory() as folder:
        for name in arguments.inputs.split(","):
            frame = inputs[name]
            path = str(Path(folder) / f"{name}.parquet")
            frame.to_parquet(path)
            pairs = sum(n * (n - 1) // 2 for n in frame.groupby("qid").size())
            print(f"\n{name}: {len(frame)} responses to {frame['qid'].nunique()} queries ({pairs} pairs)")
            print(f"  {'judge':<22}{'wall (s)':>10}{'CPU (s)':>10}{'peak (MiB)':>12}{'CPU ratio':>11}"
                  f"{'memory ratio':>14}")
            baseline = None
            for judge in JUDGES:
                done = subprocess.run([sys.executable, __file__, "--child", judge, path], capture_output=True,
                                      text=True, check=True, env={**os.environ, "RAG_AXIOMS_CACHE": ""})
                result = json.loads(done.stdout.strip().splitlines()[-1])
                baseline = baseline or result
                ratios = result["cpu_seconds"] / baseline["cpu_seconds"], result["peak_mib"] / baseline["peak_mib"]
                print(f"  {judge:<22}{result['seconds']:>10.1f}{result['cpu_seconds']:>10.1f}"
                      f"{result['peak_mib']:>12.0f}{ratios[0]:>11.2f}{ratios[1]:>14.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
