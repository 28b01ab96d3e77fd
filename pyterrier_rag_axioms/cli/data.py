"""``rag-axioms data``: list the public datasets' files and where they are, and fetch them into the cache."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from pyterrier_rag_axioms.cli._errors import CommandLineParser
from pyterrier_rag_axioms.cli._progress import add_progress_options, resolve_progress

#: The command's name in its notes and errors.
COMMAND = "rag-axioms data"


def build_parser() -> argparse.ArgumentParser:
    from pyterrier_rag_axioms.judgments.public_data import (
        BASE_URL_VARIABLE,
        DATA_COMMIT,
        DATA_REPOSITORY,
        DATA_VARIABLE,
        public_datasets,
    )

    parser = CommandLineParser(
        prog=COMMAND,
        description=(
            f"The public files of the datasets {', '.join(public_datasets())} (from {DATA_REPOSITORY} at commit "
            f"{DATA_COMMIT[:12]}): 'list' shows each file and where it is on this machine, 'fetch' downloads the "
            f"missing ones into PyTerrier's data folder, each checked against its SHA-256. ${DATA_VARIABLE} names a "
            f"local copy (DIR/<dataset>/<file>) for machines without a network; ${BASE_URL_VARIABLE} another server."
        ),
    )
    parser.add_argument("action", choices=["list", "fetch"], help="list the files, or fetch them")
    parser.add_argument(
        "datasets",
        nargs="*",
        metavar="DATASET",
        help=f"datasets to list or fetch (default: all of {', '.join(public_datasets())})",
    )
    parser.add_argument("--force", action="store_true", help="with fetch: download again even where cached")
    add_progress_options(parser)
    return parser


def _where(file) -> str:
    from pyterrier_rag_axioms.judgments.public_data import cached_path, is_cached, local_copy_path

    local = local_copy_path(file)
    if local is not None and local.is_file():
        return f"local copy {local}"
    if is_cached(file):
        return f"cached {cached_path(file)}"
    return "not fetched"


def data_main(argv: Sequence[str]) -> int:
    """List or fetch the public data files."""
    args = build_parser().parse_args(argv)
    resolve_progress(args)

    from pyterrier_rag_axioms.judgments.public_data import dataset_files, file_url, public_datasets, public_file

    names = list(dict.fromkeys(args.datasets)) or list(public_datasets())
    files = [file for name in names for file in dataset_files(name)]
    for file in files:
        if args.action == "fetch":
            path = public_file(file.dataset, file.role, verbose=args.verbose, force=args.force)
            print(f"{file.dataset:<14} {file.role:<10} {file.size / 1e6:6.2f} MB  {path}")
        else:
            print(f"{file.dataset:<14} {file.role:<10} {file.size / 1e6:6.2f} MB  {_where(file)}")
            print(f"{'':<14} {'':<10} {file.description}; {file_url(file)}")
    return 0
