"""The processes behind a local server: which ones listen on a TCP port (so that texts go only to the
server process we started), and stopping the server with this process or on request.

An answer on a port says nothing about who answers: any process that holds the port first gets
the texts. The listening sockets' owners come from ``psutil`` where it is installed (the
``languagetool`` extra), else from Linux's ``/proc``; where neither can tell, :func:`listeners`
gives ``None`` and the caller falls back to the answer alone.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

_LISTEN = "0A"  # the state of a listening socket in /proc/net/tcp


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    """Whether nothing listens on ``host:port``, so that a server can bind it (closing sockets do not count)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as Java's server socket does
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def _psutil_listeners(port: int) -> set[int | None] | None:
    try:
        import psutil
    except ImportError:
        return None
    try:
        connections = psutil.net_connections(kind="tcp")
    except (psutil.AccessDenied, OSError):
        return None
    return {c.pid for c in connections if c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port}


def _proc_listeners(port: int) -> set[int | None] | None:
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if len(fields) > 9 and fields[3] == _LISTEN and int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(f"socket:[{fields[9]}]")
    if not Path("/proc/net/tcp").exists():
        return None
    owners: set[int | None] = set()
    found: set[str] = set()
    for process in Path("/proc").iterdir():
        if not inodes - found:
            break
        if not process.name.isdigit():
            continue
        try:
            links = {os.readlink(descriptor) for descriptor in (process / "fd").iterdir()}
        except OSError:
            continue
        if links & inodes:
            owners.add(int(process.name))
            found |= links & inodes
    if inodes - found:
        owners.add(None)  # a listener whose process this user may not see
    return owners


def listeners(port: int) -> set[int | None] | None:
    """The ids of the processes that listen on TCP ``port`` (``None`` in the set: one not visible to
    this user); ``None`` where this system cannot tell."""
    found = _psutil_listeners(port)
    return _proc_listeners(port) if found is None else found


def describe(pids: set[int | None] | None) -> str:
    """The processes of :func:`listeners` in words: ``pid 123 (java)``, or ``another process``."""
    known = sorted(pid for pid in pids or () if pid is not None)
    if not known:
        return "another process"
    names = []
    for pid in known:
        try:
            name = Path(f"/proc/{pid}/comm").read_text().strip()
        except OSError:
            name = ""
        names.append(f"pid {pid}" + (f" ({name})" if name else ""))
    return ", ".join(names)


def stop_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    """Linux: the server receives SIGTERM when the process that started it dies, even by SIGKILL."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def terminate(pid: int, *, running: Callable[[int], bool], wait=None, grace: float = 20.0) -> None:
    """SIGTERM to ``pid``, SIGKILL after ``grace`` seconds; ``wait`` reaps a child of this process, else
    ``running(pid)`` says whether it still runs."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        if wait is not None:
            try:
                wait(timeout=0.2)
                return
            except subprocess.TimeoutExpired:
                continue
        if not running(pid):
            return
        time.sleep(0.2)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        return
    if wait is not None:
        wait()
