"""The documentation builds with Sphinx, offline, without a warning (as ``make docs`` does)."""

from __future__ import annotations

import os
import subprocess
import sys

import pycon_blocks
import pytest


def test_the_docs_build_without_warnings(tmp_path):
    pytest.importorskip("sphinx", reason="the docs extra: pip install 'pyterrier-rag-axioms[docs]'")
    pytest.importorskip("myst_parser", reason="the docs extra: pip install 'pyterrier-rag-axioms[docs]'")
    environment = {**os.environ, "HF_HUB_OFFLINE": "1"}
    build = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", "-d", str(tmp_path / "doctrees"),
         str(pycon_blocks.DOCS), str(tmp_path / "html")],
        capture_output=True, text=True, env=environment, timeout=600,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    pages = {path.stem for path in (tmp_path / "html").glob("*.html")}
    assert {path.stem for path in pycon_blocks.pages()} <= pages
    api = (tmp_path / "html" / "api.html").read_text(encoding="utf-8")
    for name in ("COV1", "KwikSort", "MajorityVote", "PreferenceModel"):  # autodoc found the package's classes
        assert f'id="pyterrier_rag_axioms.{name}"' in api, name
