"""Speed of Faithfulness: check the claims of RAGTruth answers against their passages, from a cold start.

Reads the first ``--answers`` answers of RAGTruth QA train (``../shared/data/ragtruth/qa_train.jsonl.gz``
or ``$RAG_AXIOMS_SHARED_DATA``), runs ``Faithfulness()`` on them with no cache (every answer and
passage parsed, split into claims and checked), and prints the time to load the models, the
answers per second (wall clock and the process's CPU time) and the peak resident memory.

Usage: ``.venv/bin/python benchmarks/bench_faithfulness.py [--answers N]``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import time

from _setup import DEV_DATA  # noqa: E402  (first: the checkout's package, offline models)

os.environ.pop("RAG_AXIOMS_CACHE", None)  # cold: every text parsed

RAGTRUTH = DEV_DATA / "ragtruth" / "qa_train.jsonl.gz"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=264, help="how many answers (default: 264)")
    arguments = parser.parse_args()
    import pandas as pd

    from pyterrier_rag_axioms import Faithfulness
    from pyterrier_rag_axioms.support.model import term_vectors
    from pyterrier_rag_axioms.tools.text import text_analyzer

    with gzip.open(RAGTRUTH, "rt", encoding="utf-8") as lines:
        answers = [json.loads(line) for _, line in zip(range(arguments.answers), lines)]
    frame = pd.DataFrame(
        {
            "qid": [answer["source_id"] for answer in answers],
            "query": [answer["query"] for answer in answers],
            "docno": [f"{answer['model']}-{number}" for number, answer in enumerate(answers)],
            "response": [answer["response"] for answer in answers],
            "context": [answer["context"] for answer in answers],
        }
    )
    start = time.perf_counter()
    text_analyzer().nlp.pipe_names  # noqa: B018  (loads spaCy)
    term_vectors().embed(["load"])
    loading = time.perf_counter() - start
    cpu, wall = time.process_time(), time.perf_counter()
    checked = Faithfulness()(frame)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    memory = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{len(checked)} answers, {checked['unsupported'].map(len).sum()} unsupported spans")
    print(
        f"loading {loading:.1f} s; checking {wall:.1f} s wall ({len(checked) / wall:.1f} answers/s), "
        f"{cpu:.1f} s CPU ({len(checked) / cpu:.1f} answers/s); peak memory {memory:.0f} MiB"
    )


if __name__ == "__main__":
    main()
