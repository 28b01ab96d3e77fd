"""``rag-axioms assign``: score TREC RAG runs by nuggets assigned without an LLM.

TREC 2024 RAG run files (JSON lines, one answer per topic) and a nugget file in; each answer's
nuggets are assigned by :class:`~pyterrier_rag_axioms.nuggets.NuggetAssigner`, and each run's
mean nugget scores over its topics come out: All, Vital and Weighted, each also strict (partial
support counting 0), ranked by the All score. With ``--manual`` (assignments by people, e.g.
NIST's), both sides stand in one table with Kendall's tau between their rankings. Without run
files, the TREC 2024 RAG sample shipped in the package is scored, and compared with its NIST
assignments. Only the topics with nuggets are scored, as TREC scores the judged topics only (a
run file answers all 301 topics of TREC 2024 RAG, NIST judged 21); a note says how many were
left out. ``--assignments FILE.jsonl`` writes nuggetizer's assign format, which
``rag-axioms runs --nuggets`` and nuggetizer's scorer read; ``.tsv`` or ``.parquet`` the flat table.
With ``--judge``, the run judge scores the same answers on the same parses
(:func:`~pyterrier_rag_axioms.track.judge_and_assign`): its mean score and rank stand in the run
table, with Kendall's tau between its ranking and the assigned nuggets'.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path

import pandas as pd

from pyterrier_rag_axioms.cli._cache_option import add_cache_option, use_cache_option
from pyterrier_rag_axioms.cli._declared_option import add_declared_option
from pyterrier_rag_axioms.cli._errors import CommandLineError, CommandLineParser
from pyterrier_rag_axioms.cli._printing import print_note
from pyterrier_rag_axioms.cli._processes_option import add_processes_option
from pyterrier_rag_axioms.cli._progress import add_progress_options, resolve_progress
from pyterrier_rag_axioms.cli.nugget_report import format_comparison, format_judge_table, format_run_table

#: The command's name in its notes and errors.
COMMAND = "rag-axioms assign"


def build_parser() -> argparse.ArgumentParser:
    parser = CommandLineParser(
        prog=COMMAND,
        description="Assign nuggets to the answers of TREC 2024 RAG run files without an LLM, and score each run.",
    )
    parser.add_argument(
        "runs", nargs="*", metavar="RUN",
        help="TREC 2024 RAG run file(s) (JSON lines, gzip or not; default: the shipped sample's eight runs, with "
        "its nuggets and, unless other --nuggets are given, its NIST assignments as --manual)",
    )
    parser.add_argument(
        "--nuggets", metavar="FILE",
        help="nugget file (JSON lines: one topic per line with 'nuggets' as nuggetizer's create writes it, one "
        "nugget per line, or an assignment file); needed with run files",
    )
    parser.add_argument(
        "--manual", metavar="FILE",
        help="assignments by people (nuggetizer's assign format, e.g. NIST's): print both rankings with Kendall's "
        "tau, its bootstrap interval over topics and tau within each topic",
    )
    from pyterrier_rag_axioms.evaluation.comparison import compare_nugget_rankings

    add_declared_option(
        parser, compare_nugget_rankings, "confidence",
        help="with --manual: level of tau's bootstrap interval over topics",
    )
    parser.add_argument(
        "--judge", action="store_true",
        help="also judge the answers with the run judge (PreferenceModel.default('nuggets')) on the same parses, "
        "rank the runs by its mean score, and print Kendall's tau between its ranking and the assigned nuggets'",
    )
    parser.add_argument("--topics", metavar="FILE", help="topics file (qid<TAB>query) for lines without 'topic'")
    parser.add_argument("--model", metavar="FILE", help="a fitted nugget model (JSON; default: the shipped one)")
    parser.add_argument(
        "--encoder", metavar="MODEL[:BACKEND]",
        help="the sentence encoder: a sentence-transformers model name or path, and optionally a backend "
        "(torch, onnx, onnx-int8, onnx-int8-per-channel, static), e.g. all-MiniLM-L6-v2:onnx-int8 "
        "(default: all-MiniLM-L6-v2 with onnx)",
    )
    parser.add_argument("--sentence-model", dest="encoder", help=argparse.SUPPRESS)  # its name before --encoder
    parser.add_argument(
        "--assignments", metavar="FILE",
        help="also save the assignments: .jsonl in nuggetizer's assign format (one answer per line), .tsv or "
        ".parquet as one row per (answer, nugget)",
    )
    parser.add_argument("--output", metavar="FILE", help="save the run table (.jsonl, .tsv or .parquet)")
    parser.add_argument(
        "--per-topic", metavar="FILE",
        help="save each run's scores per topic (qid, run, the scores; with --manual also the manual ones), for "
        "paired significance tests (.jsonl, .tsv or .parquet)",
    )
    add_progress_options(parser)
    add_cache_option(parser)
    add_processes_option(parser)
    return parser


def run_scores(assignments: pd.DataFrame) -> pd.DataFrame:
    """Each run's mean nugget scores over the topics, ranked by the All score (``docno`` is the run id;
    see :func:`~pyterrier_rag_axioms.evaluation.comparison.run_nugget_table`: a topic a run lacks counts 0)."""
    from pyterrier_rag_axioms.evaluation.comparison import per_topic_nugget_scores, run_nugget_table

    return run_nugget_table(per_topic_nugget_scores(assignments))


def _sample_arguments(args: argparse.Namespace) -> None:
    """Without run files: the shipped TREC 2024 RAG sample's runs, nuggets and (as --manual) NIST's assignments."""
    from pyterrier_rag_axioms.sample import trec_sample_path, trec_sample_runs

    if args.nuggets is None:
        args.nuggets = str(trec_sample_path("nuggets.jsonl"))
        args.manual = args.manual or str(trec_sample_path("assignments.jsonl"))
    args.runs = [str(path) for path in trec_sample_runs()]


def manual_scores(per_topic: pd.DataFrame, manual: pd.DataFrame, source: str, *, command: str) -> pd.DataFrame:
    """The per-topic scores of the manual assignments of the answers that ``per_topic`` scores; a note says how
    many of those answers the manual file lacks.

    Raises:
        CommandLineError: the manual file assigns none of the answers.
    """
    from pyterrier_rag_axioms.evaluation.comparison import per_topic_nugget_scores

    by_hand = per_topic_nugget_scores(manual)
    answered = set(zip(per_topic["qid"], per_topic["run"]))
    by_hand = by_hand[[key in answered for key in zip(by_hand["qid"], by_hand["run"])]]
    if by_hand.empty:
        raise CommandLineError(f"{source}: assigns nuggets to none of the runs' answers (qid and run_id)")
    if len(answered) > len(by_hand):
        print_note(command, f"{len(answered) - len(by_hand)} of the {len(answered)} answers have no manual "
                   f"assignments in {source}: a run's manual mean counts a topic it lacks as 0 (TREC's rule)")
    return by_hand


def _write_assignments(assignments: pd.DataFrame, responses: pd.DataFrame, path: str) -> None:
    """nuggetizer's assign format for JSON lines, the flat table (one row per answer and nugget) otherwise."""
    from pyterrier_rag_axioms.io import format_of, write_frame
    from pyterrier_rag_axioms.judgments.nuggetizer import write_assign_file

    if format_of(path) == "jsonl":
        write_assign_file(assignments, responses, path)
    else:
        write_frame(assignments, path)


def judged_only(responses: pd.DataFrame, nuggets: pd.DataFrame, source: str) -> pd.DataFrame:
    """The answers to the topics that have nuggets, as TREC scores runs: a run file answers every topic
    (301 in TREC 2024 RAG), the assessors judge some (21 in NIST's assignments). A note on stderr says
    how many topics were left out.

    Raises:
        CommandLineError: no topic of the answers has nuggets (the wrong nugget file, most likely).
    """
    judged = set(nuggets["qid"])
    topics = list(dict.fromkeys(responses["qid"]))
    unjudged = [qid for qid in topics if qid not in judged]
    if not unjudged:
        return responses
    if len(unjudged) == len(topics):
        raise CommandLineError(
            f"{source}: has nuggets for none of the {len(topics)} topics of the run files (e.g. qid {unjudged[0]!r}); "
            "give the nugget file of these topics"
        )
    print_note(COMMAND, f"{len(unjudged)} of the {len(topics)} topics of the run files have no nuggets in {source} "
               f"(e.g. qid {unjudged[0]!r}): left out, as TREC scores the judged topics only")
    return responses[responses["qid"].isin(judged)].reset_index(drop=True)


def assign_main(argv: Sequence[str]) -> int:
    """Score the runs of TREC 2024 RAG run files by automatically assigned nuggets.

    Everything that can be checked is checked before the work: each output against the inputs and
    against the other output, each output's folder, the nugget file, the run files and the model
    (strictly, and against the encoder in use).
    """
    args = build_parser().parse_args(argv)
    resolve_progress(args)

    from pyterrier_rag_axioms.evaluation.bootstrap import check_confidence
    from pyterrier_rag_axioms.evaluation.comparison import per_topic_nugget_scores
    from pyterrier_rag_axioms.io import check_output_paths, format_of
    from pyterrier_rag_axioms.judgments import load_nugget_assignments, load_run_files
    from pyterrier_rag_axioms.nuggets import NuggetAssigner

    if not args.runs:
        _sample_arguments(args)
    elif args.nuggets is None:
        raise CommandLineError("give the topics' nuggets with --nuggets FILE (run files hold none)")
    check_confidence(args.confidence, caller="--confidence")
    inputs = [*args.runs, args.nuggets, args.topics, args.model, args.manual]
    outputs = {"--assignments": args.assignments, "--output": args.output, "--per-topic": args.per_topic}
    for path in outputs.values():
        if path:
            format_of(path)  # an unknown output format fails before any work
    check_output_paths(outputs, inputs=inputs)
    manual = load_nugget_assignments(args.manual) if args.manual else None
    use_cache_option(args)
    responses = load_run_files(args.runs, topics=args.topics)
    assigner = NuggetAssigner(
        nuggets=args.nuggets, model=args.model, encoder=args.encoder, verbose=args.verbose,
        processes=args.processes,
    )
    responses = judged_only(responses, assigner.nugget_frame, args.nuggets)
    judge_scores = None
    if args.judge:
        from pyterrier_rag_axioms.preference import PreferenceModel
        from pyterrier_rag_axioms.track import judge_and_assign

        judge = PreferenceModel.default("nuggets")
        assignments, judge_scores = judge_and_assign(
            responses[["qid", "query", "docno", "response"]], assigner, judge, processes=args.processes,
            verbose=args.verbose)
        judge_scores = judge_scores.rename(columns={"docno": "run", f"{judge.name}_score": "judge_score"})
    else:
        assignments = assigner(responses[["qid", "query", "docno", "response"]])
    table = run_scores(assignments)
    per_topic = per_topic_nugget_scores(assignments)
    agreement = None
    if judge_scores is not None:
        table = _with_judge(table, judge_scores)
        agreement = _judge_agreement(judge_scores, per_topic, args.confidence)
        per_topic = per_topic.merge(judge_scores[["qid", "run", "judge_score"]], on=["qid", "run"], how="left")
    print(
        f"{len(responses)} answers of {responses['docno'].nunique()} runs to {responses['qid'].nunique()} topics; "
        f"{len(assignments)} (answer, nugget) pairs assigned without an LLM"
    )
    if manual is None:
        print(format_run_table(table))
    else:
        by_hand = manual_scores(per_topic, manual, args.manual, command=COMMAND)
        print(format_comparison(per_topic, by_hand, confidence=args.confidence, manual_source=Path(args.manual).name))
        if judge_scores is not None:  # the run table's judge columns, which the comparison has no room for
            print(format_judge_table(table))
        scores = [column for column in per_topic.columns if column not in ("qid", "run")]
        per_topic = per_topic.rename(columns={column: f"auto_{column}" for column in scores}).merge(
            by_hand.rename(columns={column: f"manual_{column}" for column in scores}), on=["qid", "run"], how="left"
        )
    if agreement is not None:
        print(agreement)
    write_outputs([
        (table, args.output, "Run table"),
        (lambda path: _write_assignments(assignments, responses, path), args.assignments, "Assignments"),
        (per_topic, args.per_topic, "Per-topic scores"),
    ])
    return 0


def _with_judge(table: pd.DataFrame, judge_scores: pd.DataFrame) -> pd.DataFrame:
    """The run table with each run's mean run-judge score and the rank it gives (``judge_score``, ``judge_rank``)."""
    from pyterrier_rag_axioms.evaluation.runs import mean_run_scores

    judged = mean_run_scores(judge_scores, score="judge_score", run="run")
    return table.merge(judged[["run", "judge_score", "rank"]].rename(columns={"rank": "judge_rank"}), on="run",
                       how="left")


def _judge_agreement(judge_scores: pd.DataFrame, per_topic: pd.DataFrame, confidence: float) -> str:
    """Kendall's tau between the run judge's ranking and the assigned nuggets' (All), with its interval."""
    from pyterrier_rag_axioms.evaluation.comparison import few_topics_warning
    from pyterrier_rag_axioms.evaluation.correlation import run_correlation

    tau = run_correlation(judge_scores[["qid", "run", "judge_score"]], per_topic[["qid", "run", "all"]],
                          score_first="judge_score", score_second="all", confidence=confidence)
    line = (f"\nKendall's tau between the run judge's ranking and the assigned nuggets' (all): {tau['tau']:.3f} over "
            f"{tau['runs']} runs ({confidence:.0%} bootstrap interval over {tau['topics']} topics: "
            f"{tau['tau_low']:.3f} to {tau['tau_high']:.3f})")
    warning = few_topics_warning(tau["topics"], confidence)
    return line + (f"\n{warning}" if warning else "")


def write_outputs(outputs: Sequence[tuple[pd.DataFrame | Callable[[str], None], str | None, str]]) -> None:
    """Write each (frame or writer, path, what) whose path is given, each atomically; one that fails loses no other.

    Every output is attempted, and each one written is noted; then the first failure is raised.
    """
    from pyterrier_rag_axioms.io import write_frame

    failures: list[Exception] = []
    for frame, path, what in outputs:
        if not path:
            continue
        try:
            if callable(frame):
                frame(path)
            else:
                write_frame(frame, path)
        except (OSError, ValueError) as error:
            failures.append(error)
            continue
        print(f"{what} written to {path}")
    if failures:
        raise failures[0]
