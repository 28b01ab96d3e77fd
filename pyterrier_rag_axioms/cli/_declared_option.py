"""Command-line options built from what they set: a declared parameter (:mod:`~pyterrier_rag_axioms.declaration`)
or a function's keyword. The option takes its default, choices and bounds from there, so no default is
written twice; the help says what the option does and ends with that default.
"""

from __future__ import annotations

import argparse
import inspect
from collections.abc import Callable, Sequence
from typing import Any

from pyterrier_rag_axioms.declaration import (
    REQUIRED,
    choices_of,
    declared_parameter,
    declares,
    describe_bounds,
    within_bounds,
)


def declared_default(owner: Any, name: str) -> Any:
    """The default of the parameter ``name`` of ``owner``: a declared class, or a function's keyword."""
    if declares(owner, name):
        return declared_parameter(owner, name).default
    default = inspect.signature(owner).parameters[name].default
    return REQUIRED if default is inspect.Parameter.empty else default


def _number_type(owner: Any, name: str, default: Any) -> Callable[[str], Any] | None:
    """The option's ``type``: a number checked against the parameter's bounds, where it declares them."""
    field = declared_parameter(owner, name) if declares(owner, name) else None
    bounded = field is not None and field.metadata.get("bounds") is not None
    if not bounded and (isinstance(default, bool) or not isinstance(default, int | float)):
        return None
    whole = field.metadata["bounds"][2] if bounded else isinstance(default, int)

    def number(text: str) -> int | float:
        try:
            value = int(text) if whole else float(text)
        except ValueError:
            value = None
        if value is None or (bounded and not within_bounds(field, value)):
            what = describe_bounds(field) if bounded else ("a whole number" if whole else "a number")
            raise argparse.ArgumentTypeError(f"must be {what}, not {text!r}")
        return value

    return number


def add_declared_option(
    parser: argparse.ArgumentParser,
    owner: Any,
    name: str,
    *,
    help: str,
    flag: str | None = None,
    metavar: str | None = None,
    default_text: str | None = None,
    given_only: bool = False,
    choices: Sequence[str] | None = None,
) -> argparse.Action:
    """Add the option ``--<name>`` (or ``flag``) that sets the parameter ``name`` of ``owner``.

    Its default, choices and number type (with the declared bounds) come from the parameter; its help is
    ``help`` followed by the default (``default_text`` where the value alone says too little).
    ``given_only``: the option's value is ``None`` unless given (the help still names the default), for a
    command that passes on only the options given, or tells them apart (see :func:`given_options`).
    ``choices``: the names a parameter takes besides objects (which the command line cannot give).
    """
    default = declared_default(owner, name)
    options: dict[str, Any] = {"metavar": metavar}
    if choices is None and declares(owner, name):
        choices = choices_of(owner, name)
    if choices:
        options["choices"] = list(choices)
    number = _number_type(owner, name, default)
    if number is not None:
        options["type"] = number
    if not given_only:
        options["default"] = default
    shown = default_text or ("%(default)s" if not given_only else str(default))
    options["help"] = f"{help} (default: {shown})"
    return parser.add_argument(flag or "--" + name.replace("_", "-"), **options)


def given_options(args: argparse.Namespace, *names: str) -> dict[str, Any]:
    """The options of ``names`` (added with ``given_only``) that were given, as keyword arguments."""
    return {name: getattr(args, name) for name in names if getattr(args, name) is not None}
