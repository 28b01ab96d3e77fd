"""What the commands of ``rag-axioms`` share: the shipped sample, building axioms by name, the options that
choose a judge (axioms and how they combine, or a preference model), text shortening, and how bad input or
arguments are reported (one line, exit status 2, never a traceback).

``rag-axioms [FILE]`` judges responses (:mod:`.judge`), ``rag-axioms rerank [FILE]`` ranks them
(:mod:`.rerank`); without a file, both run on the sample shipped inside the package. ``rag-axioms runs
FILE`` ranks the runs whose responses the file holds (:mod:`.runs`); ``rag-axioms cache`` shows and
prunes the model-work cache (:mod:`.cache`); ``rag-axioms assign RUN... --nuggets FILE`` scores TREC
RAG runs by nuggets assigned without an LLM (:mod:`.assign`).

Bad input or arguments never end in a traceback: the command prints one line that names the file,
the line (1-based) and what is wrong, and exits with status 2. Warnings are notes of one line on
stderr.
"""

from __future__ import annotations

import argparse
import inspect
import os
import re
import sys
import textwrap
from collections.abc import Sequence
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, NoReturn

from pyterrier_rag_axioms import registry
from pyterrier_rag_axioms.tools.text.aspects import ASPECT_NAMES

if TYPE_CHECKING:
    from pyterrier_rag_axioms.aggregation import Combinator
    from pyterrier_rag_axioms.preference import PreferenceModel

#: The sample shipped inside the package (``data/sample/responses.jsonl`` is its readable copy).
SAMPLE: Traversable = files("pyterrier_rag_axioms") / "sample" / "responses.jsonl"

#: The sample as a path on disk, the default input of both subcommands.
SAMPLE_PATH = str(SAMPLE)


#: Exit status for bad input or arguments (as argparse uses for bad options).
USAGE_ERROR_STATUS = 2


class CommandLineError(ValueError):
    """Bad arguments: shown as one line, exit status 2."""


class CommandLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are :class:`CommandLineError`: one line (argparse prints its usage block too)."""

    def error(self, message: str) -> NoReturn:
        raise CommandLineError(f"{message} (see {self.prog} --help)")


def is_input_error(error: BaseException) -> bool:
    """Whether an error reports bad input, bad arguments or a missing service, rather than a fault of the program.

    A service is LanguageTool's server (CLAR1) or TARGER's (the argumentative GEN_* axioms): where
    it does not answer, the message says how to start or point to one.
    """
    if isinstance(error, (ValueError, OSError)):
        return True
    known = [
        getattr(sys.modules.get(module), name, None)
        for module, name in [
            ("pyterrier.validate", "InputValidationError"),
            ("pyterrier_rag_axioms.tools.grammar.client", "LanguageToolError"),
            ("pyterrier_rag_axioms.tools.arguments", "TargerUnavailableError"),
        ]
    ]
    return isinstance(error, tuple(kind for kind in known if kind is not None))


#: Characters a terminal may act on rather than show: C0 and C1 controls (escape sequences begin
#: with them) and the marks that reorder text (bidirectional overrides and isolates).
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: object) -> str:
    """Text as a terminal shows it, not acts on it: control characters as Python escapes (``\\x1b``)."""
    return _UNPRINTABLE.sub(lambda found: found.group().encode("unicode_escape").decode("ascii"), str(text))


def print_note(command: str, message: str) -> None:
    """A note of one line on stderr, apart from the results on stdout: ``command: note: message``."""
    print(f"{command}: note: {printable(' '.join(message.split()))}", file=sys.stderr)


def error_line(error: BaseException) -> str:
    """The message of an error on one line, control characters escaped."""
    text = str(error.args[0]) if isinstance(error, KeyError) and error.args else str(error)
    return printable(" ".join(text.split())) or type(error).__name__


def parse_axiom_names(value: str | None, option: str = "--axioms") -> list[str] | None:
    """The short names of a comma-separated ``--axioms`` value (``None`` where the option is absent).

    Raises:
        CommandLineError: the value names no axiom (e.g. ``","``).
    """
    if value is None:
        return None
    names = [name.strip() for name in value.split(",") if name.strip()]
    if not names:
        known = ", ".join(command_line_axioms())
        raise CommandLineError(f"{option} {value!r} names no axiom; give comma-separated short names out of {known}")
    return names


def command_line_axioms() -> list[str]:
    """The short names of the axioms a command can run: all but the oracles, which read judgments, and
    the nugget axioms, which read each topic's nuggets."""
    from pyterrier_rag_axioms.registry import AXIOMS, NUGGET_AXIOMS, ORACLE_AXIOMS

    return sorted(name for name in AXIOMS if name not in ORACLE_AXIOMS and name not in NUGGET_AXIOMS)


def build_axioms(
    names: Sequence[str], *, languagetool_url: str | None, aspects: str, verbose: bool
) -> list:
    """Instantiate axioms of the registry by short name (case-insensitive), passing the options each one takes."""
    from pyterrier_rag_axioms.registry import NUGGET_AXIOMS, ORACLE_AXIOMS, axiom_class

    axioms = []
    for name in names:
        if name.strip().upper() in ORACLE_AXIOMS:
            raise CommandLineError(
                f"{name.strip().upper()} is an oracle axiom: it reads judgments (e.g. assignments_path=...), "
                "so it runs from Python, not from the command line"
            )
        if name.strip().upper() in NUGGET_AXIOMS:
            raise CommandLineError(
                f"{name.strip().upper()} reads each topic's nuggets (nuggets=...), so it runs from Python; "
                "`rag-axioms assign` scores run files by nuggets from the command line"
            )
        try:
            cls = axiom_class(name)
        except KeyError:
            raise CommandLineError(f"unknown axiom {name!r}; known: {', '.join(command_line_axioms())}") from None
        options: dict[str, object] = {"verbose": verbose}
        parameters = inspect.signature(cls).parameters
        if "remote_server" in parameters:
            options["remote_server"] = languagetool_url
        if "aspects" in parameters:
            options["aspects"] = aspects
        axioms.append(cls(**options))
    return axioms


def add_model_option(parser: argparse.ArgumentParser) -> None:
    """The ``--model`` option: a fitted :class:`~pyterrier_rag_axioms.preference.PreferenceModel`."""
    parser.add_argument(
        "--model",
        metavar="KIND_OR_FILE",
        help="a fitted preference model: a shipped one (crowd, nuggets) or a file saved by PreferenceModel.save",
    )


def build_model(value: str, *, verbose: bool) -> PreferenceModel:
    """The preference model of ``--model``: a shipped kind by name, else a saved JSON file.

    Raises:
        OSError: the file cannot be read.
        ValueError: the file is not a saved model.
    """
    from pyterrier_rag_axioms.preference import DEFAULT_MODELS, PreferenceModel

    if value in DEFAULT_MODELS:
        return PreferenceModel.default(value, verbose=verbose)
    if not os.path.isfile(value):
        kinds = ", ".join(DEFAULT_MODELS)
        raise CommandLineError(f"--model {value!r} is neither a shipped model ({kinds}) nor a file")
    return PreferenceModel.load(value, verbose=verbose)


def add_judge_options(
    parser: argparse.ArgumentParser, *, default_axioms: Sequence[str] = (), default_model: str = ""
) -> None:
    """The options that choose the judge of ``rerank`` and ``runs``: axioms and how they combine, or ``--model``.

    Also ``--languagetool-url``, ``--aspects``, ``--verbose`` and ``--cache``. The help names the
    default judge: ``default_model`` where given, else a majority vote of ``default_axioms``.
    """
    default = f"the shipped model {default_model}" if default_model else ",".join(default_axioms)
    parser.add_argument("--axioms", help=f"comma-separated short names (default: {default})")
    parser.add_argument(
        "--combine",
        choices=list(registry.COMBINATORS),
        help="how the axioms' preferences are combined (default: majority; cascade asks them in the given order)",
    )
    parser.add_argument("--weights", help="comma-separated weights, one per axiom, for --combine weighted")
    parser.add_argument(
        "--min-decisive-share",
        type=float,
        help="for --combine majority: the least share of axioms that must prefer a response (default: 0.5)",
    )
    parser.add_argument(
        "--languagetool-url",
        help="URL of a LanguageTool server for CLAR1 (default: $RAG_AXIOMS_LANGUAGETOOL_URL or http://127.0.0.1:8081)",
    )
    parser.add_argument(
        "--aspects", default="noun_chunks", choices=ASPECT_NAMES
    )
    add_progress_options(parser)
    add_model_option(parser)
    add_cache_option(parser)


def add_progress_options(parser: argparse.ArgumentParser) -> None:
    """``--quiet`` and ``--verbose``: progress bars on stderr, by default where stderr is a terminal."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--quiet", action="store_true", help="no progress bars (default where stderr is no terminal)")
    group.add_argument("--verbose", action="store_true", help="progress bars also where stderr is no terminal")


def resolve_progress(args: argparse.Namespace) -> None:
    """Set ``args.verbose``: whether to show progress (one bar per long stage) on stderr.

    ``--verbose`` shows it, ``--quiet`` hides it; by default it shows where stderr is a terminal, so
    that output redirected to a file or read by a program holds results and notes only; there, a
    stage that runs for minutes writes a plain line every few minutes instead (see
    :mod:`~pyterrier_rag_axioms.cli._progress`). Model libraries' own bars (loading weights) are never shown.
    """
    args.verbose = bool(args.verbose or (not args.quiet and sys.stderr.isatty()))
    if not args.verbose and not args.quiet:  # a log: one line per stage every few minutes, not a bar
        from pyterrier_rag_axioms.cli._progress import use_log_lines

        use_log_lines()
        args.verbose = True
    quiet_model_loading()


def combined_axioms(args: argparse.Namespace, *, default_axioms: Sequence[str]) -> Combinator:
    """The axioms of ``--axioms`` combined as ``--combine`` says (with ``--weights``, ``--min-decisive-share``)."""
    from pyterrier_rag_axioms.aggregation import MajorityVote, WeightedSum
    from pyterrier_rag_axioms.registry import COMBINATORS

    names = parse_axiom_names(args.axioms) or list(default_axioms)
    if not names:
        raise CommandLineError("--combine and --weights combine the axioms of --axioms: give --axioms too")
    combine = args.combine or "majority"
    if args.weights and combine != "weighted":
        raise CommandLineError("--weights needs --combine weighted")
    if args.min_decisive_share is not None and combine != "majority":
        raise CommandLineError(f"--min-decisive-share is for --combine majority, not --combine {combine}")
    axioms = build_axioms(names, languagetool_url=args.languagetool_url, aspects=args.aspects, verbose=args.verbose)
    if combine == "weighted":
        weights = None
        if args.weights:
            try:
                weights = [float(weight) for weight in args.weights.split(",")]
            except ValueError:
                raise CommandLineError(f"--weights must be numbers, not {args.weights!r}") from None
        return WeightedSum(*axioms, weights=weights, verbose=args.verbose)
    if combine == "majority":
        share = 0.5 if args.min_decisive_share is None else args.min_decisive_share
        return MajorityVote(*axioms, min_decisive_share=share, verbose=args.verbose)
    return COMBINATORS[combine](*axioms, verbose=args.verbose)


def preference_source(
    args: argparse.Namespace, *, default_axioms: Sequence[str] = (), default_model: str = ""
) -> Combinator | PreferenceModel:
    """The judge the options of :func:`add_judge_options` choose.

    ``--model``, else the combined ``--axioms``; with neither, ``default_model`` where given,
    else the combined ``default_axioms``.

    Raises:
        CommandLineError: ``--model`` together with ``--axioms``, ``--combine``, ``--weights`` or
            ``--min-decisive-share``.
    """
    chose_axioms = bool(args.axioms or args.combine or args.weights or args.min_decisive_share is not None)
    if args.model and chose_axioms:
        raise CommandLineError(
            "--model ranks by the model's own features: leave out --axioms, --combine, --weights and "
            "--min-decisive-share"
        )
    if args.model or (default_model and not chose_axioms):
        return build_model(args.model or default_model, verbose=args.verbose)
    return combined_axioms(args, default_axioms=default_axioms)


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
        CacheError: the cache cannot be used (see :func:`~pyterrier_rag_axioms.tools.cache_upkeep.check_cache`).
    """
    from pyterrier_rag_axioms.tools.cache import set_cache_dir
    from pyterrier_rag_axioms.tools.cache_upkeep import check_cache

    source, directory = cache_directory(args)
    if directory and os.path.exists(directory) and not os.path.isdir(directory):
        raise CommandLineError(f"{source} {directory}: is a file, not a directory of cached parses and embeddings")
    if args.cache:
        set_cache_dir(directory)
    if directory:
        check_cache(directory)


def quiet_model_loading() -> None:
    """Hide the progress bars that model libraries print while loading weights.

    Without importing them where they are not imported yet (transformers alone takes seconds to
    import, and a run whose model work is all cached loads no model): the environment variable
    that huggingface_hub and transformers read on import does it then.
    """
    if "transformers" in sys.modules:
        from transformers.utils import logging as transformers_logging

        transformers_logging.disable_progress_bar()
    elif "huggingface_hub" in sys.modules:
        from huggingface_hub.utils import disable_progress_bars

        disable_progress_bars()
    else:
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")


def shorten(text: str, width: int) -> str:
    """One line of at most ``width`` characters, control characters escaped (see :func:`printable`)."""
    return textwrap.shorten(printable(" ".join(text.split())), width=width, placeholder=" ...")
