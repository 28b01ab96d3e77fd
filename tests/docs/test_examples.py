"""Every ```pycon example of every page under docs/ runs, and prints what the page says it prints.

The blocks of a page share one namespace and run in order (a block selected alone, e.g. with
``-k``, first runs the page's earlier blocks). A block whose first line is ``>>> # needs: ...`` is
skipped, with the reason, where that is missing; see ``pycon_blocks.NEEDS``.
"""

from __future__ import annotations

import contextlib
import importlib.util

import pycon_blocks
import pytest

BLOCKS = [block for page in pycon_blocks.pages() for block in pycon_blocks.blocks(page)]


class PageSession:
    """The namespaces of the pages, and how far each page has run."""

    def __init__(self, stack: contextlib.ExitStack):
        self.stack = stack
        self.namespaces: dict = {}
        self.done: dict = {}
        self.chat_server = None

    def openai_endpoint(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Point OpenAI clients at the deterministic local chat-completions server of the notebooks."""
        if self.chat_server is None:
            path = pycon_blocks.PROJECT_ROOT / "notebooks" / "local_chat_server.py"
            spec = importlib.util.spec_from_file_location("local_chat_server", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            self.chat_server = self.stack.enter_context(module.serve())
        monkeypatch.setenv("OPENAI_BASE_URL", self.chat_server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "unused")


@pytest.fixture(scope="module")
def session():
    with contextlib.ExitStack() as stack:
        yield PageSession(stack)


@pytest.fixture
def isolated(monkeypatch, tmp_path):
    """Run from the project root; a model cache a block sets is undone after it; files a block
    leaves in the project root are removed."""
    from pyterrier_rag_axioms.tools.cache import CACHE_ENVIRONMENT_VARIABLE, reset_cache_dir

    monkeypatch.chdir(pycon_blocks.PROJECT_ROOT)
    monkeypatch.delenv(CACHE_ENVIRONMENT_VARIABLE, raising=False)
    before = set(pycon_blocks.PROJECT_ROOT.iterdir())
    yield monkeypatch, tmp_path
    reset_cache_dir()
    for path in set(pycon_blocks.PROJECT_ROOT.iterdir()) - before:
        if path.is_file():
            path.unlink()


def run_block(block: pycon_blocks.Block, session: PageSession, monkeypatch, tmp_path) -> str | None:
    if "~/" in block.text:  # a path under the home: a temporary home, never the user's
        monkeypatch.setenv("HOME", str(tmp_path))
    if "llm" in block.needs:
        session.openai_endpoint(monkeypatch)
    namespace = session.namespaces.setdefault(block.page, {"__name__": "__main__"})
    return pycon_blocks.run(block, namespace)


def test_the_pages_have_examples():
    assert len(BLOCKS) >= 20
    assert all(block.text.startswith(">>> ") for block in BLOCKS), [b.name for b in BLOCKS if b.text[:4] != ">>> "]


@pytest.mark.parametrize("block", BLOCKS, ids=[block.name for block in BLOCKS])
def test_example(block, session, isolated):
    monkeypatch, tmp_path = isolated
    page_blocks = [other for other in BLOCKS if other.page == block.page]
    index = page_blocks.index(block)
    for earlier in page_blocks[session.done.get(block.page, 0):index]:  # selected alone: the page up to here
        if pycon_blocks.missing(earlier) is None:
            run_block(earlier, session, monkeypatch, tmp_path)
    session.done[block.page] = index + 1
    reason = pycon_blocks.missing(block)
    if reason:
        pytest.skip(reason)
    report = run_block(block, session, monkeypatch, tmp_path)
    if report:
        pytest.fail(report, pytrace=False)
