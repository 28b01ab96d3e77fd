"""Grammar errors from a LanguageTool server, over its HTTP API (``POST /v2/check``).

Only matches of LanguageTool's ``GRAMMAR`` category count: the request enables that category
alone, and matches of any other category in the answer are ignored. The server is the one at
``remote_server``, else at ``$RAG_AXIOMS_LANGUAGETOOL_URL``, else at ``http://127.0.0.1:8081``
(where ``python -m pyterrier_rag_axioms.languagetool start`` runs one; see
:mod:`pyterrier_rag_axioms.tools.grammar.languagetool`). Each request waits at most ``timeout`` seconds; a
refused connection, a timeout, an HTTP error status or an answer without a ``matches`` list is an
error naming the URL, never "no grammar errors". The client follows no redirect (a server that
answers with one would send the texts elsewhere), and a match whose offset or length does not lie
within the text is an error naming the server.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pyterrier as pt

from pyterrier_rag_axioms.declaration import parameter, parameters
from pyterrier_rag_axioms.tools._shared import SharedTool

#: The LanguageTool rule category that counts as grammar errors.
GRAMMAR_CATEGORY = "GRAMMAR"
#: Seconds one check may take before it is an error (a warm server checks a response in well under one).
DEFAULT_TIMEOUT = 10.0

_START_HINT = (
    "Start one with `python -m pyterrier_rag_axioms.languagetool start` (Java 17 and Maven; `make languagetool` "
    "fetches it) and pass its URL as remote_server / --languagetool-url, or set $RAG_AXIOMS_LANGUAGETOOL_URL."
)


class LanguageToolError(RuntimeError):
    """A LanguageTool server did not check a text: an HTTP error status or an answer that is no check result."""


class LanguageToolUnavailableError(LanguageToolError):
    """No LanguageTool server answers at the URL (connection failed, or no answer within the timeout)."""


def _check_timeout(checker: GrammarChecker, timeout: float) -> None:
    if not timeout > 0:
        raise ValueError(f"GrammarChecker: timeout must be > 0 seconds, not {timeout!r}")


@parameters
class GrammarChecker(SharedTool):
    """Share of characters inside LanguageTool grammar errors, one check per distinct text.

    Use :func:`grammar_checker` to get the instance shared by all axioms for a server, language and
    timeout.
    """

    #: URL of a LanguageTool server, e.g. ``http://127.0.0.1:8081`` (default: ``$RAG_AXIOMS_LANGUAGETOOL_URL``,
    #: else ``http://127.0.0.1:8081``); stored without a trailing slash.
    remote_server: str | None = parameter(
        None, positional=True, always_shown=True, resolve=lambda checker, url: (url or _default_url()).rstrip("/")
    )
    #: The language code LanguageTool checks against.
    language: str = parameter("en-US", always_shown=True)
    #: Seconds one request may take (default 10).
    timeout: float = parameter(
        DEFAULT_TIMEOUT, always_shown=True, check=_check_timeout, resolve=lambda checker, timeout: float(timeout)
    )

    def __post_init__(self) -> None:
        self._cache: dict[str, float] = {}
        self._session = None

    @property
    def check_url(self) -> str:
        """The URL of the server's check endpoint."""
        return f"{self.remote_server}/v2/check"

    def matches(self, text: str) -> list[dict]:
        """The GRAMMAR matches of LanguageTool's answer for ``text``, as JSON objects (offsets in UTF-16 units)."""
        import requests

        if self._session is None:
            self._session = requests.Session()
        data = {"language": self.language, "text": text, "enabledCategories": GRAMMAR_CATEGORY, "enabledOnly": "true"}
        url = self.check_url
        try:
            response = self._session.post(url, data=data, timeout=self.timeout, allow_redirects=False)
        except requests.Timeout as error:
            raise LanguageToolUnavailableError(
                f"LanguageTool server at {url} did not answer within {self.timeout:g} s "
                f"(a {len(text)}-character text; raise timeout= if the server is slow)"
            ) from error
        except requests.RequestException as error:
            raise LanguageToolUnavailableError(
                f"No LanguageTool server answered at {self.remote_server}: {error}. {_START_HINT}"
            ) from error
        body = response.text
        if response.is_redirect or 300 <= response.status_code < 400:
            raise LanguageToolError(
                f"LanguageTool server at {url} answered with a redirect (HTTP {response.status_code} to "
                f"{response.headers.get('Location')!r}); texts follow no redirect: give the server's own URL"
            )
        if response.status_code != 200:
            raise LanguageToolError(
                f"LanguageTool server at {url} answered HTTP {response.status_code}: {_shorten(body)}"
            )
        try:
            answer = response.json()
        except ValueError as error:
            raise LanguageToolError(f"LanguageTool server at {url} answered with no JSON: {_shorten(body)}") from error
        found = answer.get("matches") if isinstance(answer, dict) else None
        if not isinstance(found, list):
            raise LanguageToolError(f"LanguageTool server at {url} answered without a 'matches' list: {_shorten(body)}")
        return [match for match in found if _category(match) == GRAMMAR_CATEGORY]

    def error_spans(self, text: str) -> list[tuple[int, int]]:
        """``(offset, length)`` of each grammar error LanguageTool finds in ``text``, in Python characters.

        Raises:
            LanguageToolError: a match without a whole-number offset and length >= 0 that lie within
                the text; the message names the server.
        """
        to_characters = _utf16_to_characters(text)
        units = sum(2 if ord(character) >= 0x10000 else 1 for character in text)  # Java's UTF-16 length
        spans = []
        for match in self.matches(text):
            offset, length = (_whole_number(match, key, self.check_url) for key in ("offset", "length"))
            if offset + length > units:
                raise LanguageToolError(
                    f"LanguageTool server at {self.check_url} answered a match at offset {offset} with length "
                    f"{length}, beyond the end of the {units}-unit text it was sent"
                )
            start, end = to_characters(offset), to_characters(offset + length)
            spans.append((start, end - start))
        return spans

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


def grammar_checker(
    remote_server: str | None = None, language: str = "en-US", timeout: float = DEFAULT_TIMEOUT
) -> GrammarChecker:
    """The process-wide :class:`GrammarChecker` for a server URL, language and timeout."""
    return GrammarChecker.shared(remote_server=remote_server, language=language, timeout=timeout)


def _default_url() -> str:
    from pyterrier_rag_axioms.tools.grammar.languagetool import (
        default_url,  # imported here: ``python -m`` runs that module
    )

    return default_url()


def _category(match: object) -> str:
    try:
        return str(match["rule"]["category"]["id"]).upper()  # type: ignore[index]
    except (KeyError, TypeError):
        return ""


def _whole_number(match: dict, key: str, url: str) -> int:
    """A match's ``offset`` or ``length``: a whole number >= 0, else an error naming the server."""
    value = match.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        found = "none" if key not in match else repr(value)
        raise LanguageToolError(
            f"LanguageTool server at {url} answered a match with {key} {found}, not a whole number >= 0"
        )
    return value


def _shorten(body: str, width: int = 300) -> str:
    body = " ".join(body.split())
    return body if len(body) <= width else body[: width - 4] + " ..."


def _utf16_to_characters(text: str):
    """Maps LanguageTool's offsets (Java's UTF-16 code units) to offsets in the Python string."""
    if text.isascii() or all(ord(character) < 0x10000 for character in text):
        return lambda offset: offset
    units = np.cumsum([2 if ord(character) >= 0x10000 else 1 for character in text])  # units up to and incl. i
    return lambda offset: int(np.searchsorted(units, offset, side="right"))
