"""The ``--cache DIR`` option that every command shares: a persistent cache of parses and embeddings,
set package-wide and checked before any work (``rag-axioms cache`` shows and prunes it: :mod:`.cache`)."""

from __future__ import annotations

import argparse
import os

from pyterrier_rag_axioms.cli._errors import CommandLineError


def add_cache_option(parser: argparse.ArgumentParser) -> None:
    """The ``--cache DIR`` option: a persistent cache of parses and embeddings (see README, "Speed")."""
    parser.add_argument(
        "--cache",
        metavar="DIR",
        help="keep parses and embeddings in DIR and reuse them in later runs (default: $RAG_AXIOMS_CACHE, if set); "
        "'none': no cache",
    )


#: The ``--cache`` value that turns the cache off, also where ``$RAG_AXIOMS_CACHE`` names one.
NO_CACHE = "none"


def cache_directory(args: argparse.Namespace) -> tuple[str, str | None]:
    """Where ``--cache`` (else ``$RAG_AXIOMS_CACHE``) puts the cache, with the option's name; ``None`` for none."""
    if args.cache:
        return "--cache", None if args.cache == NO_CACHE else args.cache
    return "$RAG_AXIOMS_CACHE", os.environ.get("RAG_AXIOMS_CACHE", "").strip() or None


def use_cache_option(args: argparse.Namespace) -> None:
    """Make ``--cache DIR`` the package-wide cache directory (without it, ``RAG_AXIOMS_CACHE`` applies;
    ``--cache none``: no cache), and check at once that the cache can be used.

    Raises:
        CommandLineError: the directory is a file.
        CacheError: the cache cannot be used (see :func:`~pyterrier_rag_axioms.runtime.cache_upkeep.check_cache`);
            one that cannot be written is said in one line instead, and the command goes on without it.
    """
    from pyterrier_rag_axioms.runtime.cache import CacheUnwritable, say_without_cache, set_cache_dir
    from pyterrier_rag_axioms.runtime.cache_upkeep import check_cache

    source, directory = cache_directory(args)
    if directory and os.path.exists(directory) and not os.path.isdir(directory):
        raise CommandLineError(f"{source} {directory}: is a file, not a directory of cached parses and embeddings")
    if args.cache:
        set_cache_dir(directory)
    if directory:
        try:
            check_cache(directory)
        except CacheUnwritable as error:  # one line, and the work goes on without the cache
            say_without_cache(error)
            set_cache_dir(None)
