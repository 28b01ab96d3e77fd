"""``rag-axioms runs``: rank RAG systems (runs) by a judge of their responses.

The responses of a file come from several runs, one response per run and topic, with the run id
as ``docno`` (as in TREC 2024 RAG answers). The default judge, the run judge
``PreferenceModel.default("nuggets")``, pools each topic's responses (pool axioms) and scores
each response (pointwise); each run's mean score over topics ranks it
(:func:`~pyterrier_rag_axioms.evaluation.run_scores`). With ``--ranking pairwise``, or with
``--axioms``, the judge compares every pair of a topic's responses and each run's win rate per
topic is averaged over topics (:func:`~pyterrier_rag_axioms.evaluation.run_win_rates`).
With ``--nuggets`` (TREC 2024 RAG nugget assignments), the runs' mean nugget score stands next to
it, with Kendall's tau between both rankings and its bootstrap interval over topics; the
assignment file alone can also be the input, as it holds the answers. The input may be response
files, TREC 2024 RAG run files (one per run) or assignment files; without any, the TREC 2024 RAG
sample shipped in the package (eight runs, two topics, NIST's assignments as ``--nuggets``).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import pandas as pd

from pyterrier_rag_axioms.cli._cache_option import use_cache_option
from pyterrier_rag_axioms.cli._declared_option import add_declared_option
from pyterrier_rag_axioms.cli._errors import CommandLineError, CommandLineParser
from pyterrier_rag_axioms.cli._judge_options import add_judge_options, chose_axioms, combine_name, preference_source
from pyterrier_rag_axioms.cli._printing import print_note, printable
from pyterrier_rag_axioms.cli._processes_option import add_processes_option
from pyterrier_rag_axioms.cli._progress import resolve_progress
from pyterrier_rag_axioms.cli.inputs import read_response_input

#: The command's name in its notes and errors.
COMMAND = "rag-axioms runs"

#: The judge when neither ``--model`` nor ``--axioms`` is given: the model fitted on nugget preferences.
DEFAULT_RUNS_MODEL = "nuggets"


def build_parser() -> argparse.ArgumentParser:
    parser = CommandLineParser(
        prog=COMMAND,
        description=(
            "Rank runs (docno or run_id is the run id) by the mean score per response of a judge (default: the "
            f"shipped model {DEFAULT_RUNS_MODEL}; with --axioms or --ranking pairwise, by win rate against the other "
            "runs' responses to the same topic), and compare the ranking with mean nugget scores (--nuggets). "
            "Without input files: the TREC 2024 RAG sample shipped in the package, with its NIST assignments."
        ),
    )
    parser.add_argument(
        "input", nargs="*", metavar="FILE",
        help="response files (JSONL, TSV or Parquet), TREC 2024 RAG run files or assignment files (default: the "
        "answers of --nuggets; without it, the shipped TREC sample)",
    )
    parser.add_argument(
        "--nuggets",
        metavar="FILE",
        help="TREC 2024 RAG nugget assignments (JSONL): each run's mean nugget score and Kendall's tau",
    )
    from pyterrier_rag_axioms.evaluation.comparison import compare_nugget_rankings

    add_declared_option(
        parser, compare_nugget_rankings, "confidence", help="level of tau's bootstrap interval over topics"
    )
    parser.add_argument(
        "--ranking",
        choices=["pointwise", "pairwise"],
        help="rank runs by their mean score per response (pointwise, linear in the responses; the default of a "
        "model, and better in cross-validation) or by win rates over all pairs (pairwise; the default of --axioms)",
    )
    parser.add_argument("--output", help="save the run table (.jsonl, .tsv or .parquet)")
    parser.add_argument(
        "--per-topic", metavar="FILE",
        help="save each run's score per topic (and its nugget score), for paired tests (.jsonl, .tsv or .parquet)",
    )
    parser.add_argument("--topics", metavar="FILE", help="topics file (qid<TAB>query) for run files without 'topic'")
    add_processes_option(parser)
    add_judge_options(parser, default_model=DEFAULT_RUNS_MODEL)
    return parser


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}{'' if number == 1 else 's'}"


def _judge_label(args: argparse.Namespace) -> str:
    """The judge in a few words: the model's name or file, or the axioms and how they combine."""
    if args.model or not chose_axioms(args):
        return f"the preference model {printable(args.model or DEFAULT_RUNS_MODEL)}"
    return f"the axioms {printable(args.axioms) if args.axioms else '(default)'} ({combine_name(args)})"


def format_runs(table: pd.DataFrame, *, with_nuggets: bool, by: str = "win_rate") -> str:
    """A readable table of the ranked runs (by ``win_rate`` or by a pointwise ``judge_score``)."""
    runs = [printable(run) for run in table["run"]]
    width = max([len(run) for run in runs] + [3])
    label = "win rate" if by == "win_rate" else "score"
    header = f"  {'rank':>4}  {'run':<{width}}  {label:>8}  {'topics':>6}"
    if with_nuggets:
        header += f"  {'nugget score':>12}  {'its rank':>8}"
    lines = [header]
    for row, run in zip(table.itertuples(index=False), runs):
        line = f"  {row.rank:>4}  {run:<{width}}  {getattr(row, by):>8.3f}  {row.topics:>6}"
        if with_nuggets:
            rank = "-" if pd.isna(row.nugget_rank) else f"{int(row.nugget_rank)}"
            score = "-" if pd.isna(row.nugget_score) else f"{row.nugget_score:.3f}"
            line += f"  {score:>12}  {rank:>8}"
        lines.append(line)
    return "\n".join(lines)


def runs_main(argv: Sequence[str]) -> int:
    """Rank the runs of a response file by win rate; with ``--nuggets``, next to their mean nugget score."""
    args = build_parser().parse_args(argv)
    resolve_progress(args)

    from pyterrier_rag_axioms.declaration import replaced
    from pyterrier_rag_axioms.evaluation import mean_run_scores, mean_win_rates, run_correlation, win_rates
    from pyterrier_rag_axioms.evaluation.bootstrap import check_confidence
    from pyterrier_rag_axioms.evaluation.comparison import few_topics_warning
    from pyterrier_rag_axioms.frames import response_frame
    from pyterrier_rag_axioms.io import check_output_path, format_of, write_frame
    from pyterrier_rag_axioms.judgments import load_nugget_assignments, nugget_scores
    from pyterrier_rag_axioms.preference import PreferenceModel

    if not args.input and args.nuggets is None:  # the shipped TREC 2024 RAG sample
        from pyterrier_rag_axioms.sample import trec_sample_path, trec_sample_runs

        args.input = [str(path) for path in trec_sample_runs()]
        args.nuggets = str(trec_sample_path("assignments.jsonl"))
    check_confidence(args.confidence, caller="--confidence")
    for path in (args.output, args.per_topic):
        if path:
            format_of(path)  # an unknown output format fails before any judging
            check_output_path(path, inputs=[*args.input, args.nuggets, args.model, args.topics])
    use_cache_option(args)
    judge = preference_source(args, default_model=DEFAULT_RUNS_MODEL)
    pointwise = isinstance(judge, PreferenceModel) and args.ranking != "pairwise"
    if args.ranking == "pointwise" and not pointwise:
        raise CommandLineError("--ranking pointwise needs a model's per-response scores: give --model, not --axioms")
    if args.processes and not pointwise:
        raise CommandLineError("--processes splits the topics of a model's per-response scores (--ranking pointwise, "
                               "a model's default); the pairwise ranking runs in this process: leave --processes out")
    if args.processes:
        judge = replaced(judge, processes=args.processes)

    assignments = load_nugget_assignments(args.nuggets) if args.nuggets else None
    source = ", ".join(args.input) if len(args.input) <= 2 else f"{len(args.input)} files"
    source = source or args.nuggets
    if args.input:
        responses = response_frame(read_response_input(args.input, topics=args.topics))
    else:
        responses = response_frame(assignments[["qid", "query", "docno", "response"]])
    topics = responses["qid"].nunique()
    scores = None
    if assignments is not None:
        scores = nugget_scores(assignments).rename(columns={"docno": "run"})
        unjudged = sorted(set(responses["qid"]) - set(scores["qid"]))
        if unjudged:
            raise CommandLineError(
                f"{args.nuggets}: no nugget assignments for {len(unjudged)} of the {topics} topics of {source} "
                f"(e.g. qid {unjudged[0]!r}); give the assignments of every topic, or leave out --nuggets"
            )
        # the runs and topics of the input only: ranks and tau compare the same runs
        scores = scores[scores["qid"].isin(set(responses["qid"])) & scores["run"].isin(set(responses["docno"]))]
        without = [not any(nugget.get("counted", True) for nugget in nuggets) for nuggets in assignments["nuggets"]]
        unscored = assignments[without]
        unscored = unscored[unscored["qid"].isin(set(scores["qid"])) & unscored["docno"].isin(set(scores["run"]))]
        if len(unscored):
            example = unscored.iloc[0]
            print_note(
                COMMAND,
                f"{_count(len(unscored), 'answer')} without nuggets that count in {args.nuggets} (e.g. run "
                f"{example['docno']!r} on topic {example['qid']!r}): scored 0 in their runs' mean nugget scores",
            )

    if pointwise:
        score = "judge_score"
        per_topic = judge.scores(responses).rename(columns={"docno": "run", f"{judge.name}_score": score})
        table = mean_run_scores(per_topic, score=score, run="run")
    else:
        score = "win_rate"
        per_topic = win_rates(judge(responses), judge)
        table = mean_win_rates(per_topic)
    print(
        f"{len(responses)} responses of {responses['docno'].nunique()} runs to {topics} topics from {source}"
    )
    how = "mean score per response" if pointwise else "win rate"
    print(f"Runs ranked by the {how} of {_judge_label(args)}\n")
    if scores is not None:
        nuggets = mean_run_scores(scores, run="run").rename(columns={"score": "nugget_score", "rank": "nugget_rank"})
        table = table.merge(nuggets[["run", "nugget_score", "nugget_rank"]], on="run", how="left")
    print(format_runs(table, with_nuggets=scores is not None, by=score))
    alone = sorted(set(responses["docno"]) - set(table["run"]))
    if alone:
        print_note(
            COMMAND,
            f"{_count(len(alone), 'run')} without a win rate, since no other run answers any of its topics: "
            + ", ".join(alone[:5]) + (", ..." if len(alone) > 5 else ""),
        )
    if topics > 1 and table["topics"].max() == 1:
        print_note(COMMAND, f"no run answers more than one of the {topics} topics: is docno the run id in {source}?")
    if scores is not None:
        tau = run_correlation(per_topic, scores, score_first=score, score_second="score", confidence=args.confidence)
        print(
            f"\nKendall's tau between the {'scores' if pointwise else 'win rates'} and the mean nugget scores: "
            f"{tau['tau']:.3f} over {tau['runs']} "
            f"runs ({args.confidence:.0%} bootstrap interval over {tau['topics']} topics: "
            f"{tau['tau_low']:.3f} to {tau['tau_high']:.3f})"
        )
        warning = few_topics_warning(tau["topics"], args.confidence)
        if warning:
            print(warning)
    if args.output:
        write_frame(table, args.output)
        print(f"Run table written to {args.output}")
    if args.per_topic:
        per_topic_table = per_topic[["qid", "run", score]]
        if scores is not None:
            per_topic_table = per_topic_table.merge(
                scores[["qid", "run", "score"]].rename(columns={"score": "nugget_score"}), on=["qid", "run"], how="left"
            )
        write_frame(per_topic_table, args.per_topic)
        print(f"Per-topic scores written to {args.per_topic}")
    return 0
