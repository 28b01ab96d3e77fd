"""The ```pycon blocks of the Markdown pages, run as doctests.

Each block holds ``>>> `` (and ``... ``) lines followed by the exact output they print. The blocks
of one page run in order in one namespace, as a reader pasting them into one session would, and
the printed output is compared as doctest compares it: a number that changes fails. No blanket
option loosens the comparison; an example states its tolerance by what it prints
(``print(f"{x:.3f}")``).

A block that needs something that may be absent says so on its first line,
``>>> # needs: java`` (several: ``>>> # needs: terrier, dev-data``), and is skipped with the reason
where it is missing (see :data:`NEEDS`).
"""

from __future__ import annotations

import contextlib
import doctest
import importlib.util
import os
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
DOCS = PROJECT_ROOT / "docs"
README = PROJECT_ROOT / "README.md"
SHARED_DATA = Path(os.environ.get("RAG_AXIOMS_SHARED_DATA", PROJECT_ROOT.parent / "shared" / "data"))
LANGUAGETOOL_URL_VARIABLE = "RAG_AXIOMS_LANGUAGETOOL_URL"

_FENCE = re.compile(r"^(?P<indent>[ \t]*)```pycon[ \t]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.DOTALL | re.MULTILINE)
_NEEDS = re.compile(r"^>>> # needs: *(?P<needs>.*?) *$")


@dataclass(frozen=True)
class Block:
    """One ```pycon block: its page, the line of its first example (1-based), its text and what it needs."""

    page: Path
    line: int
    text: str
    needs: tuple[str, ...]

    @property
    def name(self) -> str:
        page = self.page.relative_to(PROJECT_ROOT) if self.page.is_relative_to(PROJECT_ROOT) else self.page
        return f"{page}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The ```pycon blocks of a Markdown page, in order."""
    text = page.read_text(encoding="utf-8")
    found = []
    for match in _FENCE.finditer(text):
        indent = match.group("indent")
        lines = [line.removeprefix(indent) for line in match.group("body").splitlines()]
        first = _NEEDS.match(lines[0]) if lines else None
        needs = tuple(need for need in re.split(r"[,\s]+", first.group("needs")) if need) if first else ()
        line = text.count("\n", 0, match.start("body")) + 1
        found.append(Block(page, line, "\n".join(lines) + "\n", needs))
    return found


def pages() -> list[Path]:
    """Every Markdown page of the documentation."""
    return sorted(DOCS.glob("*.md"))


def _languagetool() -> str | None:
    import requests

    url = os.environ.get(LANGUAGETOOL_URL_VARIABLE, "http://127.0.0.1:8081").rstrip("/")
    try:
        requests.get(f"{url}/v2/languages", timeout=5).raise_for_status()
    except requests.RequestException:
        return (f"needs a LanguageTool server (none answered at {url}; `make test` starts one and sets "
                f"${LANGUAGETOOL_URL_VARIABLE})")
    return None


def _java() -> str | None:
    return None if shutil.which("java") else "needs Java (no `java` on the PATH)"


def _terrier() -> str | None:
    if importlib.util.find_spec("jnius") is None:
        return "needs Terrier: pyjnius is not installed (pip install 'pyterrier-rag-axioms[terrier]')"
    home = Path(os.environ.get("PYTERRIER_HOME", Path.home() / ".pyterrier"))
    if not list(home.glob("terrier-assemblies-*-jar-with-dependencies.jar")):
        return f"needs Terrier's jars in {home} (`make terrier` fetches them)"
    return _java()


def _dev_data() -> str | None:
    return None if SHARED_DATA.is_dir() else f"needs the shared development data (looked for {SHARED_DATA})"


def _llm() -> str | None:
    missing = [name for name in ("pyterrier_rag", "pyterrier_pisa", "openai") if importlib.util.find_spec(name) is None]
    return f"needs the rag extra (missing: {', '.join(missing)})" if missing else None


#: What a block may need, and how to tell that it is missing (the reason to skip, or None).
#: ``llm`` blocks talk to the deterministic local chat-completions server of the notebooks
#: (``OPENAI_BASE_URL`` points at it), so that their outputs can be compared.
NEEDS: dict[str, Callable[[], str | None]] = {
    "java": _java,
    "languagetool": _languagetool,
    "terrier": _terrier,
    "dev-data": _dev_data,
    "llm": _llm,
}


def missing(block: Block) -> str | None:
    """Why ``block`` cannot run here, or None where it can; an unknown need is an error."""
    for need in block.needs:
        if need not in NEEDS:
            raise ValueError(f"{block.name}: unknown need {need!r} in '# needs:'; known: {', '.join(NEEDS)}")
        reason = NEEDS[need]()
        if reason:
            return reason
    return None


def run(block: Block, namespace: dict) -> str | None:
    """Run ``block``'s examples in ``namespace``; doctest's report where an output differs, else None."""
    test = doctest.DocTestParser().get_doctest(block.text, namespace, block.name, str(block.page), block.line - 1)
    if not test.examples:
        return f"{block.name}: a pycon block without any '>>> ' example"
    report: list[str] = []
    runner = doctest.DocTestRunner(verbose=False, optionflags=0)
    result = runner.run(test, out=report.append, clear_globs=False)
    namespace.update(test.globs)  # doctest ran in a copy: what the block defined serves the next blocks
    return "".join(report) if result.failed else None


@dataclass
class PageSession:
    """The namespaces of the pages, how far each page has run, and the servers the blocks use."""

    stack: contextlib.ExitStack
    namespaces: dict = field(default_factory=dict)
    done: dict = field(default_factory=dict)
    chat_server: object = None

    def openai_endpoint(self, environment) -> None:
        """Point OpenAI clients at the deterministic local chat-completions server of the notebooks."""
        if self.chat_server is None:
            path = PROJECT_ROOT / "notebooks" / "local_chat_server.py"
            spec = importlib.util.spec_from_file_location("local_chat_server", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            self.chat_server = self.stack.enter_context(module.serve())
        environment.setenv("OPENAI_BASE_URL", self.chat_server.base_url)
        environment.setenv("OPENAI_API_KEY", "unused")

    def _run(self, block: Block, environment, home: Path) -> str | None:
        if "~/" in block.text:  # a path under the home: a temporary home, never the user's
            environment.setenv("HOME", str(home))
        if "llm" in block.needs:
            self.openai_endpoint(environment)
        if "dev-data" in block.needs:  # the pages name the development data by this variable only
            environment.setenv("RAG_AXIOMS_SHARED_DATA", str(SHARED_DATA))
        return run(block, self.namespaces.setdefault(block.page, {"__name__": "__main__"}))

    def run_in_order(self, block: Block, page_blocks: list[Block], environment, home: Path) -> tuple[str | None, ...]:
        """Run ``block`` after the blocks of its page before it (those not run yet, e.g. when
        ``block`` was selected alone): why it was skipped, and doctest's report of a difference."""
        index = page_blocks.index(block)
        for earlier in page_blocks[self.done.get(block.page, 0):index]:
            if missing(earlier) is None:
                self._run(earlier, environment, home)
        self.done[block.page] = index + 1
        reason = missing(block)
        if reason:
            return reason, None
        return None, self._run(block, environment, home)


def check(block: Block, blocks: list[Block], page_session: PageSession, monkeypatch, tmp_path: Path) -> None:
    """Run ``block`` in its page's order in a test; skip it with the reason where something it needs is missing."""
    page_blocks = [other for other in blocks if other.page == block.page]
    reason, report = page_session.run_in_order(block, page_blocks, monkeypatch, tmp_path)
    if reason:
        pytest.skip(reason)
    if report:
        pytest.fail(report, pytrace=False)


def isolation(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Run from the project root; a model cache a block sets is undone after it; files a block
    leaves in the project root are removed (the body of a test module's fixture)."""
    from pyterrier_rag_axioms.runtime.cache import CACHE_ENVIRONMENT_VARIABLE, reset_cache_dir

    monkeypatch.chdir(PROJECT_ROOT)
    monkeypatch.delenv(CACHE_ENVIRONMENT_VARIABLE, raising=False)
    before = set(PROJECT_ROOT.iterdir())
    yield
    reset_cache_dir()
    for path in set(PROJECT_ROOT.iterdir()) - before:
        if path.is_file():
            path.unlink()
