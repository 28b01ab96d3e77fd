"""``rag-axioms score``: nugget metrics from assignment files alone, as nuggetizer's metrics step computes them.

Assignment files in (nuggetizer's assign format: NIST's, or those of ``rag-axioms assign
--assignments``; or the flat table, one row per answer and nugget, of ``--assignments FILE.tsv``
or ``.parquet``); each answer's nugget scores (All, Vital, Weighted, each also strict) and each
run's means over its topics out, ranked by the All score: the table ``rag-axioms assign`` prints,
from the same functions (:func:`~pyterrier_rag_axioms.judgments.nugget_scores`), with no judge and
no model. A nugget marked ``"counted": false`` (drawn from the answer's own words) earns that answer
nothing, as in ``assign``'s own table; an answer left without a nugget that counts scores 0, and a
topic a run lacks counts 0 (TREC's rule; a note names the run). With ``--manual FILE``, a second
assignment file of the same answers, both rankings stand side by side with Kendall's tau, as
``assign --manual`` prints them.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from pyterrier_rag_axioms.cli._declared_option import add_declared_option
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
        help="assignment file(s): JSON lines, one answer per line (qid, run_id, nuggets with importance and "
        "assignment), or the flat table of assign --assignments FILE.tsv or .parquet",
    )
    parser.add_argument(
        "--manual", metavar="FILE",
        help="another assignment file of the same answers (e.g. NIST's): print both rankings with Kendall's tau, its "
        "bootstrap interval over topics and tau within each topic, as assign --manual does",
    )
    from pyterrier_rag_axioms.evaluation.comparison import compare_nugget_rankings

    add_declared_option(
        parser, compare_nugget_rankings, "confidence",
        help="with --manual: level of tau's bootstrap interval over topics",
    )
    parser.add_argument("--output", metavar="FILE", help="save the run table (.jsonl, .tsv or .parquet)")
    parser.add_argument(
        "--per-topic", metavar="FILE",
        help="save each answer's scores, one row per topic and run (.jsonl, .tsv or .parquet)",
    )
    return parser


#: Suffixes of the flat table of ``rag-axioms assign --assignments`` (one row per answer and nugget).
FLAT_SUFFIXES: tuple[str, ...] = (".tsv", ".tsv.gz", ".parquet")


def load_assignments(path: str) -> pd.DataFrame:
    """One row per answer (``qid``, ``docno``, ``nuggets``) of an assignment file: JSON lines in nuggetizer's
    assign format (any suffix: NIST's file ends in ``.jl``), or the flat table of ``assign --assignments``
    (``.tsv`` or ``.parquet``), whose ``counted`` column is kept.

    Raises:
        ValueError: a malformed file, naming it (and the line or row).
    """
    from pyterrier_rag_axioms.judgments import load_nugget_assignments, nested_assignments

    if not path.lower().endswith(FLAT_SUFFIXES):
        return load_nugget_assignments(path)
    if path.lower().endswith(".parquet"):
        flat = pd.read_parquet(path)
    else:
        flat = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
    if "counted" in flat.columns:  # booleans in Parquet, their text in TSV (a header line above the rows)
        parquet = path.lower().endswith(".parquet")

        def mark(value: object) -> bool | None:
            if parquet:
                return bool(value) if isinstance(value, (bool, np.bool_)) else None
            return {"True": True, "False": False}.get(value) if isinstance(value, str) else None

        marks = flat["counted"].map(mark)
        if marks.isna().any():
            row = int(marks.isna().to_numpy().argmax())
            where = f": row {row + 1}" if parquet else f":{row + 2}"  # a TSV's rows start on its second line
            raise ValueError(f"{path}{where}: counted must be True or False, not {flat['counted'].iloc[row]!r}")
        flat["counted"] = marks.astype(bool)
    try:
        return nested_assignments(flat)
    except Exception as error:  # pt.validate's and the checks' messages name no file
        raise ValueError(f"{path}: {error}") from None


def score_main(argv: Sequence[str]) -> int:
    """Print each run's mean nugget scores of the assignment files; save the run table and the per-answer scores."""
    args = build_parser().parse_args(argv)

    from pyterrier_rag_axioms.cli.assign import manual_scores, run_scores, write_outputs
    from pyterrier_rag_axioms.cli.nugget_report import format_comparison, format_run_table
    from pyterrier_rag_axioms.evaluation.bootstrap import check_confidence
    from pyterrier_rag_axioms.evaluation.comparison import per_topic_nugget_scores
    from pyterrier_rag_axioms.io import check_output_paths, format_of

    check_confidence(args.confidence, caller="--confidence")
    outputs = {"--output": args.output, "--per-topic": args.per_topic}
    for path in outputs.values():
        if path:
            format_of(path)  # an unknown output format fails before any work
    check_output_paths(outputs, inputs=[*args.assignments, args.manual])
    frames = [load_assignments(path).assign(source=path) for path in args.assignments]
    assignments = pd.concat(frames, ignore_index=True)
    repeated = assignments.duplicated(["qid", "docno"])
    if repeated.any():
        qid, run, source = assignments.loc[repeated.idxmax(), ["qid", "docno", "source"]]
        first = assignments.loc[(assignments["qid"] == qid) & (assignments["docno"] == run), "source"].iloc[0]
        raise ValueError(f"{source}: run {run!r} on topic {qid!r} is assigned in {first} too; give each answer once")
    manual = load_assignments(args.manual) if args.manual else None
    table = run_scores(assignments)
    per_topic = per_topic_nugget_scores(assignments)
    source = ", ".join(args.assignments) if len(args.assignments) <= 2 else f"{len(args.assignments)} files"
    print(f"{len(assignments)} answers of {assignments['docno'].nunique()} runs to {assignments['qid'].nunique()} "
          f"topics from {source}")
    if manual is None:
        print(format_run_table(table))
    else:
        by_hand = manual_scores(per_topic, manual, args.manual, command=COMMAND)
        first = Path(args.assignments[0]).name if len(args.assignments) == 1 else f"{len(args.assignments)} files"
        print(format_comparison(per_topic, by_hand, confidence=args.confidence, manual_source=Path(args.manual).name,
                                automatic_source=first))
    write_outputs([(table, args.output, "Run table"), (per_topic, args.per_topic, "Per-topic scores")])
    return 0


__all__ = ["FLAT_SUFFIXES", "build_parser", "load_assignments", "score_main"]
