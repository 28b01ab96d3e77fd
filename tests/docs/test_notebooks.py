"""The walkthrough notebook: its saved outputs, and a run from top to bottom on the shared data.

The run uses a kernel of the Python running the tests (whatever kernels are installed elsewhere)
and, to stay short, three CrowdRAG-25 topics, one nugget-judged topic to rerank and two to rank
runs on (``RAG_AXIOMS_WALKTHROUGH_TOPICS``, ``RAG_AXIOMS_WALKTHROUGH_NUGGET_TOPICS``,
``RAG_AXIOMS_WALKTHROUGH_RUN_TOPICS``). Without the shared data, it runs offline on the TREC sample
shipped in the package, as on a new machine. The same notebook also runs under
``pytest --nbmake notebooks/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import execute_notebook

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "trec-rag-2024-walkthrough.ipynb"


def _outputs(notebook) -> list[dict]:
    return [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]


def test_saved_notebook_shows_tables_and_the_plot():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert [cell.execution_count for cell in code_cells] == list(range(1, len(code_cells) + 1))
    outputs = _outputs(notebook)
    assert not [output for output in outputs if output.output_type == "error"]
    rich = [output.get("data", {}) for output in outputs]
    # the agreement heatmap, the runs by win rate and nuggets, the runs by manual and automatic nugget scores
    assert sum("image/png" in data for data in rich) == 3
    tables = [data["text/html"] for data in rich if "text/html" in data]
    assert any("concordance_pairs" in table for table in tables)
    assert any("coverage_deep" in table and "COV1" in table for table in tables)
    assert any("nDCG@10" in table for table in tables)
    assert any("PreferenceModel (LOTO)" in table for table in tables)
    assert any("Kendall&#x27;s tau vs mean nugget score" in table or "Kendall's tau vs mean nugget score" in table
               for table in tables)


def test_notebook_runs_top_to_bottom(shared_data, tmp_path, monkeypatch):
    monkeypatch.setenv("RAG_AXIOMS_SHARED_DATA", str(shared_data))
    monkeypatch.setenv("RAG_AXIOMS_WALKTHROUGH_TOPICS", "3")
    monkeypatch.setenv("RAG_AXIOMS_WALKTHROUGH_NUGGET_TOPICS", "1")
    monkeypatch.setenv("RAG_AXIOMS_WALKTHROUGH_RUN_TOPICS", "2")
    notebook = execute_notebook(NOTEBOOK, tmp_path, monkeypatch)  # raises where a cell fails
    outputs = _outputs(notebook)
    streams = "".join(output.get("text", "") for output in outputs if output.output_type == "stream")
    assert "3 topics" in streams and "1 topics" in streams
    tables = [output["data"]["text/html"] for output in outputs if "text/html" in output.get("data", {})]
    assert any("concordance_pairs" in table for table in tables)
    assert any("nDCG@10" in table for table in tables)
    assert any("PreferenceModel (LOTO)" in table for table in tables)


def test_notebook_runs_offline_on_the_shipped_sample(tmp_path, monkeypatch):
    for variable in ("RAG_AXIOMS_SHARED_DATA", "RAG_AXIOMS_CROWDRAG_RESPONSES", "RAG_AXIOMS_WALKTHROUGH_NUGGET_TOPICS",
                     "RAG_AXIOMS_WALKTHROUGH_RUN_TOPICS"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("RAG_AXIOMS_DATA", str(tmp_path / "no-local-copies"))  # nothing public read or fetched
    monkeypatch.setenv("RAG_AXIOMS_DATA_URL", "http://127.0.0.1:9/")  # a download would fail at once
    notebook = execute_notebook(NOTEBOOK, tmp_path, monkeypatch)  # raises where a cell fails
    outputs = _outputs(notebook)
    streams = "".join(output.get("text", "") for output in outputs if output.output_type == "stream")
    assert not [output["text"] for output in outputs if output.get("name") == "stderr"]  # no library's warning
    assert "sections 1-3 are skipped" in streams
    assert "2 topics, 16 answers" in streams and "2 topics, 8 runs, 16 answers" in streams
    tables = [output["data"]["text/html"] for output in outputs if "text/html" in output.get("data", {})]
    assert not any("concordance_pairs" in table for table in tables)  # no CrowdRAG-25 section ran
    assert any("nDCG@10" in table for table in tables)
    assert any("PreferenceModel (LOTO)" in table for table in tables)
    assert sum("image/png" in output.get("data", {}) for output in outputs) == 2  # the two run plots
