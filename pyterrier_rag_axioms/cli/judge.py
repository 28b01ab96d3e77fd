"""``rag-axioms [FILE]``: judge the responses of a file with axioms and print or save preferences.

Without a file, it runs on the sample shipped inside the package.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from pyterrier_rag_axioms.cli._cache_option import use_cache_option
from pyterrier_rag_axioms.cli._errors import CommandLineParser
from pyterrier_rag_axioms.cli._judge_options import (
    add_axiom_tool_options,
    build_axioms,
    build_model,
    parse_axiom_names,
)
from pyterrier_rag_axioms.cli._printing import print_note, printable, shorten
from pyterrier_rag_axioms.cli._progress import resolve_progress
from pyterrier_rag_axioms.cli._sample import SAMPLE_PATH
from pyterrier_rag_axioms.registry import RAG_AXIOMS

#: The axioms run when ``--axioms`` is not given (CLAR1 only where a LanguageTool server answers).
DEFAULT_AXIOMS = tuple(RAG_AXIOMS)

_SYMBOLS = {1.0: "a", -1.0: "b", 0.0: "."}


def answering_languagetool_url() -> str | None:
    """The default LanguageTool URL (``$RAG_AXIOMS_LANGUAGETOOL_URL`` or 127.0.0.1:8081) if a server answers there.

    Otherwise ``None``, after saying that CLAR1 is left out and how to include it.
    """
    from pyterrier_rag_axioms.tools.grammar.languagetool import answers, default_url

    url = default_url()
    if answers(url, timeout=5.0):
        return url
    print_note(
        "rag-axioms",
        f"CLAR1 skipped: no LanguageTool server answered at {url} (start one with "
        "`python -m pyterrier_rag_axioms.languagetool start`, or use --languagetool-url URL).",
    )
    return None


def format_query_table(responses: pd.DataFrame, preferences: pd.DataFrame, axiom_names: Sequence[str]) -> str:
    """A readable table of one query's responses and every axiom's preference per pair."""
    lines = []
    docnos = {docno: printable(docno) for docno in responses["docno"]}
    width = max([len(docno) for docno in docnos.values()] + [5])
    for row in responses.itertuples():
        lines.append(f"  {docnos[row.docno]:<{width}}  {shorten(row.response, 100)}")
    lines.append("")
    pair_width = 2 * width + 4
    lines.append(f"  {'pair':<{pair_width}}  " + " ".join(f"{name:>6}" for name in axiom_names))
    for row in preferences.itertuples(index=False):
        pair = f"{docnos.get(row.docno_a, row.docno_a)} vs {docnos.get(row.docno_b, row.docno_b)}"
        cells = [_SYMBOLS.get(float(getattr(row, name)), "?") for name in axiom_names]
        lines.append(f"  {pair:<{pair_width}}  " + " ".join(f"{cell:>6}" for cell in cells))
    return "\n".join(lines)


#: The subcommands besides judging, as ``rag-axioms --help`` lists them.
OTHER_COMMANDS: tuple[str, ...] = ("rerank", "runs", "assign", "score", "nuggetize", "ground", "cache", "data")


def judge_main(argv: Sequence[str]) -> int:
    """Run axioms over a response file and print a table per query (and save the preference frame)."""
    parser = CommandLineParser(
        prog="rag-axioms",
        description=(
            "Judge RAG responses with axioms (also `rag-axioms judge`). Subcommands: "
            f"{', '.join(OTHER_COMMANDS)} (see `rag-axioms SUBCOMMAND --help`)."
        ),
    )
    parser.add_argument(
        "input",
        nargs="?",
        default=str(SAMPLE_PATH),
        help="response file (JSONL, TSV or Parquet), TREC 2024 RAG run file or assignment file (default: the shipped "
        "sample)",
    )
    parser.add_argument(
        "--axioms", help="comma-separated short names (default: all RAG axioms that can run; none with --model)"
    )
    parser.add_argument("--output", help="save the preference frame (.jsonl, .tsv or .parquet)")
    add_axiom_tool_options(parser, languagetool_note=", used where a server answers")
    args = parser.parse_args(argv)
    resolve_progress(args)

    from pyterrier_rag_axioms.cli.inputs import read_response_input
    from pyterrier_rag_axioms.frames import response_frame
    from pyterrier_rag_axioms.io import check_output_path, format_of, write_frame

    if args.output:
        format_of(args.output)  # an unknown output format fails before any judging
        check_output_path(args.output, inputs=[args.input, args.model])
    use_cache_option(args)
    names = parse_axiom_names(args.axioms)
    axioms = build_axioms(
        names or [], languagetool_url=args.languagetool_url, aspects=args.aspects, verbose=args.verbose
    )
    if args.model:  # after the axioms: its column and its probability
        axioms.append(build_model(args.model, verbose=args.verbose))
    responses = response_frame(read_response_input([args.input]))
    if names is None and not args.model:  # the default axioms, once the input is known to be good
        args.languagetool_url = args.languagetool_url or answering_languagetool_url()
        names = [name for name in DEFAULT_AXIOMS if name != "CLAR1" or args.languagetool_url]
        axioms = build_axioms(names, languagetool_url=args.languagetool_url, aspects=args.aspects, verbose=args.verbose)
    pipeline = axioms[0]
    for axiom in axioms[1:]:
        pipeline = pipeline >> axiom
    preferences = pipeline(responses)
    columns = [axiom.name for axiom in axioms]

    print(f"{len(responses)} responses to {responses['qid'].nunique()} queries from {args.input}")
    print("Preferences: a = first response preferred, b = second preferred, . = no preference\n")
    for qid, group in responses.groupby("qid", sort=False):
        print(f"[{printable(qid)}] {printable(group['query'].iloc[0])}")
        print(format_query_table(group, preferences[preferences["qid"] == qid], columns))
        print()
    if args.output:
        write_frame(preferences, args.output)
        print(f"Preference frame written to {args.output}")
    return 0
