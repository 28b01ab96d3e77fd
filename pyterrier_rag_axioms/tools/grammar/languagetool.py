"""A local LanguageTool server for CLAR1: jars from Maven Central, started on 127.0.0.1, stopped again.

LanguageTool's embedded HTTP server (``org.languagetool.server.HTTPServer``, the server behind
LanguageTool's ``/v2/check`` API) runs from the jars that Maven resolves for ``languagetool/pom.xml``
(LanguageTool 6.8, Java 17 or newer)::

    python -m pyterrier_rag_axioms.languagetool fetch    # mvn dependency:copy-dependencies into languagetool/lib/
    python -m pyterrier_rag_axioms.languagetool start    # 127.0.0.1:8081; waits until /v2/check answers
    python -m pyterrier_rag_axioms.languagetool status
    python -m pyterrier_rag_axioms.languagetool stop
    python -m pyterrier_rag_axioms.languagetool run -- pytest -q   # a server on a free port for one command

``run`` sets ``RAG_AXIOMS_LANGUAGETOOL_URL`` for the command and stops the server when the command
ends, however it ends. CLAR1 and the command line use ``$RAG_AXIOMS_LANGUAGETOOL_URL``, else
``http://127.0.0.1:8081``, where no URL is given. From Python::

    with LocalLanguageTool() as url:
        CLAR1(remote_server=url)(responses)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from pyterrier_rag_axioms.declaration import declared_repr, parameter, parameters
from pyterrier_rag_axioms.io.atomic import atomic_write_text
from pyterrier_rag_axioms.tools.grammar._process import describe, listeners, port_is_free, stop_with_parent, terminate

#: Environment variable with the URL of the LanguageTool server that CLAR1 uses by default.
URL_VARIABLE = "RAG_AXIOMS_LANGUAGETOOL_URL"
#: Environment variable with the folder of ``pom.xml`` and ``lib/`` (default: the project's ``languagetool/``).
HOME_VARIABLE = "RAG_AXIOMS_LANGUAGETOOL_HOME"
#: Port of a server started by ``start`` (LanguageTool's own default).
DEFAULT_PORT = 8081
#: Where CLAR1 looks for a server when neither a URL nor ``$RAG_AXIOMS_LANGUAGETOOL_URL`` is given.
DEFAULT_URL = f"http://127.0.0.1:{DEFAULT_PORT}"
#: The Java class of LanguageTool's embedded HTTP server.
SERVER_CLASS = "org.languagetool.server.HTTPServer"
#: Java heap of the server; English alone needs well under this.
DEFAULT_MEMORY = "512m"
#: Oldest Java that LanguageTool 6.8 runs on.
MINIMUM_JAVA = 17


class LanguageToolSetupError(RuntimeError):
    """Java, Maven, the jars or the server itself are missing or failed."""


def default_url() -> str:
    """The URL CLAR1 uses when given none: ``$RAG_AXIOMS_LANGUAGETOOL_URL``, else ``http://127.0.0.1:8081``."""
    return os.environ.get(URL_VARIABLE) or DEFAULT_URL


def languagetool_home() -> Path:
    """The folder with ``pom.xml`` (and, once fetched, ``lib/``): ``$RAG_AXIOMS_LANGUAGETOOL_HOME`` or the project's."""
    configured = os.environ.get(HOME_VARIABLE)
    return Path(configured) if configured else Path(__file__).resolve().parents[3] / "languagetool"


def java_executable() -> str:
    """``$JAVA_HOME/bin/java`` or ``java`` on the ``PATH``, checked to be Java 17 or newer."""
    java_home = os.environ.get("JAVA_HOME")
    candidate = Path(java_home) / "bin" / "java" if java_home else None
    java = str(candidate) if candidate and candidate.is_file() else shutil.which("java")
    if java is None:
        raise LanguageToolSetupError(
            f"LanguageTool needs Java {MINIMUM_JAVA} or newer: no `java` on the PATH and no JAVA_HOME. "
            "Install a JDK (e.g. `apt-get install openjdk-17-jre-headless`) or pass remote_server=URL."
        )
    version = subprocess.run([java, "-version"], capture_output=True, text=True, check=False).stderr
    found = re.search(r'version "(\d+)(?:\.(\d+))?', version)
    major = 0 if found is None else int(found.group(1)) if found.group(1) != "1" else int(found.group(2) or 0)
    if major < MINIMUM_JAVA:
        first_line = version.splitlines()[0] if version else "no version"
        raise LanguageToolSetupError(f"LanguageTool 6.8 needs Java {MINIMUM_JAVA} or newer; {java} is {first_line}")
    return java


def fetch(home: Path | None = None, *, quiet: bool = True) -> Path:
    """Resolve LanguageTool's jars with Maven (``mvn dependency:copy-dependencies``) into ``home/lib``."""
    home = languagetool_home() if home is None else Path(home)
    if not (home / "pom.xml").is_file():
        raise LanguageToolSetupError(f"no pom.xml in {home}: set {HOME_VARIABLE} to the project's languagetool/ folder")
    mvn = shutil.which("mvn")
    if mvn is None:
        raise LanguageToolSetupError("fetching LanguageTool needs Maven: no `mvn` on the PATH")
    command = [mvn, "-B", *(["-q"] if quiet else []), "-f", str(home / "pom.xml"), "dependency:copy-dependencies"]
    if subprocess.run(command, check=False).returncode != 0:
        raise LanguageToolSetupError(f"Maven could not fetch LanguageTool: `{' '.join(command)}` failed")
    return home / "lib"


def classpath(home: Path | None = None) -> str:
    """The server's class path (``home/lib/*``); the jars must have been fetched."""
    home = languagetool_home() if home is None else Path(home)
    if not any((home / "lib").glob("languagetool-server-*.jar")):
        raise LanguageToolSetupError(
            f"LanguageTool's jars are not in {home / 'lib'}: run `python -m pyterrier_rag_axioms.languagetool fetch` "
            "(or `make languagetool`) first"
        )
    return str(home / "lib" / "*")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def answers(url: str, *, timeout: float = 2.0) -> bool:
    """Whether a LanguageTool server at ``url`` checks a text (``POST /v2/check``) within ``timeout`` seconds."""
    import requests

    try:
        response = requests.post(
            url.rstrip("/") + "/v2/check",
            data={"language": "en-US", "text": "It works."},
            timeout=timeout,
            allow_redirects=False,
        )
        return response.status_code == 200 and "matches" in response.json()
    except (requests.RequestException, ValueError):
        return False


def _home(server: LocalLanguageTool, home: Path | str | None) -> Path:
    return languagetool_home() if home is None else Path(home)


@parameters
class LocalLanguageTool:
    """LanguageTool's HTTP server as a child process on 127.0.0.1; a context manager giving its URL.

    ``start()`` launches ``java -cp lib/* org.languagetool.server.HTTPServer --port P`` and returns
    once ``/v2/check`` answers; ``stop()`` ends it. Used as ``with LocalLanguageTool() as url: ...``
    the server also stops on errors.
    """

    #: TCP port on 127.0.0.1 (0: a free one, chosen by :meth:`start`).
    port: int = parameter(0, always_shown=True)
    #: Folder with ``lib/`` (default: :func:`languagetool_home`).
    home: Path | str | None = parameter(None, always_shown=True, resolve=_home, shown=str)
    #: Java heap limit (``-Xmx``).
    memory: str = parameter(DEFAULT_MEMORY, always_shown=True)
    #: Seconds to wait for the first answer of ``/v2/check``.
    startup_timeout: float = parameter(300.0, in_repr=False)
    #: File for the server's output (default: a new ``home/server-PORT-*.log``, removed by :meth:`stop`).
    log_path: Path | str | None = parameter(None, in_repr=False)
    #: Keep the server running after this process ends (for ``start``); else it stops when this process dies.
    detach: bool = parameter(False, in_repr=False)

    def __post_init__(self) -> None:
        self.process: subprocess.Popen | None = None
        self._log: Path | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log_file(self) -> Path | None:
        """The file the running server writes its output to (``None`` before :meth:`start`)."""
        return self._log

    def start(self) -> str:
        """Start the server and wait until it checks a text; returns its URL.

        The port must be free, and no text is sent before the process listening on it is the one
        started here (:mod:`~pyterrier_rag_axioms.tools.grammar._process`); another is refused in one line.
        """
        java = java_executable()
        jars = classpath(self.home)
        self.port = self.port or free_port()
        if not port_is_free(self.port):
            raise LanguageToolSetupError(self._held_message("is held by"))
        if self.log_path:
            log_path = Path(self.log_path)
            log = open(log_path, "w")  # closed below, once the child has it
        else:  # a new file of its own name: never a file or link that someone placed there
            handle, name = tempfile.mkstemp(dir=self.home, prefix=f"server-{self.port}-", suffix=".log")
            log_path, log = Path(name), os.fdopen(handle, "w")
        self._log = log_path
        command = [java, f"-Xmx{self.memory}", "-cp", jars, SERVER_CLASS, "--port", str(self.port)]
        with log:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # Ctrl-C in a terminal reaches us, and we stop it in order
                preexec_fn=None if self.detach else stop_with_parent,
            )
        deadline = time.monotonic() + self.startup_timeout
        while True:
            owners = listeners(self.port)  # None: this system cannot tell; then the answer alone counts
            if owners and self.process.pid not in owners:
                self.stop()
                log_path.unlink(missing_ok=True)
                raise LanguageToolSetupError(self._held_message("was taken by", owners))
            # The first check loads the language's rules: tens of seconds on a busy machine. It gets the
            # whole time left, as one request: a shorter timeout would abandon it and send another, and
            # the server would prepare the language once more for each, ever slower.
            remaining = max(deadline - time.monotonic(), 1.0)
            if (owners is None or self.process.pid in owners) and answers(self.url, timeout=remaining):
                return self.url
            if self.process.poll() is not None or time.monotonic() > deadline:
                reason = (
                    f"exited with status {self.process.returncode}"
                    if self.process.poll() is not None
                    else f"did not answer within {self.startup_timeout:.0f} s"
                )
                tail = "".join(log_path.read_text(errors="replace").splitlines(keepends=True)[-15:])
                self.stop()
                log_path.unlink(missing_ok=True)
                raise LanguageToolSetupError(f"LanguageTool server on {self.url} {reason}; its last output:\n{tail}")
            time.sleep(0.5)

    def _held_message(self, verb: str, owners: set[int | None] | None = None) -> str:
        owners = listeners(self.port) if owners is None else owners
        return (
            f"port {self.port} on 127.0.0.1 {verb} {describe(owners)}, not the LanguageTool server started here; "
            "pick another port (--port), or stop that process"
        )

    def stop(self) -> None:
        """End the server (SIGTERM, then SIGKILL after 20 s); nothing happens when it is not running."""
        if self.process is not None:
            terminate(self.process.pid, wait=self.process.wait, running=_is_server)
            self.process = None
        if self._log is not None and not self.detach:
            self._log.unlink(missing_ok=True)
            self._log = None

    def __enter__(self) -> str:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()

    __repr__ = declared_repr


def _is_server(pid: int) -> bool:
    """Whether ``pid`` is a running LanguageTool server (its command line names the server class)."""
    try:
        command_line = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        try:
            os.kill(pid, 0)
        except OSError:
            return False
        return True  # no /proc: trust the state file
    return SERVER_CLASS in command_line and state != "Z"


# --- the command line --------------------------------------------------------------------------


def _state_path(home: Path) -> Path:
    return home / "server.json"


def _read_state(path: Path) -> dict:
    """The state ``start`` wrote: pid, url, port and log of the server; a damaged file is one clear error."""
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(state, dict) and isinstance(state.get("pid"), int) and isinstance(state.get("url"), str):
            return state
        problem = "no pid and url"
    except (OSError, ValueError) as error:
        problem = str(error)
    raise LanguageToolSetupError(f"{path}: not the state of a server started by `start` ({problem}); remove it")


def _start(args: argparse.Namespace) -> int:
    home = languagetool_home()
    state_path = _state_path(home)
    if state_path.is_file():
        state = _read_state(state_path)
        if _is_server(state["pid"]):
            print(f"LanguageTool server already running at {state['url']} (pid {state['pid']})")
            return 0
        state_path.unlink()
    server = LocalLanguageTool(port=args.port, home=home, memory=args.memory, detach=True)
    url = server.start()
    assert server.process is not None
    state = {"pid": server.process.pid, "url": url, "port": server.port, "log": str(server.log_file)}
    atomic_write_text(state_path, json.dumps(state) + "\n")
    print(
        f"LanguageTool server running at {url} (pid {server.process.pid}); stop it with "
        "`python -m pyterrier_rag_axioms.languagetool stop`"
    )
    return 0


def _stop(args: argparse.Namespace) -> int:
    state_path = _state_path(languagetool_home())
    if not state_path.is_file():
        print("No LanguageTool server started by `start` is running.")
        return 0
    state = _read_state(state_path)
    if _is_server(state["pid"]):
        terminate(state["pid"], running=_is_server)
        print(f"LanguageTool server at {state['url']} (pid {state['pid']}) stopped.")
    if state.get("log"):
        Path(state["log"]).unlink(missing_ok=True)
    state_path.unlink()
    return 0


def _status(args: argparse.Namespace) -> int:
    url = args.url or default_url()
    state_path = _state_path(languagetool_home())
    if state_path.is_file():
        state = _read_state(state_path)
        print(
            f"started by `start`: pid {state['pid']} at {state['url']} "
            f"({'running' if _is_server(state['pid']) else 'not running'})"
        )
    if answers(url, timeout=5.0):
        print(f"A LanguageTool server answers at {url}.")
        return 0
    print(f"No LanguageTool server answers at {url}.")
    return 1


def _run(args: argparse.Namespace) -> int:
    command = list(args.command)
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        raise LanguageToolSetupError("run: give the command to run, e.g. `run -- pytest -q`")

    def stop_on_signal(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop_on_signal)
    signal.signal(signal.SIGHUP, stop_on_signal)
    with LocalLanguageTool(port=args.port, memory=args.memory) as url:
        print(f"LanguageTool server running at {url} for: {' '.join(command)}", flush=True)
        child = subprocess.Popen(command, env={**os.environ, URL_VARIABLE: url})
        try:
            status = child.wait()
            return 128 - status if status < 0 else status  # killed by a signal: the shell's convention
        except BaseException:
            child.terminate()
            child.wait()
            raise
        finally:
            print(f"Stopping the LanguageTool server at {url}.", flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m pyterrier_rag_axioms.languagetool fetch|start|stop|status|run``."""
    parser = argparse.ArgumentParser(
        prog="python -m pyterrier_rag_axioms.languagetool",
        description="Fetch (Maven), start, stop LanguageTool's HTTP server on 127.0.0.1 for CLAR1.",
    )
    commands = parser.add_subparsers(dest="action", required=True)
    commands.add_parser("fetch", help="resolve the jars with Maven into languagetool/lib/")
    start = commands.add_parser("start", help="start a server in the background and wait until it answers")
    start.add_argument("--port", type=int, default=DEFAULT_PORT, help="port on 127.0.0.1 (default: %(default)s)")
    start.add_argument("--memory", default=DEFAULT_MEMORY, help="Java heap, -Xmx (default: %(default)s)")
    commands.add_parser("stop", help="stop the server that `start` started")
    status = commands.add_parser("status", help="say whether a server answers (exit status 1 if none)")
    status.add_argument("--url", help=f"server URL (default: ${URL_VARIABLE} or {DEFAULT_URL})")
    run = commands.add_parser("run", help=f"start a server, run a command with ${URL_VARIABLE} set, stop the server")
    run.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: a free one)")
    run.add_argument("--memory", default=DEFAULT_MEMORY, help="Java heap, -Xmx (default: %(default)s)")
    run.add_argument("command", nargs=argparse.REMAINDER, help="the command, after --")
    args = parser.parse_args(argv)
    try:
        if args.action == "fetch":
            print(f"LanguageTool jars in {fetch()}")
            return 0
        return {"start": _start, "stop": _stop, "status": _status, "run": _run}[args.action](args)
    except LanguageToolSetupError as error:
        print(f"languagetool: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
