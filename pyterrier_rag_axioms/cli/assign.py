"""``rag-axioms assign``: score TREC RAG runs by nuggets assigned without an LLM.

TREC 2024 RAG run files (JSON lines, one answer per topic) and a nugget file in; each answer's
nuggets are assigned by :class:`~pyterrier_rag_axioms.nuggets.NuggetAssigner`, and each run's
mean nugget scores over its topics come out: All, Vital and Weighted, each also strict (partial
support counting 0), ranked by the All score. ``rag-axioms runs --nuggets`` reads human
assignments instead.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import pandas as pd

from pyterrier_rag_axioms.cli._common import (
    CommandLineParser,
    add_cache_option,
    add_progress_options,
    printable,
    resolve_progress,
    use_cache_option,
)

#: The command's name in its notes and errors.
COMMAND = "rag-axioms assign"
#: The score columns of the run table, in order.
SCORE_COLUMNS: tuple[tuple[str, str, bool], ...] = (
    ("all", "all", False), ("vital", "vital", False), ("weighted", "weighted", False),
    ("all_strict", "all", True), ("vital_strict", "vital", True), ("weighted_strict", "weighted", True),
)


def build_parser() -> argparse.ArgumentParser:
    parser = CommandLineParser(
        prog=COMMAND,
        description="Assign nuggets to the answers of TREC 2024 RAG run files without an LLM, and score each run.",
    )
    parser.add_argument("runs", nargs="+", metavar="RUN", help="TREC 2024 RAG run file(s) (JSON lines, gzip or not)")
    parser.add_argument(
        "--nuggets", metavar="FILE", required=True,
        help="nugget file (JSON lines: one topic per line with 'nuggets', or one nugget per line)",
    )
    parser.add_argument("--topics", metavar="FILE", help="topics file (qid<TAB>query) for lines without 'topic'")
    parser.add_argument("--model", metavar="FILE", help="a fitted nugget model (JSON; default: the shipped one)")
    parser.add_argument("--sentence-model", metavar="NAME", help="sentence-transformers model name or path")
    parser.add_argument("--assignments", metavar="FILE", help="also save each (answer, nugget) assignment")
    parser.add_argument("--output", metavar="FILE", help="save the run table (.jsonl, .tsv or .parquet)")
    add_progress_options(parser)
    add_cache_option(parser)
    return parser


def run_scores(assignments: pd.DataFrame) -> pd.DataFrame:
    """Each run's mean nugget scores over its topics, ranked by the All score (``docno`` is the run id)."""
    from pyterrier_rag_axioms.evaluation.runs import mean_run_scores
    from pyterrier_rag_axioms.judgments import nugget_scores

    table = None
    for column, score_type, strict in SCORE_COLUMNS:
        means = mean_run_scores(nugget_scores(assignments, score_type=score_type, strict=strict))
        means = means.rename(columns={"score": column})
        if table is None:
            table = means[["run", "topics", column]]
        else:
            table = table.merge(means[["run", column]], on="run", how="left")
    table = table.sort_values(["all", "run"], ascending=[False, True], kind="stable").reset_index(drop=True)
    return table.assign(rank=range(1, len(table) + 1))


def assign_main(argv: Sequence[str]) -> int:
    """Score the runs of TREC 2024 RAG run files by automatically assigned nuggets.

    Everything that can be checked is checked before the work: each output against the inputs and
    against the other output, each output's folder, the nugget file, the run files and the model
    (strictly, and against the sentence model in use).
    """
    args = build_parser().parse_args(argv)
    resolve_progress(args)

    from pyterrier_rag_axioms.io import check_output_paths, format_of
    from pyterrier_rag_axioms.judgments import load_run_files
    from pyterrier_rag_axioms.nuggets import NuggetAssigner

    inputs = [*args.runs, args.nuggets, args.topics, args.model]
    outputs = {"--assignments": args.assignments, "--output": args.output}
    for path in outputs.values():
        if path:
            format_of(path)  # an unknown output format fails before any work
    check_output_paths(outputs, inputs=inputs)
    use_cache_option(args)
    responses = load_run_files(args.runs, topics=args.topics)
    assigner = NuggetAssigner(
        nuggets=args.nuggets, model=args.model, sentence_model=args.sentence_model, verbose=args.verbose
    )
    assignments = assigner(responses[["qid", "query", "docno", "response"]])
    table = run_scores(assignments)
    print(
        f"{len(responses)} answers of {responses['docno'].nunique()} runs to {responses['qid'].nunique()} topics; "
        f"{len(assignments)} (answer, nugget) pairs assigned without an LLM"
    )
    with pd.option_context("display.width", 200, "display.max_columns", 20, "display.max_rows", 500):
        shown = table.assign(run=table["run"].map(printable))  # run ids drive no terminal
        print(shown.to_string(index=False, float_format=lambda value: f"{value:.3f}"))
    write_outputs([(table, args.output, "Run table"), (assignments, args.assignments, "Assignments")])
    return 0


def write_outputs(outputs: Sequence[tuple[pd.DataFrame, str | None, str]]) -> None:
    """Write each (frame, path, what) whose path is given, each atomically; one that fails loses no other.

    Every output is attempted, and each one written is noted; then the first failure is raised.
    """
    from pyterrier_rag_axioms.io import write_frame

    failures: list[Exception] = []
    for frame, path, what in outputs:
        if not path:
            continue
        try:
            write_frame(frame, path)
        except (OSError, ValueError) as error:
            failures.append(error)
            continue
        print(f"{what} written to {path}")
    if failures:
        raise failures[0]
