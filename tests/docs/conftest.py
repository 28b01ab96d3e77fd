"""Fixtures of the documentation tests: one session of pages per test module, run from the project root."""

from __future__ import annotations

import contextlib

import pycon_blocks
import pytest


@pytest.fixture(scope="module")
def page_session():
    with contextlib.ExitStack() as stack:
        yield pycon_blocks.PageSession(stack)


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

