"""The ``rag-axioms`` command: judge the responses of a file with axioms and print or save preferences.

``rag-axioms`` with no arguments runs on the shipped sample ``data/sample/responses.jsonl``.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path

import pandas as pd

#: The shipped sample, relative to the project root.
SAMPLE_PATH = Path(__file__).resolve().parent.parent / "data" / "sample" / "responses.jsonl"

#: The axioms run when ``--axioms`` is not given (CLAR1 only with a LanguageTool server).
DEFAULT_AXIOMS = ("COH1", "COH2", "COV1", "COV2", "COV3", "CONS1", "CONS2", "CONS3", "CORR1", "CLAR1", "CLAR2")

_SYMBOLS = {1.0: "a", -1.0: "b", 0.0: "."}


def axiom_classes() -> dict[str, type]:
    """Every axiom class the package exports, by short name."""
    import pyterrier_rag_axioms
    from pyterrier_rag_axioms.base import Axiom

    classes = {}
    for attribute in dir(pyterrier_rag_axioms):
        value = getattr(pyterrier_rag_axioms, attribute)
        if isinstance(value, type) and issubclass(value, Axiom) and "short_name" in vars(value):
            classes[value.short_name] = value
    return classes


def build_axioms(names: Sequence[str], *, languagetool_url: str | None, aspects: str, verbose: bool) -> list:
    """Instantiate axioms by short name (case-insensitive), passing the options each one takes."""
    import inspect

    classes = {name.upper(): cls for name, cls in axiom_classes().items()}
    axioms = []
    for name in names:
        cls = classes.get(name.strip().upper())
        if cls is None:
            raise SystemExit(f"rag-axioms: unknown axiom {name!r}; known: {', '.join(sorted(axiom_classes()))}")
        options: dict[str, object] = {"verbose": verbose}
        parameters = inspect.signature(cls.__init__).parameters
        if "remote_server" in parameters:
            options["remote_server"] = languagetool_url
        if "aspects" in parameters:
            options["aspects"] = aspects
        axioms.append(cls(**options))
    return axioms


def add_cache_option(parser: argparse.ArgumentParser) -> None:
    """The ``--cache DIR`` option: a persistent cache of parses and embeddings (see README, "Speed")."""
    parser.add_argument(
        "--cache",
        metavar="DIR",
        help="keep parses and embeddings in DIR and reuse them in later runs (default: $RAG_AXIOMS_CACHE, if set)",
    )


def use_cache_option(args: argparse.Namespace) -> None:
    """Make ``--cache DIR`` the package-wide cache directory (without it, ``RAG_AXIOMS_CACHE`` applies)."""
    if args.cache:
        from pyterrier_rag_axioms.tools.cache import set_cache_dir

        set_cache_dir(args.cache)


def quiet_model_loading() -> None:
    """Hide the progress bars that model libraries print while loading weights."""
    try:
        from transformers.utils import logging as transformers_logging
    except ImportError:
        return
    transformers_logging.disable_progress_bar()


def _shorten(text: str, width: int) -> str:
    return textwrap.shorten(" ".join(text.split()), width=width, placeholder=" ...")


def format_query_table(responses: pd.DataFrame, preferences: pd.DataFrame, axiom_names: Sequence[str]) -> str:
    """A readable table of one query's responses and every axiom's preference per pair."""
    lines = []
    width = max([len(docno) for docno in responses["docno"]] + [5])
    for row in responses.itertuples():
        lines.append(f"  {row.docno:<{width}}  {_shorten(row.response, 100)}")
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
        description="Judge RAG responses with axioms. Subcommands: " + ", ".join(SUBCOMMANDS) + ".",
    )
    parser.add_argument("input", nargs="?", default=str(SAMPLE_PATH), help="response file (JSONL, TSV or Parquet)")
    parser.add_argument("--axioms", help="comma-separated short names (default: all RAG axioms that can run)")
    parser.add_argument("--output", help="save the preference frame (.jsonl, .tsv or .parquet)")
    parser.add_argument("--languagetool-url", help="URL of a LanguageTool server, enables CLAR1")
    parser.add_argument("--aspects", default="noun_chunks", choices=["noun_chunks", "entities"])
    parser.add_argument("--verbose", action="store_true", help="show progress")
    add_cache_option(parser)
    args = parser.parse_args(argv)

    from pyterrier_rag_axioms.frames import response_frame
    from pyterrier_rag_axioms.io import read_responses, write_frame

    use_cache_option(args)
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


def rerank_main(argv: Sequence[str]) -> int:
    """``rag-axioms rerank``: rank each query's responses by axioms (see :mod:`pyterrier_rag_axioms.cli_rerank`)."""
    from pyterrier_rag_axioms.cli_rerank import rerank_main as run

    return run(argv)


#: Subcommands by name; each takes the remaining arguments and returns an exit status.
SUBCOMMANDS: dict[str, Callable[[Sequence[str]], int]] = {"rerank": rerank_main}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``rag-axioms``."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in SUBCOMMANDS:
        return SUBCOMMANDS[argv[0]](argv[1:])
    return judge_main(argv)


if __name__ == "__main__":
    sys.exit(main())
