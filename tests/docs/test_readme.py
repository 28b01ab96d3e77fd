"""The README's examples run, in order, from the project root, and print what the README says;
its table of axioms is the one the registry gives."""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys

import pycon_blocks
import pytest
from pycon_blocks import check

BLOCKS = pycon_blocks.blocks(pycon_blocks.README)


@pytest.fixture(scope="module")
def page_session():
    with contextlib.ExitStack() as stack:
        yield pycon_blocks.PageSession(stack)


@pytest.fixture(autouse=True)
def isolated(monkeypatch):
    yield from pycon_blocks.isolation(monkeypatch)


def test_the_readme_is_short_and_starts_with_the_two_commands():
    text = pycon_blocks.README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    first_block = re.search(r"```bash\n(.*?)```", text, re.DOTALL).group(1)
    assert [line.split()[:2] for line in first_block.splitlines()] == [["make", "demo"], ["make", "test"]]
    assert len(BLOCKS) >= 4
    assert any("pt.apply.generic(generate) >> COV1()" in block.text for block in BLOCKS)  # a RAG pipeline


def test_the_readme_links_to_pages_that_exist():
    text = pycon_blocks.README.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(((?:docs|data|notebooks)/[^)#]+)", text):
        assert (pycon_blocks.PROJECT_ROOT / target).exists(), target


def test_the_axioms_table_is_generated_from_the_registry():
    script = pycon_blocks.PROJECT_ROOT / "scripts" / "axiom_table.py"
    generated = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True,
                               cwd=pycon_blocks.PROJECT_ROOT).stdout
    sys.path.insert(0, str(script.parent))
    try:
        import axiom_table
    finally:
        sys.path.remove(str(script.parent))
    in_readme = axiom_table.readme_table(pycon_blocks.README.read_text(encoding="utf-8"))
    assert in_readme == generated, "the README's axioms table is out of date: python scripts/axiom_table.py --write"
    assert generated.count("\n| ") >= 25


@pytest.mark.parametrize("block", BLOCKS, ids=[block.name for block in BLOCKS])
def test_readme_example(block, page_session, monkeypatch, tmp_path):
    check(block, BLOCKS, page_session, monkeypatch, tmp_path)
