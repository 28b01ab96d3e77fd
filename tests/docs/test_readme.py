"""Every Python snippet of the README runs as written, in order, from the project root.

The snippets share one namespace, as a reader pasting them into one session would (the quick
start's ``responses`` serve later snippets). Snippets that read the shared development data
(``../shared/data``) are skipped where it is absent. The RAG pipeline snippet talks to an
OpenAI-compatible endpoint through ``OPENAI_BASE_URL``: here the local chat-completions server
of the notebooks, on 127.0.0.1.
"""

from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SHARED_DATA = Path(os.environ.get("RAG_AXIOMS_SHARED_DATA", PROJECT_ROOT.parent / "shared" / "data"))
README = PROJECT_ROOT / "README.md"
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


def _snippets() -> list[tuple[str, str]]:
    text = README.read_text(encoding="utf-8")
    snippets = []
    for match in _BLOCK.finditer(text):
        sections = re.findall(r"<!-- section: ([\w-]+) -->", text[: match.start()])
        line = text.count("\n", 0, match.start()) + 2
        snippets.append((f"{sections[-1] if sections else 'top'}-line{line}", match.group(1)))
    return snippets


SNIPPETS = _snippets()


def _chat_server():
    path = PROJECT_ROOT / "notebooks" / "local_chat_server.py"
    spec = importlib.util.spec_from_file_location("local_chat_server", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def namespace():
    return {"__name__": "readme"}


def test_readme_has_the_snippets():
    names = [name for name, _ in SNIPPETS]
    assert len(SNIPPETS) >= 8
    assert any(name.startswith("rag-pipelines") for name in names)
    assert all("generator >>" not in code.split("#")[0] for _, code in SNIPPETS)


@pytest.fixture(autouse=True)
def isolated_model_cache(monkeypatch):
    """The package-wide cache setting of a snippet is undone after it, so no later test reads
    values a snippet stored."""
    from pyterrier_rag_axioms.tools.cache import CACHE_ENVIRONMENT_VARIABLE, reset_cache_dir

    monkeypatch.delenv(CACHE_ENVIRONMENT_VARIABLE, raising=False)
    yield
    reset_cache_dir()


@pytest.fixture(autouse=True)
def no_files_left_in_the_project():
    """Files a snippet writes into the working directory (``mine.save("model.json")``) are removed after it."""
    before = set(PROJECT_ROOT.iterdir())
    yield
    for path in set(PROJECT_ROOT.iterdir()) - before:
        if path.is_file():
            path.unlink()


@pytest.mark.parametrize("name, code", SNIPPETS, ids=[name for name, _ in SNIPPETS])
def test_readme_snippet_runs(name, code, namespace, monkeypatch, tmp_path):
    monkeypatch.chdir(PROJECT_ROOT)
    if "~/" in code:  # a cache directory under the home: a temporary home, never the user's
        monkeypatch.setenv("HOME", str(tmp_path))
    if "../shared/data" in code and not (PROJECT_ROOT.parent / "shared" / "data").is_dir():
        pytest.skip(f"needs the shared development data in ../shared/data (looked for {SHARED_DATA})")
    if "import ray" in code:
        ray = pytest.importorskip("ray")
        if ray.is_initialized():
            ray.shutdown()
    if "OpenAIBackend" in code:
        pytest.importorskip("pyterrier_rag")
        pytest.importorskip("pyterrier_pisa")
        with _chat_server().serve() as server:
            monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
            monkeypatch.setenv("OPENAI_API_KEY", "unused")
            exec(compile(code, f"README.md:{name}", "exec"), namespace)
            assert len(server.requests) > 0
        return
    try:
        exec(compile(code, f"README.md:{name}", "exec"), namespace)
    finally:
        if "import ray" in code:
            namespace["ray"].shutdown()


def test_no_snippet_refers_to_missing_files():
    for name, code in SNIPPETS:
        for path in re.findall(r'"((?:data|notebooks)/[^"]+)"', code):
            assert (PROJECT_ROOT / path).exists(), f"{name}: {path}"
        if SHARED_DATA.is_dir():
            for path in re.findall(r'\{data\}/([^"]+)"', code):
                assert (SHARED_DATA / path).exists(), f"{name}: {path}"
