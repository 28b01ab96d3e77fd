"""``rag-axioms rerank``: rank each query's responses of a file by axioms, and print or save the ranking."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from pyterrier_rag_axioms.cli._common import SAMPLE_PATH, build_axioms, quiet_model_loading, shorten

#: The axioms combined when ``--axioms`` is not given.
DEFAULT_RERANK_AXIOMS = ("COV1", "CONS2", "CORR1")

#: Suffixes written as TREC run files; every other suffix goes to :func:`~pyterrier_rag_axioms.io.write_frame`.
TREC_RUN_SUFFIXES = (".run", ".txt", ".trec")


def write_ranking(ranking: pd.DataFrame, path: str | Path, *, run_name: str) -> None:
    """Write a result frame as a TREC run file (``.run``, ``.txt``, ``.trec``) or as JSONL, TSV or Parquet."""
    import pyterrier as pt

    from pyterrier_rag_axioms.io import write_frame

    path = Path(path)
    if path.suffix.lower() in TREC_RUN_SUFFIXES:
        path.parent.mkdir(parents=True, exist_ok=True)
        pt.io.write_results(ranking[["qid", "docno", "score", "rank"]], str(path), format="trec", run_name=run_name)
    else:
        write_frame(ranking, path)


def format_ranking(group: pd.DataFrame, *, width: int = 90) -> str:
    """A readable table of one query's ranked responses."""
    docno_width = max([len(docno) for docno in group["docno"]] + [5])
    lines = [f"  {'rank':>4}  {'docno':<{docno_width}}  {'score':>6}  response"]
    for row in group.itertuples(index=False):
        lines.append(
            f"  {row.rank:>4}  {row.docno:<{docno_width}}  {row.score:>6.2f}  {shorten(row.response, width)}"
        )
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rag-axioms rerank",
        description=(
            "Rank each query's responses by axioms: the axioms' preferences are combined into one "
            "(--combine) and turned into a ranking by KwikSort or by counting wins and losses (--method)."
        ),
    )
    parser.add_argument("input", nargs="?", default=str(SAMPLE_PATH), help="response file (JSONL, TSV or Parquet)")
    parser.add_argument(
        "--axioms",
        default=",".join(DEFAULT_RERANK_AXIOMS),
        help="comma-separated short names (default: %(default)s)",
    )
    parser.add_argument(
        "--combine",
        default="majority",
        choices=["majority", "cascade", "conjunction", "weighted"],
        help="how the axioms' preferences are combined (default: %(default)s; cascade asks them in the given order)",
    )
    parser.add_argument("--weights", help="comma-separated weights, one per axiom, for --combine weighted")
    parser.add_argument(
        "--min-decisive-share",
        type=float,
        default=0.5,
        help="for --combine majority: the least share of axioms that must prefer a response (default: %(default)s)",
    )
    parser.add_argument("--method", default="kwiksort", choices=["kwiksort", "count"], help="ranking method")
    parser.add_argument("--pivot", default="random", choices=["first", "middle", "last", "random"])
    parser.add_argument("--seed", type=int, default=0, help="seed of KwikSort's random pivots")
    parser.add_argument(
        "--output", help="save the ranking: a TREC run file (.run, .txt, .trec) or a frame (.jsonl, .tsv, .parquet)"
    )
    parser.add_argument("--run-name", default="rag-axioms", help="run name in a TREC run file (default: %(default)s)")
    parser.add_argument("--languagetool-url", help="URL of a LanguageTool server, needed by CLAR1")
    parser.add_argument(
        "--aspects", default="noun_chunks", choices=["noun_chunks", "noun_chunks_with_pronouns", "entities"]
    )
    parser.add_argument("--verbose", action="store_true", help="show progress")
    return parser


def rerank_main(argv: Sequence[str]) -> int:
    """Rank the responses of a file by combined axiom preferences; print per query and optionally save."""
    args = build_parser().parse_args(argv)

    from pyterrier_rag_axioms.aggregation import MajorityVote, WeightedSum
    from pyterrier_rag_axioms.frames import response_frame
    from pyterrier_rag_axioms.io import read_responses
    from pyterrier_rag_axioms.registry import COMBINATORS
    from pyterrier_rag_axioms.reranking import AxiomaticReranker

    if not args.verbose:
        quiet_model_loading()
    names = [name.strip() for name in args.axioms.split(",") if name.strip()]
    if not names:
        raise SystemExit("rag-axioms rerank: --axioms needs at least one axiom")
    axioms = build_axioms(names, languagetool_url=args.languagetool_url, aspects=args.aspects, verbose=args.verbose)
    if args.weights and args.combine != "weighted":
        raise SystemExit("rag-axioms rerank: --weights needs --combine weighted")
    if args.combine == "weighted":
        weights = None
        if args.weights:
            try:
                weights = [float(weight) for weight in args.weights.split(",")]
            except ValueError:
                raise SystemExit(f"rag-axioms rerank: --weights must be numbers, not {args.weights!r}") from None
        try:
            source = WeightedSum(*axioms, weights=weights, verbose=args.verbose)
        except ValueError as error:
            raise SystemExit(f"rag-axioms rerank: {error}") from None
    elif args.combine == "majority":
        source = MajorityVote(*axioms, min_decisive_share=args.min_decisive_share, verbose=args.verbose)
    else:
        source = COMBINATORS[args.combine](*axioms, verbose=args.verbose)
    reranker = AxiomaticReranker(source, method=args.method, pivot=args.pivot, seed=args.seed, verbose=args.verbose)

    raw = read_responses(args.input)
    responses = response_frame(raw)
    ranking = reranker(raw)
    print(f"{len(responses)} responses to {responses['qid'].nunique()} queries from {args.input}")
    print(f"Ranked by {reranker}\n")
    for qid, group in ranking.groupby("qid", sort=False):
        print(f"[{qid}] {group['query'].iloc[0]}")
        print(format_ranking(group))
        print()
    if args.output:
        write_ranking(ranking, args.output, run_name=args.run_name)
        print(f"Ranking written to {args.output}")
    return 0
