"""``rag-axioms score``: nugget metrics from assignment files alone, as nuggetizer's metrics step computes them.

Assignment files in (nuggetizer's assign format: NIST's, or those of ``rag-axioms assign
--assignments``); each answer's nugget scores (All, Vital, Weighted, each also strict) and each
run's means over its topics out, ranked by the All score: the table ``rag-axioms assign`` prints,
from the same functions (:func:`~pyterrier_rag_axioms.judgments.nugget_scores`), with no judge and
no model. A nugget marked ``"counted": false`` (drawn from the answer's own words) earns that answer
nothing, as in ``assign``'s own table.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from pyterrier_rag_axioms.cli._errors import CommandLineParser

#: The command's name in its notes and errors.
COMMAND = "rag-axioms score"


def build_parser() -> argparse.ArgumentParser:
    parser = CommandLineParser(
        prog=COMMAND,
        description="Score the answers of nugget assignment files (nuggetizer's assign format) and rank the runs by "
        "their mean nugget scores (All, Vital, Weighted, each also strict), as nuggetizer's metrics step does; no "
        "judge, no model.",
    )
    parser.add_argument(
        "assignments", nargs="+", metavar="FILE",
        help="assignment file(s): one answer per line (qid, run_id, nuggets with importance and assignment)",
    )
    parser.add_argument("--output", metavar="FILE", help="save the run table (.jsonl, .tsv or .parquet)")
    parser.add_argument(
        "--per-topic", metavar="FILE",
        help="save each answer's scores, one row per topic and run (.jsonl, .tsv or .parquet)",
    )
    return parser


def score_main(argv: Sequence[str]) -> int:
    """Print each run's mean nugget scores of the assignment files; save the run table and the per-answer scores."""
    args = build_parser().parse_args(argv)

    import pandas as pd

    from pyterrier_rag_axioms.cli.assign import run_scores, write_outputs
    from pyterrier_rag_axioms.cli.nugget_report import format_run_table
    from pyterrier_rag_axioms.evaluation.comparison import per_topic_nugget_scores
    from pyterrier_rag_axioms.io import check_output_paths, format_of
    from pyterrier_rag_axioms.judgments import load_nugget_assignments

    outputs = {"--output": args.output, "--per-topic": args.per_topic}
    for path in outputs.values():
        if path:
            format_of(path)  # an unknown output format fails before any work
    check_output_paths(outputs, inputs=args.assignments)
    frames = [load_nugget_assignments(path).assign(source=path) for path in args.assignments]
    assignments = pd.concat(frames, ignore_index=True)
    repeated = assignments.duplicated(["qid", "docno"])
    if repeated.any():
        qid, run, source = assignments.loc[repeated.idxmax(), ["qid", "docno", "source"]]
        first = assignments.loc[(assignments["qid"] == qid) & (assignments["docno"] == run), "source"].iloc[0]
        raise ValueError(f"{source}: run {run!r} on topic {qid!r} is assigned in {first} too; give each answer once")
    table = run_scores(assignments)
    source = ", ".join(args.assignments) if len(args.assignments) <= 2 else f"{len(args.assignments)} files"
    print(f"{len(assignments)} answers of {assignments['docno'].nunique()} runs to {assignments['qid'].nunique()} "
          f"topics from {source}")
    print(format_run_table(table))
    write_outputs([(table, args.output, "Run table"),
                   (per_topic_nugget_scores(assignments), args.per_topic, "Per-topic scores")])
    return 0


__all__ = ["build_parser", "score_main"]
