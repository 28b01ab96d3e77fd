"""``rag-axioms cache``: show the model-work cache, and prune what no version uses any more."""

from __future__ import annotations

import contextlib
import datetime
import os
from collections.abc import Sequence
from pathlib import Path

from pyterrier_rag_axioms.cli._cache_option import add_cache_option, cache_directory
from pyterrier_rag_axioms.cli._declared_option import add_declared_option
from pyterrier_rag_axioms.cli._errors import CommandLineError, CommandLineParser


def _when(seconds: float | None) -> str:
    if seconds is None:
        return "never recorded"
    return datetime.datetime.fromtimestamp(seconds).strftime("%Y-%m-%d %H:%M")


def _prune_partial_files(folders: Sequence[str]) -> None:
    """Remove the temporary files that killed writes left in ``folders``, and say how many."""
    import os

    from pyterrier_rag_axioms.io.atomic import STALE_PARTIAL_SECONDS, remove_stale_partial_files

    for folder in folders:
        if not os.path.isdir(folder):
            raise CommandLineError(f"--outputs-in {folder}: no such folder")
    removed = [path for folder in folders for path in remove_stale_partial_files(folder)]
    hours = STALE_PARTIAL_SECONDS / 3600
    print(f"Removed {len(removed)} .partial-* files left by killed writes (untouched for {hours:g} hour).")


def _model_parents(directory: str | None) -> list[Path]:
    """The folders of model files the package writes to: the default ones (under ``$XDG_CACHE_HOME``) and,
    with a cache directory, the cache's."""
    from pyterrier_rag_axioms.tools.embeddings.onnx_encoder import default_export_dir
    from pyterrier_rag_axioms.tools.embeddings.static_encoder import default_static_dir

    cached = [Path(directory) / kind for kind in ("onnx", "static")] if directory else []
    return list(dict.fromkeys([default_export_dir(), default_static_dir(), *cached]))


def _current_model_folders(directory: str | None) -> list[Path]:
    """The folders of the model files that this version's default encoders use, in the cache's folders and the
    default ones (whether built or not)."""
    from pyterrier_rag_axioms.tools.embeddings.similarity import SentenceSimilarity

    folders = []
    for backend in _default_backends():
        for cache_dir in dict.fromkeys([None, directory]):
            folders.append(SentenceSimilarity(backend=backend, cache_dir=cache_dir).backend_encoder.export_path.parent)
    return list(dict.fromkeys(folders))


def _prune_exports(directory: str | None, unused_days: float) -> None:
    """Remove the ONNX model files not used for ``unused_days`` days (other versions') and the partial files of
    killed builds from every folder of model files the package writes to (the default one and the cache's).

    The model files of this version are never removed, however long unused (``--unused-days 0`` included): their
    build locks are held while the others are pruned, so that the pruning passes them by as if being built, and
    only their partial files of killed builds are removed."""
    from pyterrier_rag_axioms.runtime.model_files import build_lock, prune_model_folders, remove_stale_builds

    folders = _model_parents(directory)
    current = [folder for folder in _current_model_folders(directory) if folder.is_dir()]
    with contextlib.ExitStack() as held:
        for folder in current:
            held.enter_context(build_lock(folder))
        removed = [prune_model_folders(folder, unused_days=unused_days) for folder in folders]
        kept_builds = sum(len(remove_stale_builds(folder)) for folder in current)
    print(f"Removed {sum(exports for exports, _ in removed)} model folders (ONNX, static) not used for "
          f"{unused_days:g} days "
          f"and {sum(builds for _, builds in removed) + kept_builds} partial builds from "
          f"{', '.join(map(str, folders))}; kept this version's {len(current)}.")


def _show_model_files(directory: str | None) -> None:
    """One line per folder of model files (the default ones under ``$XDG_CACHE_HOME``, and the cache's): its size,
    last use and whether this version uses it."""
    current = set(_current_model_folders(directory))
    for parent in _model_parents(directory):
        folders = sorted(path for path in parent.iterdir() if path.is_dir()) if parent.is_dir() else []
        print(f"{parent}: {len(folders)} model folder{'' if len(folders) == 1 else 's'}")
        for folder in folders:
            files = [path for path in folder.rglob("*") if path.is_file()]
            size = sum(path.stat().st_size for path in files)
            last = max((path.stat().st_mtime for path in folder.iterdir()), default=None)
            mark = "  this version" if folder in current else ""
            print(f"  {folder.name[:12]}  {len(files):>4} files {size / 1e6:>8.1f} MB  last used {_when(last)}{mark}")


def _default_backends() -> list[str]:
    """The encoder backends of the defaults (the run judge, the assigner, the extractor) that build model files."""
    from pyterrier_rag_axioms.nuggets import assigner, extractor
    from pyterrier_rag_axioms.preference import PreferenceModel
    from pyterrier_rag_axioms.tools.embeddings.backends import backend_class

    defaults = [PreferenceModel.default("nuggets").encoder, assigner.DEFAULT_ENCODER, extractor.DEFAULT_ENCODER]
    return [backend for backend in dict.fromkeys(defaults) if backend_class(backend).builds_files]


def _build_model_files(directory: str | None) -> None:
    """Build (or check) the model files of the default encoders, in the cache or the default folders."""
    from pyterrier_rag_axioms.tools.embeddings.similarity import SentenceSimilarity

    for backend in _default_backends():
        encoder = SentenceSimilarity(backend=backend, cache_dir=directory).backend_encoder
        digest = encoder.prepare()
        print(f"{backend}: {encoder.export_path} (SHA-256 {digest[:16]}...)")


def cache_main(argv: Sequence[str]) -> int:
    """Print the cache's namespaces (kind, entries, size, last use); with ``--prune``, remove the unused ones."""
    parser = CommandLineParser(
        prog="rag-axioms cache",
        description=(
            "Show the model-work cache of --cache DIR (or $RAG_AXIOMS_CACHE): one line per namespace (a model, "
            "configuration and version of the code and libraries); without either, the folders of model files under "
            "$XDG_CACHE_HOME/pyterrier-rag-axioms. --prune removes the namespaces not used for --unused-days days "
            "(after an upgrade, the old versions' entries are never read again) and other versions' model files; "
            "this version's model files are never removed."
        ),
    )
    add_cache_option(parser)
    parser.add_argument(
        "--prune", action="store_true",
        help="remove the entries of namespaces not used lately, and the model folders (ONNX, static) not used "
        "lately and partial files of killed model builds (in the cache and in ~/.cache/pyterrier-rag-axioms/onnx "
        "and /static; the latter also without a cache directory)",
    )
    parser.add_argument(
        "--build", action="store_true",
        help="build the model files the defaults use where they are missing or damaged (the static encoder of the "
        "run judge and the extractor, distilled from the shipped model, and the assigner's float32 ONNX export), and "
        "print where they are",
    )
    from pyterrier_rag_axioms.runtime.cache_upkeep import prune

    add_declared_option(parser, prune, "unused_days", help="with --prune: days without use")
    parser.add_argument(
        "--outputs-in", metavar="DIR", action="append",
        help="with --prune: also remove the hidden .partial-* files a killed write left in DIR (and in the cache "
        "directory), those untouched for an hour; may be given more than once",
    )
    args = parser.parse_args(argv)

    from pyterrier_rag_axioms.runtime.cache_upkeep import check_cache, database_path, prune, summary

    source, directory = cache_directory(args)
    if args.outputs_in and not args.prune:
        raise CommandLineError("--outputs-in goes with --prune")
    if not args.unused_days >= 0:
        raise CommandLineError(f"--unused-days must be >= 0, not {args.unused_days!r}")
    if directory is not None and not os.path.isdir(directory) and not args.build:  # a typo makes no empty cache
        what = "is a file, not a directory" if os.path.exists(directory) else "no such directory"
        raise CommandLineError(f"{source} {directory}: {what} (a command given --cache DIR makes the cache there)")
    if args.build:
        _build_model_files(directory)
        if not args.prune:
            return 0
    if directory is None:  # the default folders of model files under $XDG_CACHE_HOME, and the outputs' folders
        if args.prune:
            _prune_exports(None, args.unused_days)
            if args.outputs_in:
                _prune_partial_files(args.outputs_in)
        else:
            _show_model_files(None)
            print("No cache of parses and embeddings: --cache DIR or $RAG_AXIOMS_CACHE keeps them between runs.")
        return 0
    check_cache(directory)
    path = database_path(directory)
    if args.prune:
        namespaces, entries = prune(directory, unused_days=args.unused_days)
        print(f"Removed {entries} entries of {namespaces} namespaces not used for {args.unused_days:g} days.")
        _prune_exports(directory, args.unused_days)
        _prune_partial_files([directory, *(args.outputs_in or [])])
    records = summary(directory)
    size = path.stat().st_size if path.exists() else 0
    print(f"{path} ({source}): {sum(r['entries'] for r in records)} entries, {size / 1e6:.1f} MB on disk")
    for record in records:
        print(
            f"  {record['namespace'][:12]}  {record['kind']:<16} {record['entries']:>8} entries "
            f"{record['bytes'] / 1e6:>8.1f} MB  last used {_when(record['last_used'])}"
        )
    return 0
