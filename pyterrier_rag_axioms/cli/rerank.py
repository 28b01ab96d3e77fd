"""``rag-axioms rerank``: rank each query's responses of a file by axioms, and print or save the ranking."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import pandas as pd

from pyterrier_rag_axioms.cli._cache_option import use_cache_option
from pyterrier_rag_axioms.cli._declared_option import add_declared_option, given_options
from pyterrier_rag_axioms.cli._errors import CommandLineError, CommandLineParser
from pyterrier_rag_axioms.cli._judge_options import add_judge_options, combine_name, preference_source
from pyterrier_rag_axioms.cli._printing import printable, shorten
from pyterrier_rag_axioms.cli._progress import resolve_progress
from pyterrier_rag_axioms.cli._sample import SAMPLE_PATH
from pyterrier_rag_axioms.reranking.run_files import check_output, check_trec_ids, is_trec_run_path, write_ranking

#: The axioms combined when ``--axioms`` is not given.
DEFAULT_RERANK_AXIOMS = ("COV1", "CONS2", "CORR1")

def format_ranking(group: pd.DataFrame, *, width: int = 90) -> str:
    """A readable table of one query's ranked responses."""
    docnos = [printable(docno) for docno in group["docno"]]
    docno_width = max([len(docno) for docno in docnos] + [5])
    lines = [f"  {'rank':>4}  {'docno':<{docno_width}}  {'score':>6}  response"]
    for row, docno in zip(group.itertuples(index=False), docnos):
        lines.append(
            f"  {row.rank:>4}  {docno:<{docno_width}}  {row.score:>6.2f}  {shorten(row.response, width)}"
        )
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = CommandLineParser(
        prog="rag-axioms rerank",
        description=(
            "Rank each query's responses by axioms: the axioms' preferences are combined into one "
            "(--combine) and turned into a ranking by KwikSort or by counting wins and losses (--method)."
        ),
    )
    parser.add_argument(
        "input", nargs="?", default=str(SAMPLE_PATH),
        help="response file (JSONL, TSV or Parquet), TREC 2024 RAG run file or assignment file (default: the shipped "
        "sample)",
    )
    from pyterrier_rag_axioms.reranking import AxiomaticReranker

    add_declared_option(parser, AxiomaticReranker, "method", help="ranking method")
    add_declared_option(parser, AxiomaticReranker, "pivot", help="KwikSort's pivot", given_only=True)
    add_declared_option(parser, AxiomaticReranker, "seed", help="seed of KwikSort's random pivots", given_only=True)
    parser.add_argument(
        "--output", help="save the ranking: a TREC run file (.run, .txt, .trec) or a frame (.jsonl, .tsv, .parquet)"
    )
    add_declared_option(parser, write_ranking, "run_name", help="run name in a TREC run file")
    add_judge_options(parser, default_axioms=DEFAULT_RERANK_AXIOMS)
    return parser


def rerank_main(argv: Sequence[str]) -> int:
    """Rank the responses of a file by combined axiom preferences; print per query and optionally save."""
    args = build_parser().parse_args(argv)
    resolve_progress(args)

    from pyterrier_rag_axioms.cli.inputs import read_response_input
    from pyterrier_rag_axioms.frames import response_frame
    from pyterrier_rag_axioms.reranking import AxiomaticReranker

    use_cache_option(args)
    if args.output:
        check_output(args.output, run_name=args.run_name, inputs=[args.input or SAMPLE_PATH, args.model])
    kwiksort = given_options(args, "pivot", "seed")
    if args.method != "kwiksort" and kwiksort:
        raise CommandLineError(f"--pivot and --seed are KwikSort's: leave them out with --method {args.method}")
    source = preference_source(args, default_axioms=DEFAULT_RERANK_AXIOMS)
    reranker = AxiomaticReranker(source, method=args.method, **kwiksort, verbose=args.verbose)

    raw = read_response_input([args.input])
    responses = response_frame(raw)
    if args.output and is_trec_run_path(args.output):
        check_trec_ids(responses, args.output)  # before any judging
    ranking = reranker(raw)
    print(f"{len(responses)} responses to {responses['qid'].nunique()} queries from {args.input}")
    if args.model:
        judge = f"the preference model {printable(args.model)}"
    else:
        axioms = printable(args.axioms) if args.axioms else ",".join(DEFAULT_RERANK_AXIOMS)
        judge = f"the axioms {axioms} ({combine_name(args)})"
    print(f"Ranked by {args.method} over the preferences of {judge}\n")
    for qid, group in ranking.groupby("qid", sort=False):
        print(f"[{printable(qid)}] {printable(group['query'].iloc[0])}")
        print(format_ranking(group))
        print()
    if args.output:
        write_ranking(ranking, args.output, run_name=args.run_name)
        print(f"Ranking written to {args.output}")
    return 0
