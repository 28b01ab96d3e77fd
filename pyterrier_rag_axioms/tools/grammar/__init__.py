"""Grammar checking with LanguageTool: the HTTP client (``client``) and the manager of a local
server (``languagetool``); no readability or other text measures (see ``axioms/_readability.py``)."""

from pyterrier_rag_axioms.tools.grammar.client import (
    DEFAULT_TIMEOUT,
    GRAMMAR_CATEGORY,
    GrammarChecker,
    LanguageToolError,
    LanguageToolUnavailableError,
    grammar_checker,
)

__all__ = [
    "DEFAULT_TIMEOUT", "GRAMMAR_CATEGORY", "GrammarChecker", "LanguageToolError", "LanguageToolUnavailableError",
    "grammar_checker",
]
