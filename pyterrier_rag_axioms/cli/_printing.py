"""What the commands print: text as a terminal shows it (control characters escaped), notes of one line
on stderr apart from the results on stdout, and text shortened to one line."""

from __future__ import annotations

import re
import sys
import textwrap

#: Characters a terminal may act on rather than show: C0 and C1 controls (escape sequences begin
#: with them) and the marks that reorder text (bidirectional overrides and isolates).
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: object) -> str:
    """Text as a terminal shows it, not acts on it: control characters as Python escapes (``\\x1b``)."""
    return _UNPRINTABLE.sub(lambda found: found.group().encode("unicode_escape").decode("ascii"), str(text))


def print_note(command: str, message: str) -> None:
    """A note of one line on stderr, apart from the results on stdout: ``command: note: message``."""
    print(f"{command}: note: {printable(' '.join(message.split()))}", file=sys.stderr)


def shorten(text: str, width: int) -> str:
    """One line of at most ``width`` characters, control characters escaped (see :func:`printable`)."""
    return textwrap.shorten(printable(" ".join(text.split())), width=width, placeholder=" ...")
