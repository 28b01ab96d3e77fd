"""Grammar errors from LanguageTool, through ``language-tool-python``.

Only matches of LanguageTool's ``GRAMMAR`` category count. Without a URL, ``language-tool-python``
starts a local LanguageTool server (downloading it on first use; Java needed); with
``remote_server=URL`` it talks to a running server over LanguageTool's HTTP API
(``/v2/languages``, ``/v2/check``).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property

import numpy as np
import pyterrier as pt

from pyterrier_rag_axioms.tools._shared import SharedTool

#: The LanguageTool rule category that counts as grammar errors.
GRAMMAR_CATEGORY = "GRAMMAR"



class LanguageToolUnavailableError(RuntimeError):
    """No LanguageTool server answers (at the given URL, or started locally)."""


class GrammarChecker(SharedTool):
    """Share of characters inside LanguageTool grammar errors, one check per distinct text.

    Use :func:`grammar_checker` to get the instance shared by all axioms for a server and language.
    """

    configuration = ("remote_server", "language")

    def __init__(self, remote_server: str | None = None, *, language: str = "en-US"):
        """
        Args:
            remote_server: URL of a LanguageTool server, e.g. ``http://localhost:8081``
                (default: a local server started by ``language-tool-python``).
            language: the language code LanguageTool checks against.
        """
        self.remote_server = remote_server
        self.language = language
        self._cache: dict[str, float] = {}

    @cached_property
    def client(self):
        """The ``language_tool_python.LanguageTool`` client, connected on first use."""
        import language_tool_python

        where = f"at {self.remote_server}" if self.remote_server else "locally (no remote_server given)"
        try:
            tool = language_tool_python.LanguageTool(self.language, remote_server=self.remote_server)
        except Exception as error:
            raise LanguageToolUnavailableError(
                f"No LanguageTool server answered {where}: {error}. Start one (e.g. "
                "`docker run -p 8081:8010 erikvl87/languagetool`) and pass its URL as "
                "remote_server / --languagetool-url."
            ) from error
        tool.enabled_categories = {GRAMMAR_CATEGORY}
        tool.enabled_rules_only = True
        return tool

    def error_spans(self, text: str) -> list[tuple[int, int]]:
        """``(offset, length)`` of each grammar error LanguageTool finds in ``text``."""
        try:
            matches = self.client.check(text)
        except LanguageToolUnavailableError:
            raise
        except Exception as error:
            raise LanguageToolUnavailableError(
                f"LanguageTool server {self.remote_server or '(local)'} failed to check a text: {error}"
            ) from error
        return [
            (match.offset, match.error_length)
            for match in matches
            if (match.category or "").upper() == GRAMMAR_CATEGORY
        ]

    def error_share(self, text: str) -> float:
        """Share of the characters of ``text`` covered by grammar errors (NaN for an empty text)."""
        if text not in self._cache:
            if not text:
                self._cache[text] = float("nan")
            else:
                covered = np.zeros(len(text), dtype=bool)
                for offset, length in self.error_spans(text):
                    covered[offset : offset + length] = True
                self._cache[text] = float(covered.mean())
        return self._cache[text]

    def error_shares(self, texts: Iterable[str], *, verbose: bool = False) -> np.ndarray:
        """:meth:`error_share` of each text."""
        texts = list(texts)
        iterator = pt.tqdm(texts, desc="LanguageTool", unit="text") if verbose else texts
        return np.array([self.error_share(text) for text in iterator], dtype=float)

    def __repr__(self) -> str:
        return f"GrammarChecker(remote_server={self.remote_server!r}, language={self.language!r})"


def grammar_checker(remote_server: str | None = None, language: str = "en-US") -> GrammarChecker:
    """The process-wide :class:`GrammarChecker` for a server URL and language."""
    return GrammarChecker.shared(remote_server=remote_server, language=language)
