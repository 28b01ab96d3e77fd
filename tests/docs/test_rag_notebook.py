"""The RAG pipeline notebook: its saved outputs, and a run from top to bottom.

It needs no shared data: BM25 (pyterrier-pisa) over the shipped sample, pyterrier-rag's reader on
a local chat-completions server. The run uses a kernel of the Python running the tests. The same
notebook also runs under ``pytest --nbmake notebooks/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import execute_notebook

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "rag-pipeline.ipynb"
SYSTEMS = ["plain reader (1 sample)", "best of 4 samples (KwikSort of COV1, CONS2, CORR1)", "best of 2 systems"]


def _outputs(notebook) -> list[dict]:
    return [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]


def _check(notebook) -> None:
    outputs = _outputs(notebook)
    assert not [output for output in outputs if output.output_type == "error"]
    streams = "".join(output.get("text", "") for output in outputs if output.output_type == "stream")
    assert "8 queries, 24 passages" in streams
    assert "32 answers, 4 per query; requests with n = 4" in streams
    assert "48 pairs; share decisive" in streams
    assert "[info]" not in streams and "Create index" not in streams  # PISA's native logs stay out
    tables = [output["data"]["text/html"] for output in outputs if "text/html" in output.get("data", {})]
    assert any("bm25-top1" in table and "bm25-top3" in table for table in tables)
    experiment = [table for table in tables if all(name in table for name in SYSTEMS)]
    assert len(experiment) == 1 and "F1" in experiment[0] and "EM" in experiment[0]


def test_saved_notebook_shows_the_whole_pipeline():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert [cell.execution_count for cell in code_cells] == list(range(1, len(code_cells) + 1))
    _check(notebook)


def test_notebook_runs_top_to_bottom(tmp_path, monkeypatch):
    pytest.importorskip("pyterrier_rag")
    pytest.importorskip("pyterrier_pisa")
    notebook = execute_notebook(NOTEBOOK, tmp_path, monkeypatch)  # raises where a cell fails
    _check(notebook)
