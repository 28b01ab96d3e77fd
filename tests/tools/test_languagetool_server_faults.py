"""The local LanguageTool server: texts go only to the server process started here, a port held by
another process is refused in one line, and the server log is a new file (never a planted link).
These tests start the real server from its jars (skipped without Java or jars)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import PROJECT_ROOT, cli_error, run_cli

from pyterrier_rag_axioms.tools.grammar import GrammarChecker

# --- the local server ----------------------------------------------------------------


@pytest.fixture
def languagetool_home(tmp_path) -> Path:
    """A LanguageTool folder of this test (its own log and state files) with the project's jars."""
    from pyterrier_rag_axioms.tools.grammar.languagetool import languagetool_home

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
    from pyterrier_rag_axioms.tools.grammar.languagetool import LanguageToolSetupError, LocalLanguageTool, free_port

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
    command = [action, "--port", str(port)]
    if action == "run":
        command += ["--", sys.executable, "-c", "print('the command ran')"]
    try:
        completed = run_cli(*command, cwd=languagetool_home, module="pyterrier_rag_axioms.languagetool",
                            RAG_AXIOMS_LANGUAGETOOL_HOME=str(languagetool_home))
    finally:
        holder.close()
    line = cli_error(completed)
    assert "the command ran" not in completed.stdout
    assert f"port {port}" in line and f"pid {os.getpid()}" in line


def test_texts_go_only_to_the_server_we_started(languagetool_home, fake_servers):
    """A process that holds the port and answers like LanguageTool (though not at once) gets no text."""
    from pyterrier_rag_axioms.tools.grammar.languagetool import LanguageToolSetupError, LocalLanguageTool, free_port

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


_WRITER = """
import sys, time
from pathlib import Path
from pyterrier_rag_axioms.io import atomic_write
target = Path(sys.argv[1])
def write(path):
    Path(path).write_bytes(b"x" * 1_000_000)
    Path(str(target) + ".ready").write_text("yes")
    time.sleep(300)
atomic_write(target, write)
"""


def test_sigterm_to_languagetool_run_leaves_no_partial_file(languagetool_home, tmp_path):
    """``languagetool run`` passes SIGTERM on to its command, whose write removes its temporary file."""
    target = tmp_path / "out.jsonl"
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "RAG_AXIOMS_LANGUAGETOOL_HOME": str(languagetool_home)}
    command = [sys.executable, "-m", "pyterrier_rag_axioms.languagetool", "run", "--",
               sys.executable, "-c", _WRITER, str(target)]
    run = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 300
        while not Path(f"{target}.ready").exists():
            assert run.poll() is None and time.monotonic() < deadline, run.communicate()
            time.sleep(0.2)
        run.send_signal(signal.SIGTERM)
        run.wait(timeout=120)
    finally:
        if run.poll() is None:
            run.kill()
    assert run.returncode == 128 + signal.SIGTERM
    assert [path.name for path in tmp_path.iterdir() if "partial" in path.name] == []
    assert not target.exists()
    assert list(languagetool_home.glob("server-*.log")) == []  # the server stopped, its log removed


@pytest.mark.parametrize("action", ["start", "stop", "status"])
def test_a_damaged_state_file_is_one_line(tmp_path, action):
    home = tmp_path / "languagetool"
    home.mkdir()
    (home / "server.json").write_text('{"pid": "not a number"')
    completed = run_cli(action, cwd=tmp_path, module="pyterrier_rag_axioms.languagetool",
                        RAG_AXIOMS_LANGUAGETOOL_HOME=str(home), RAG_AXIOMS_LANGUAGETOOL_URL="http://127.0.0.1:9")
    assert "server.json" in cli_error(completed)
