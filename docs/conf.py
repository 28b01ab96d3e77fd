"""Sphinx configuration: MyST Markdown pages and an API reference from the docstrings, built offline."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # document the checkout's package, also where an installed copy exists
os.environ.setdefault("HF_HUB_OFFLINE", "1")

project = "pyterrier-rag-axioms"
author = "pyterrier-rag-axioms contributors"
copyright = "pyterrier-rag-axioms contributors"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
myst_heading_anchors = 3  # links to sections: [text](page.md#a-heading)
myst_enable_extensions = ["colon_fence"]

# API reference: signatures with their type hints, members in source order; no intersphinx, no downloads.
autodoc_default_options = {"members": True, "member-order": "bysource", "show-inheritance": True}
autodoc_typehints = "description"
autodoc_class_signature = "separated"
napoleon_google_docstring = True
napoleon_numpy_docstring = False

html_theme = "furo"
html_title = "pyterrier-rag-axioms"
