"""How bad input or arguments are reported: one line that names the file, the line (1-based) and what is
wrong, and exit status 2, never a traceback. Warnings are notes of one line on stderr (:mod:`._printing`)."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from pyterrier_rag_axioms.cli._printing import printable

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


def error_line(error: BaseException) -> str:
    """The message of an error on one line, control characters escaped."""
    text = str(error.args[0]) if isinstance(error, KeyError) and error.args else str(error)
    return printable(" ".join(text.split())) or type(error).__name__
