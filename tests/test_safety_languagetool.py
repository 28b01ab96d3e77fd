"""Nobody in: texts go to the LanguageTool server we started or were told to use, and nowhere else.

The servers here listen on 127.0.0.1 only. Where a test needs a server that misbehaves (a redirect,
a reply with bad offsets, a process that grabs the port), it is a small ``http.server``; the
server manager's tests start the real LanguageTool from its jars (skipped without Java or jars).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs

import pytest

from pyterrier_rag_axioms.tools.grammar import GrammarChecker, LanguageToolError

PROJECT_ROOT = Path(__file__).resolve().parents[1]


class FakeServer:
    """An HTTP server on 127.0.0.1 answering ``POST /v2/check`` as ``reply(server, text)`` says; keeps the texts."""

    def __init__(self, reply, port: int = 0):
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
    started: list[FakeServer] = []

    def start(reply, port: int = 0) -> FakeServer:
        started.append(FakeServer(reply, port))
        return started[-1]

    yield start
    for server in started:
        server.close()


def no_matches(server, text):
    return 200, {}, {"matches": []}


def grammar_match(offset, length):
    match = {"rule": {"category": {"id": "GRAMMAR"}}, "message": "m"}
    if offset is not None:
        match["offset"] = offset
    if length is not None:
        match["length"] = length
    return lambda server, text: (200, {}, {"matches": [match]})


# --- 12. redirects --------------------------------------------------------------------------


def test_the_grammar_client_follows_no_redirect_to_another_host(fake_servers):
    target = fake_servers(no_matches)
    redirect = {"Location": f"http://localhost:{target.port}/v2/check"}
    redirector = fake_servers(lambda server, text: (307, redirect, {}))
    checker = GrammarChecker(redirector.url)
    with pytest.raises(LanguageToolError, match=rf"{redirector.url}.*redirect"):
        checker.error_share("A private text.")
    assert target.texts == []


def test_the_server_probe_follows_no_redirect(fake_servers):
    from pyterrier_rag_axioms.languagetool import answers

    target = fake_servers(no_matches)
    redirector = fake_servers(lambda server, text: (307, {"Location": f"http://localhost:{target.port}/v2/check"}, {}))
    assert not answers(redirector.url)
    assert target.texts == []


# --- 13. malformed replies ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("offset", "length"),
    [(-3, 2), (2, -1), (None, 2), (2, None), (5, 100), ("2", 1), (1.5, 1), (True, 1)],
    ids=["negative-offset", "negative-length", "missing-offset", "missing-length", "beyond-the-text",
         "offset-text", "offset-fraction", "offset-bool"],
)
def test_a_reply_with_bad_offsets_is_an_error_naming_the_server(fake_servers, offset, length):
    server = fake_servers(grammar_match(offset, length))
    with pytest.raises(LanguageToolError, match=rf"{server.url}.*(offset|length)"):
        GrammarChecker(server.url).error_share("Short text.")


def test_a_reply_with_good_offsets_counts(fake_servers):
    server = fake_servers(grammar_match(0, 5))
    assert GrammarChecker(server.url).error_share("Short text.") == pytest.approx(5 / 11)


# --- 11. a loaded model names no remote server ------------------------------------------------------


#: A server on another machine: the ``.invalid`` domain never resolves, so nothing is ever contacted.
REMOTE = "http://remote.invalid:8081"


def _model_naming(tmp_path: Path, server: str) -> Path:
    from pyterrier_rag_axioms import CLAR1, PreferenceModel

    model = PreferenceModel(axioms=[CLAR1(remote_server=server)], coefficients=[-1.0])
    model.save(tmp_path / "model.json")
    return tmp_path / "model.json"


def test_a_loaded_model_may_not_name_a_remote_server(tmp_path):
    from pyterrier_rag_axioms import PreferenceModel

    path = _model_naming(tmp_path, REMOTE)
    with pytest.raises(ValueError, match=r"model\.json: .*remote\.invalid.*allow_remote=True"):
        PreferenceModel.load(path)
    assert PreferenceModel.load(path, allow_remote=True).axioms[0].remote_server == REMOTE
    local = _model_naming(tmp_path, "http://127.0.0.1:8081")
    assert PreferenceModel.load(local).axioms[0].remote_server == "http://127.0.0.1:8081"


def test_a_loaded_model_may_not_name_a_remote_argument_tagger(tmp_path):
    from pyterrier_rag_axioms import PreferenceModel

    path = _model_naming(tmp_path, "http://127.0.0.1:8081")
    document = json.loads(path.read_text())
    document["features"].append(
        {"axiom": "GEN_ArgUC", "name": "GEN_ArgUC", "parameters": {"argument_tagger": "https://remote.invalid/targer/"},
         "scale": 1.0, "weight": 1.0}
    )
    path.write_text(json.dumps(document))
    with pytest.raises(ValueError, match=r"model\.json: feature 1 .*remote\.invalid.*allow_remote=True"):
        PreferenceModel.load(path)


def test_the_command_line_refuses_a_model_naming_a_remote_server(tmp_path):
    path = _model_naming(tmp_path, REMOTE)
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "HF_HUB_OFFLINE": "1"}
    completed = subprocess.run(
        [sys.executable, "-m", "pyterrier_rag_axioms", "--model", str(path)],
        capture_output=True, text=True, env=env, cwd=tmp_path, check=False, timeout=600,
    )
    assert "Traceback" not in completed.stderr, completed.stderr
    assert completed.returncode == 2 and "remote.invalid" in completed.stderr, completed.stdout
    assert "allow_remote=True" in completed.stderr
    assert len(completed.stderr.strip().splitlines()) == 1


# --- 7. and 10. the local server ----------------------------------------------------------------


@pytest.fixture
def languagetool_home(tmp_path) -> Path:
    """A LanguageTool folder of this test (its own log and state files) with the project's jars."""
    from pyterrier_rag_axioms.languagetool import languagetool_home

    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("no Java")
    lib = languagetool_home() / "lib"
    if not any(lib.glob("languagetool-server-*.jar")):
        pytest.skip(f"LanguageTool's jars are not in {lib}")
    home = tmp_path / "languagetool"
    home.mkdir()
    (home / "lib").symlink_to(lib.resolve())
    return home


def _held_port() -> socket.socket:
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    return holder


def test_the_server_log_does_not_follow_a_planted_link(languagetool_home, tmp_path):
    from pyterrier_rag_axioms.languagetool import LanguageToolSetupError, LocalLanguageTool, free_port

    port = free_port()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (languagetool_home / f"server-{port}.log").symlink_to(victim)
    server = LocalLanguageTool(port=port, home=languagetool_home, memory="1k", startup_timeout=60)  # fails at once
    with pytest.raises(LanguageToolSetupError):
        server.start()
    assert victim.read_text() == "keep me"


@pytest.mark.parametrize("action", ["start", "run"])
def test_a_port_held_by_another_process_is_refused_in_one_line(languagetool_home, action):
    holder = _held_port()
    port = holder.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "RAG_AXIOMS_LANGUAGETOOL_HOME": str(languagetool_home)}
    command = [sys.executable, "-m", "pyterrier_rag_axioms.languagetool", action, "--port", str(port)]
    if action == "run":
        command += ["--", sys.executable, "-c", "print('the command ran')"]
    try:
        completed = subprocess.run(command, capture_output=True, text=True, env=env, check=False, timeout=300)
    finally:
        holder.close()
    assert completed.returncode == 2, (completed.stdout, completed.stderr)
    assert "the command ran" not in completed.stdout
    assert len(completed.stderr.strip().splitlines()) == 1, completed.stderr
    assert f"port {port}" in completed.stderr and str(os.getpid()) in completed.stderr


def test_texts_go_only_to_the_server_we_started(languagetool_home, fake_servers):
    """A process that holds the port and answers like LanguageTool (though not at once) gets no text."""
    from pyterrier_rag_axioms.languagetool import LanguageToolSetupError, LocalLanguageTool, free_port

    def later(server, text):
        return (503, {}, {}) if server.requests == 1 else (200, {}, {"matches": []})

    port = free_port()
    impostor = fake_servers(later, port=port)
    server = LocalLanguageTool(port=port, home=languagetool_home, startup_timeout=120)
    try:
        with pytest.raises(LanguageToolSetupError, match=rf"port {port}"):
            url = server.start()
            GrammarChecker(url).error_share("A private text.")
    finally:
        server.stop()
    assert "A private text." not in impostor.texts
