"""Every ```pycon example of every page under docs/ runs, and prints what the page says it prints.

The blocks of a page share one namespace and run in order (a block selected alone, e.g. with
``-k``, first runs the page's earlier blocks). A block whose first line is ``>>> # needs: ...`` is
skipped, with the reason, where that is missing; see ``pycon_blocks.NEEDS``.
"""

from __future__ import annotations

import contextlib

import pycon_blocks
import pytest
from pycon_blocks import check

BLOCKS = [block for page in pycon_blocks.pages() for block in pycon_blocks.blocks(page)]


@pytest.fixture(scope="module")
def page_session():
    with contextlib.ExitStack() as stack:
        yield pycon_blocks.PageSession(stack)


@pytest.fixture(autouse=True)
def isolated(monkeypatch):
    yield from pycon_blocks.isolation(monkeypatch)


def test_the_pages_have_examples():
    assert len(BLOCKS) >= 20
    assert all(block.text.startswith(">>> ") for block in BLOCKS), [b.name for b in BLOCKS if b.text[:4] != ">>> "]


@pytest.mark.parametrize("block", BLOCKS, ids=[block.name for block in BLOCKS])
def test_example(block, page_session, monkeypatch, tmp_path):
    check(block, BLOCKS, page_session, monkeypatch, tmp_path)


def test_a_number_that_drifts_fails_and_names_the_line(tmp_path):
    page = tmp_path / "page.md"
    page.write_text('# A page\n\n```pycon\n>>> # needs: dev-data\n>>> x = 0.3567\n>>> print(f"{x:.3f}")\n0.356\n```\n')
    (block,) = pycon_blocks.blocks(page)
    assert block.needs == ("dev-data",) and block.line == 4
    report = pycon_blocks.run(block, {})
    assert f'File "{page}", line 6' in report and "Expected:\n    0.356\nGot:\n    0.357" in report
    namespace = {}
    fixed = pycon_blocks.Block(page, 4, block.text.replace("\n0.356\n", "\n0.357\n"), ())
    assert pycon_blocks.run(fixed, namespace) is None
    assert namespace["x"] == 0.3567  # the next block of the page sees what this one defined


def test_an_unknown_need_is_an_error(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```pycon\n>>> # needs: gpu\n>>> 1\n1\n```\n")
    with pytest.raises(ValueError, match="unknown need 'gpu'"):
        pycon_blocks.missing(pycon_blocks.blocks(page)[0])
