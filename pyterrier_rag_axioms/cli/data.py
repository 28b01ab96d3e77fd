"""``rag-axioms data``: list the public datasets' files and where they are, fetch them into the cache, and name the
path of a shipped sample or a fetched file (``rag-axioms data path sample``), for a shell without a checkout."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from pyterrier_rag_axioms.cli._errors import CommandLineError, CommandLineParser
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
            f"local copy (DIR/<dataset>/<file>) for machines without a network; ${BASE_URL_VARIABLE} another server. "
            "'list' also shows, and 'path' prints where it is, each sample shipped in the package: "
            + "; ".join(f"{name}: {what}" for name, what in SAMPLES.items()) + "."
        ),
    )
    parser.add_argument(
        "action", choices=["list", "fetch", "path"], help="list the files, fetch them, or print where they are"
    )
    parser.add_argument(
        "datasets",
        nargs="*",
        metavar="DATASET",
        help=f"datasets to list or fetch (default: all of {', '.join(public_datasets())}); with path, also "
        f"{' or '.join(SAMPLES)}",
    )
    parser.add_argument("--force", action="store_true", help="with fetch: download again even where cached")
    add_progress_options(parser)
    return parser


#: The samples shipped in the package, by name: the path ``rag-axioms data path NAME`` prints.
SAMPLES: dict[str, str] = {
    "sample": "the response sample (8 queries, 4 responses each; JSON lines)",
    "trec-rag-2024-sample": "the TREC 2024 RAG sample's folder (runs/, nuggets.jsonl, assignments.jsonl, topics.txt)",
}


def _located(file) -> tuple[Path | None, str]:
    """Where ``file`` is on this machine, as ``fetch`` would find it (a good local copy, else the cache), and that
    in words: a local copy (or one refused, and why), the cache, or nowhere."""
    from pyterrier_rag_axioms.judgments.public_data import cached_path, copy_problem, is_cached, local_copy_path

    local = local_copy_path(file)
    if local is not None and local.is_file():
        problem = copy_problem(file, local)
        return (local, f"local copy {local}") if problem is None else (None, f"refused local copy {local} ({problem})")
    if is_cached(file):
        return cached_path(file), f"cached {cached_path(file)}"
    return None, "not fetched"


def _paths(names: Sequence[str]) -> list[Path]:
    """The path of each named sample, and of each file of each named dataset where this machine has it."""
    from pyterrier_rag_axioms.judgments.public_data import dataset_files, public_datasets
    from pyterrier_rag_axioms.sample import sample_path, trec_sample_path

    known = f"the samples are {', '.join(SAMPLES)}, the datasets {', '.join(public_datasets())}"
    if not names:
        raise CommandLineError(f"path: give a name; {known}")
    paths = []
    for name in names:
        if name in SAMPLES:
            paths.append(sample_path() if name == "sample" else trec_sample_path())
            continue
        if name not in public_datasets():
            raise CommandLineError(f"path: unknown name {name!r}; {known}")
        for file in dataset_files(name):
            path, where = _located(file)
            if path is None:
                raise CommandLineError(f"path: {name}'s {file.role} file is not on this machine ({where}); "
                                       f"`rag-axioms data fetch {name}` fetches it")
            paths.append(path)
    return paths


def data_main(argv: Sequence[str]) -> int:
    """List or fetch the public data files."""
    args = build_parser().parse_args(argv)
    resolve_progress(args)

    from pyterrier_rag_axioms.judgments.public_data import dataset_files, file_url, public_datasets, public_file

    if args.action == "path":
        print("\n".join(str(path) for path in _paths(list(dict.fromkeys(args.datasets)))))
        return 0
    names = list(dict.fromkeys(args.datasets)) or [*public_datasets(), *(SAMPLES if args.action == "list" else ())]
    samples = [name for name in names if name in SAMPLES]
    if samples and args.action == "fetch":
        raise CommandLineError(f"fetch: {samples[0]!r} is shipped in the package, nothing to fetch; "
                               f"`rag-axioms data path {samples[0]}` prints where it is")
    files = [file for name in names if name not in SAMPLES for file in dataset_files(name)]
    for file in files:
        if args.action == "fetch":
            path = public_file(file.dataset, file.role, verbose=args.verbose, force=args.force)
            print(f"{file.dataset:<14} {file.role:<10} {file.size / 1e6:6.2f} MB  {path}")
        else:
            print(f"{file.dataset:<14} {file.role:<10} {file.size / 1e6:6.2f} MB  {_located(file)[1]}")
            print(f"{'':<14} {'':<10} {file.description}; {file_url(file)}")
    for name, path in zip(samples, _paths(samples) if samples else []):
        size = sum(part.stat().st_size for part in [path, *path.rglob("*")] if part.is_file())
        print(f"{name:<14} {'shipped':<10} {size / 1e6:6.2f} MB  {path}")
        print(f"{'':<14} {'':<10} {SAMPLES[name]}; in the package (rag-axioms data path {name})")
    return 0
