"""The options that choose a judge: axioms by short name and how they combine (``--axioms``, ``--combine``,
``--weights``, ``--min-decisive-share``), or a preference model (``--model``); and the judge they build.

``rag-axioms [FILE]`` judges responses (:mod:`.judge`), ``rag-axioms rerank [FILE]`` ranks them
(:mod:`.rerank`), ``rag-axioms runs FILE`` ranks the runs whose responses the file holds (:mod:`.runs`).
"""

from __future__ import annotations

import argparse
import inspect
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pyterrier_rag_axioms import registry
from pyterrier_rag_axioms.cli._cache_option import add_cache_option
from pyterrier_rag_axioms.cli._declared_option import add_declared_option, given_options
from pyterrier_rag_axioms.cli._errors import CommandLineError
from pyterrier_rag_axioms.cli._progress import add_progress_options
from pyterrier_rag_axioms.tools.text.aspects import ASPECT_NAMES

if TYPE_CHECKING:
    from pyterrier_rag_axioms.aggregation import Combinator
    from pyterrier_rag_axioms.preference import PreferenceModel

#: How the axioms combine where ``--combine`` is not given (a majority vote, :class:`MajorityVote`).
DEFAULT_COMBINE = "majority"


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
        help=f"how the axioms' preferences are combined (default: {DEFAULT_COMBINE}; cascade asks them in the given "
        "order)",
    )
    parser.add_argument("--weights", help="comma-separated weights, one per axiom, for --combine weighted")
    from pyterrier_rag_axioms.aggregation import MajorityVote

    add_declared_option(
        parser, MajorityVote, "min_decisive_share", given_only=True,
        help="for --combine majority: the least share of axioms that must prefer a response",
    )
    add_axiom_tool_options(parser)


def add_axiom_tool_options(parser: argparse.ArgumentParser, *, languagetool_note: str = "") -> None:
    """The options every command that runs axioms takes: ``--languagetool-url`` (its help ends with
    ``languagetool_note``), ``--aspects``, the progress options, ``--model`` and ``--cache``."""
    parser.add_argument(
        "--languagetool-url",
        help="URL of a LanguageTool server for CLAR1 (default: $RAG_AXIOMS_LANGUAGETOOL_URL or "
        f"http://127.0.0.1:8081{languagetool_note})",
    )
    from pyterrier_rag_axioms.axioms.coverage.aspects import AspectAxiom

    readers = ", ".join(sorted(name for name, cls in registry.AXIOMS.items() if issubclass(cls, AspectAxiom)))
    add_declared_option(
        parser, AspectAxiom, "aspects", choices=ASPECT_NAMES,
        help=f"what the aspect axioms ({readers}) count as a response's aspects: spaCy's noun chunks without "
        "pronouns, with pronouns, or named entities",
    )
    add_progress_options(parser)
    add_model_option(parser)
    add_cache_option(parser)


def combine_name(args: argparse.Namespace) -> str:
    """How ``--combine`` combines the axioms (:data:`DEFAULT_COMBINE` where it is not given)."""
    return args.combine or DEFAULT_COMBINE


def chose_axioms(args: argparse.Namespace) -> bool:
    """Whether the options choose axioms or how they combine (rather than a preference model)."""
    return bool(args.axioms or args.combine or args.weights or args.min_decisive_share is not None)


def combined_axioms(args: argparse.Namespace, *, default_axioms: Sequence[str]) -> Combinator:
    """The axioms of ``--axioms`` combined as ``--combine`` says (with ``--weights``, ``--min-decisive-share``)."""
    from pyterrier_rag_axioms.aggregation import MajorityVote, WeightedSum
    from pyterrier_rag_axioms.registry import COMBINATORS

    names = parse_axiom_names(args.axioms) or list(default_axioms)
    if not names:
        raise CommandLineError("--combine and --weights combine the axioms of --axioms: give --axioms too")
    combine = combine_name(args)
    if args.weights and combine != "weighted":
        raise CommandLineError("--weights needs --combine weighted")
    if args.min_decisive_share is not None and combine != DEFAULT_COMBINE:
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
    if combine == DEFAULT_COMBINE:
        return MajorityVote(*axioms, **given_options(args, "min_decisive_share"), verbose=args.verbose)
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
    if args.model and chose_axioms(args):
        raise CommandLineError(
            "--model ranks by the model's own features: leave out --axioms, --combine, --weights and "
            "--min-decisive-share"
        )
    if args.model or (default_model and not chose_axioms(args)):
        return build_model(args.model or default_model, verbose=args.verbose)
    return combined_axioms(args, default_axioms=default_axioms)
