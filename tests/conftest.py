"""Shared helpers and fixtures: the preference of one pair, the shipped sample, the shared development data, a
LanguageTool server."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
# The one-line notes on model files built at first use are the subject of tests/cli/test_first_run.py,
# which clears this; elsewhere they would make a test's stderr depend on which test built a file first.
os.environ.setdefault("RAG_AXIOMS_QUIET", "1")

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SAMPLE_PATH = PROJECT_ROOT / "data" / "sample" / "responses.jsonl"
SHARED_DATA = Path(os.environ.get("RAG_AXIOMS_SHARED_DATA", PROJECT_ROOT.parent / "shared" / "data"))


@pytest.fixture(scope="session")
def sample_responses():
    """The shipped sample as a response frame (8 queries, 4 responses each)."""
    from pyterrier_rag_axioms.io import read_responses

    return read_responses(SAMPLE_PATH)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The shared development data directory; skips the test where it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared development data not found at {SHARED_DATA}")
    return SHARED_DATA


def prefer(axiom, better: str, worse: str, *, query: str = "a question", context=None) -> float:
    """The preference of ``axiom`` for the pair (better, worse) of one query, as a float."""
    frame = pd.DataFrame(
        {"qid": ["q", "q"], "query": [query, query], "docno": ["a", "b"], "response": [better, worse],
         "context": [context, context]}
    )
    out = axiom(frame)
    assert len(out) == 1
    return float(out[axiom.name].iloc[0])


def value(axiom, text: str, *, query: str = "a question", context=None) -> float:
    """The per-response value of a feature axiom for one response, as a float."""
    frame = pd.DataFrame({"qid": ["q"], "query": [query], "docno": ["a"], "response": [text], "context": [context]})
    return float(axiom.values(frame)[f"{axiom.name}_value"].iloc[0])


@pytest.fixture(scope="session")
def languagetool_server():
    """URL of a real LanguageTool server.

    ``$RAG_AXIOMS_LANGUAGETOOL_URL`` where set (``make test`` starts a server and sets it; then the
    server must answer), else a server started for this session from ``languagetool/lib`` (skipped,
    with the reason, where Java or the jars are missing).
    """
    from pyterrier_rag_axioms.tools.grammar.languagetool import (
        URL_VARIABLE,
        LanguageToolSetupError,
        LocalLanguageTool,
        answers,
    )

    url = os.environ.get(URL_VARIABLE)
    if url:
        if not answers(url, timeout=30.0):
            pytest.fail(f"${URL_VARIABLE} is {url}, but no LanguageTool server answers there")
        yield url.rstrip("/")
        return
    server = LocalLanguageTool()
    try:
        url = server.start()
    except LanguageToolSetupError as error:
        pytest.skip(f"no LanguageTool server: {error}")
    try:
        yield url
    finally:
        server.stop()


def execute_notebook(path: Path, tmp_path: Path, monkeypatch) -> object:
    """Run a notebook from top to bottom in a kernel of the Python running the tests; the executed notebook.

    Raises nbclient's ``CellExecutionError``, with the cell and traceback, where a cell fails.
    """
    import json
    import sys

    import nbclient
    import nbformat

    kernel = tmp_path / "kernels" / "rag-axioms-tests"
    kernel.mkdir(parents=True)
    # a JVM that fails while it shuts down writes its crash report into the temporary folder, not the project
    java_options = f"{os.environ.get('JAVA_TOOL_OPTIONS', '')} -XX:ErrorFile={tmp_path}/hs_err_pid%p.log".strip()
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "rag-axioms tests",
        "language": "python",
        "env": {"JAVA_TOOL_OPTIONS": java_options},
    }
    (kernel / "kernel.json").write_text(json.dumps(spec))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    client = nbclient.NotebookClient(
        notebook, timeout=900, kernel_name="rag-axioms-tests", resources={"metadata": {"path": str(path.parent)}}
    )
    client.execute()
    return notebook


SKY = "Rayleigh scattering makes the sky blue."
OCEAN = "The ocean is deep and salty."


def two_systems() -> pd.DataFrame:
    """Two responses to one query, each with the passages its own system retrieved."""
    return pd.DataFrame(
        {
            "qid": ["1", "1"],
            "query": ["q", "q"],
            "docno": ["A", "B"],
            "response": [SKY, OCEAN],
            "context": [
                ["Rayleigh scattering makes the sky blue because short wavelengths scatter more."],
                ["The ocean is deep and salty. Fish live in the ocean."],
            ],
        }
    )


def write_jsonl(path, lines: list[str]):
    """Write ``lines`` as a file of lines (UTF-8); returns the path."""
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def run_cli(*arguments: str, cwd: Path, module: str = "pyterrier_rag_axioms", **environment: str):
    """``python -m MODULE ARGUMENTS`` (default: ``rag-axioms``) in a new process, as a user runs it.

    The package is this checkout's; ``$RAG_AXIOMS_CACHE`` is unset unless given. Fails the test on a
    traceback: the command line reports bad input in one line.
    """
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "HF_HUB_OFFLINE": "1"}
    env.pop("RAG_AXIOMS_CACHE", None)
    env.update(environment)
    completed = subprocess.run(
        [sys.executable, "-m", module, *arguments], capture_output=True, text=True, cwd=cwd, env=env, check=False,
        timeout=600,
    )
    assert "Traceback" not in completed.stderr, completed.stderr
    return completed


def cli_error(completed) -> str:
    """The one error line of a command that refused its input (exit status 2)."""
    assert completed.returncode == 2, (completed.returncode, completed.stdout, completed.stderr)
    lines = [line for line in completed.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, completed.stderr
    return lines[0]


def write_records(path: Path, records: list[dict]) -> Path:
    """Write records as a JSON-lines file; returns its path."""
    import json

    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


class FakeServer:
    """An HTTP server on 127.0.0.1 answering ``POST /v2/check`` as ``reply(server, text)`` says (status,
    headers, JSON answer); keeps the texts it answered with 200. For what a real LanguageTool server
    cannot be made to do: redirect, answer malformed offsets, grab a port.
    """

    def __init__(self, reply, port: int = 0):
        import json
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        from urllib.parse import parse_qs

        self.texts: list[str] = []
        self.requests = 0
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
                fake.requests += 1
                text = parse_qs(body).get("text", [""])[0]
                status, headers, answer = reply(fake, text)
                if status == 200:
                    fake.texts.append(text)
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                data = json.dumps(answer).encode()
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def fake_servers():
    """Start :class:`FakeServer` s: ``fake_servers(reply, port=0)``; all are closed after the test."""
    started: list[FakeServer] = []

    def start(reply, port: int = 0) -> FakeServer:
        started.append(FakeServer(reply, port))
        return started[-1]

    yield start
    for server in started:
        server.close()


def pytest_collection_modifyitems(items):
    """Run the scale-out tests last: the pools they start (joblib, ray) leave threads behind, and a
    test that forks this process afterwards (tools/test_cache.py) could deadlock in the child."""
    items.sort(key=lambda item: item.path.name == "test_parallel.py")  # stable: the rest keep their order


#: The ways :func:`damage_model_file` damages a built model file.
DAMAGES = ("overwritten", "truncated", "empty", "no record")


def damage_model_file(path: Path, damage: str) -> None:
    """Damage a built model file one of the :data:`DAMAGES` ways (``"no record"``: its hash record goes)."""
    from pyterrier_rag_axioms.runtime.model_files import record_path

    if damage == "overwritten":
        with open(path, "r+b") as file:
            file.seek(path.stat().st_size // 2)
            file.write(b"\x7f" * min(100_000, path.stat().st_size // 4))
    elif damage == "truncated":
        with open(path, "r+b") as file:
            file.truncate(path.stat().st_size // 3)
    elif damage == "empty":
        path.write_bytes(b"")
    else:
        record_path(path).unlink()
