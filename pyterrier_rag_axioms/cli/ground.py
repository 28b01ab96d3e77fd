"""``rag-axioms ground``: check each answer's claims against its own passages; print or save the unsupported spans."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

from pyterrier_rag_axioms.cli._cache_option import add_cache_option, use_cache_option
from pyterrier_rag_axioms.cli._declared_option import add_declared_option
from pyterrier_rag_axioms.cli._errors import CommandLineParser
from pyterrier_rag_axioms.cli._printing import printable, shorten
from pyterrier_rag_axioms.cli._progress import add_progress_options, resolve_progress
from pyterrier_rag_axioms.cli._sample import SAMPLE_PATH


def build_parser() -> argparse.ArgumentParser:
    parser = CommandLineParser(
        prog="rag-axioms ground",
        description=(
            "Check each answer's claims against its own passages (the context) with the support model: print "
            "each answer's faithfulness (the share of its claims its passages support) and the spans of the "
            "claims they do not support."
        ),
    )
    parser.add_argument(
        "input",
        nargs="?",
        default=str(SAMPLE_PATH),
        help="response file with a context per response (JSONL, TSV or Parquet; default: the shipped sample)",
    )
    from pyterrier_rag_axioms.grounding import Faithfulness

    add_declared_option(
        parser,
        Faithfulness,
        "threshold",
        help="claim probability under which a claim is unsupported",
        default_text="the support model's fitted threshold",
    )
    parser.add_argument(
        "--output", help="save one JSON line per answer (qid, docno, faithfulness, unsupported) to this file"
    )
    add_progress_options(parser)
    add_cache_option(parser)
    return parser


def ground_main(argv: Sequence[str]) -> int:
    """Print (and optionally save) each answer's faithfulness and unsupported spans."""
    args = build_parser().parse_args(argv)
    resolve_progress(args)

    from pyterrier_rag_axioms.cli.inputs import read_response_input
    from pyterrier_rag_axioms.grounding import Faithfulness
    from pyterrier_rag_axioms.io import atomic_write_text, check_output_path

    if args.output:
        check_output_path(args.output, inputs=[args.input])  # before the work, not after it
    use_cache_option(args)
    checked = Faithfulness(threshold=args.threshold, verbose=args.verbose)(read_response_input([args.input]))
    for row in checked.itertuples(index=False):
        print(f"{printable(row.qid)}  {printable(row.docno)}  faithfulness {row.faithfulness:.2f}")
        for span in row.unsupported:
            print(f"  unsupported [{span['start']}:{span['end']}] {shorten(span['text'], 100)}")
    if args.output:
        records = (
            {"qid": row.qid, "docno": row.docno, "faithfulness": row.faithfulness, "unsupported": row.unsupported}
            for row in checked.itertuples(index=False)
        )
        atomic_write_text(Path(args.output), "".join(json.dumps(record) + "\n" for record in records))
    return 0
