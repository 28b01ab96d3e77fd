"""Cut the TREC 2024 RAG sample shipped in the package from the public nugget assignments.

Usage: ``python scripts/cut_trec_sample.py [ASSIGNMENTS [TOPICS]]``; without paths, the public
files of ``pt.get_dataset("rag-axioms:trec-rag-2024")`` (downloaded once, checked). Writes
``pyterrier_rag_axioms/sample/trec-rag-2024/``: the two topics, one TREC run file per run (the
answer text as one sentence without citations, ``references: []``: the assignment file keeps
neither), the topics' nuggets (nuggetizer's create format) and NIST's assignments (its assign format).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pyterrier_rag_axioms.io import atomic_write_text, iter_jsonl
from pyterrier_rag_axioms.judgments.public_data import public_file

TOPICS = ("2024-142395", "2024-29182")
RUNS = (
    "ldilab_gpt_4o", "UDInfolab.RAG.Query", "webis-rag-run0-taskrag", "FT-llama3",
    "baseline_top_5", "zeph_test_rag_rrf_expand_query", "ginger_top_5", "iiia_dedup_p1_straight_ag",
)
TARGET = Path(__file__).resolve().parents[1] / "pyterrier_rag_axioms" / "sample" / "trec-rag-2024"


def _lines(records: list[dict]) -> str:
    return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)


def main(argv: list[str]) -> None:
    assignments = Path(argv[0]) if argv else public_file("trec-rag-2024", "nuggets")
    topics = Path(argv[1]) if len(argv) > 1 else public_file("trec-rag-2024", "topics")
    kept = [record for _, record in iter_jsonl(assignments) if record["qid"] in TOPICS and record["run_id"] in RUNS]
    kept.sort(key=lambda record: (TOPICS.index(record["qid"]), RUNS.index(record["run_id"])))
    assert len(kept) == len(TOPICS) * len(RUNS), "every run answers both topics"
    queries = dict(line.rstrip("\n").split("\t", 1) for line in topics.read_text(encoding="utf-8").splitlines())
    atomic_write_text(TARGET / "topics.txt", "".join(f"{qid}\t{queries[qid]}\n" for qid in TOPICS))
    nuggets = {}
    for record in kept:
        nuggets.setdefault(record["qid"], {"qid": record["qid"], "query": record["query"], "nuggets": [
            {"text": nugget["text"], "importance": nugget["importance"]} for nugget in record["nuggets"]]})
    atomic_write_text(TARGET / "nuggets.jsonl", _lines(list(nuggets.values())))
    atomic_write_text(TARGET / "assignments.jsonl", _lines(kept))
    for run in RUNS:
        answers = [
            {"run_id": run, "topic_id": record["qid"], "topic": queries[record["qid"]], "references": [],
             "response_length": record["response_length"],
             "answer": [{"text": record["answer_text"], "citations": []}]}
            for record in kept if record["run_id"] == run
        ]
        atomic_write_text(TARGET / "runs" / f"{run}.jsonl", _lines(answers))


if __name__ == "__main__":
    main(sys.argv[1:])
