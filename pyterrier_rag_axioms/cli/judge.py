"""``rag-axioms [FILE]``: judge the responses of a file with axioms and print or save preferences.

Without a file, it runs on the sample shipped inside the package.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import pandas as pd

from pyterrier_rag_axioms.cli._common import SAMPLE_PATH, build_axioms, quiet_model_loading, shorten
from pyterrier_rag_axioms.registry import RAG_AXIOMS

#: The axioms run when ``--axioms`` is not given (CLAR1 only with a LanguageTool server).
DEFAULT_AXIOMS = tuple(RAG_AXIOMS)

_SYMBOLS = {1.0: "a", -1.0: "b", 0.0: "."}


def format_query_table(responses: pd.DataFrame, preferences: pd.DataFrame, axiom_names: Sequence[str]) -> str:
    """A readable table of one query's responses and every axiom's preference per pair."""
    lines = []
    width = max([len(docno) for docno in responses["docno"]] + [5])
    for row in responses.itertuples():
        lines.append(f"  {row.docno:<{width}}  {shorten(row.response, 100)}")
    lines.append("")
    pair_width = 2 * width + 4
    lines.append(f"  {'pair':<{pair_width}}  " + " ".join(f"{name:>6}" for name in axiom_names))
    for row in preferences.itertuples(index=False):
        pair = f"{row.docno_a} vs {row.docno_b}"
        cells = [_SYMBOLS.get(float(getattr(row, name)), "?") for name in axiom_names]
        lines.append(f"  {pair:<{pair_width}}  " + " ".join(f"{cell:>6}" for cell in cells))
    return "\n".join(lines)


def judge_main(argv: Sequence[str]) -> int:
    """Run axioms over a response file and print a table per query (and save the preference frame)."""
    parser = argparse.ArgumentParser(
        prog="rag-axioms",
        description="Judge RAG responses with axioms. Subcommands: rerank.",
    )
    parser.add_argument("input", nargs="?", default=str(SAMPLE_PATH), help="response file (JSONL, TSV or Parquet)")
    parser.add_argument("--axioms", help="comma-separated short names (default: all RAG axioms that can run)")
    parser.add_argument("--output", help="save the preference frame (.jsonl, .tsv or .parquet)")
    parser.add_argument("--languagetool-url", help="URL of a LanguageTool server, enables CLAR1")
    parser.add_argument(
        "--aspects", default="noun_chunks", choices=["noun_chunks", "noun_chunks_with_pronouns", "entities"]
    )
    parser.add_argument("--verbose", action="store_true", help="show progress")
    args = parser.parse_args(argv)

    from pyterrier_rag_axioms.frames import response_frame
    from pyterrier_rag_axioms.io import read_responses, write_frame

    if not args.verbose:
        quiet_model_loading()

    if args.axioms:
        names = [name for name in args.axioms.split(",") if name.strip()]
    else:
        names = [name for name in DEFAULT_AXIOMS if name != "CLAR1" or args.languagetool_url]
        if not args.languagetool_url:
            print("CLAR1 skipped: no LanguageTool server configured (use --languagetool-url URL).\n")
    axioms = build_axioms(names, languagetool_url=args.languagetool_url, aspects=args.aspects, verbose=args.verbose)
    responses = response_frame(read_responses(args.input))
    pipeline = axioms[0]
    for axiom in axioms[1:]:
        pipeline = pipeline >> axiom
    preferences = pipeline(responses)
    columns = [axiom.name for axiom in axioms]

    print(f"{len(responses)} responses to {responses['qid'].nunique()} queries from {args.input}")
    print("Preferences: a = first response preferred, b = second preferred, . = no preference\n")
    for qid, group in responses.groupby("qid", sort=False):
        print(f"[{qid}] {group['query'].iloc[0]}")
        print(format_query_table(group, preferences[preferences["qid"] == qid], columns))
        print()
    if args.output:
        write_frame(preferences, args.output)
        print(f"Preference frame written to {args.output}")
    return 0

