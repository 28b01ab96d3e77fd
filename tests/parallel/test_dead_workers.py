"""Worker processes of whole topics that die, and callers that end: a clear error, and no worker left behind."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

import pyterrier_rag_axioms as rag
from pyterrier_rag_axioms.runtime.processes import WorkerDiedError, map_topics
from pyterrier_rag_axioms.sample import trec_sample_path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")
#: How long a test waits for what should take seconds, before it calls the wait a hang.
HANG = 60
#: How long a test waits for a command or transformer to load its models and fork its workers
#: (on first use it builds them: minutes on a busy machine).
START = 900


def _children(parent: int) -> set[int]:
    """The running child processes of ``parent`` (from /proc: zombies, which run nothing, left out)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                state, ppid = (entry / "stat").read_text().rpartition(")")[2].split()[:2]
            except OSError:  # ended meanwhile
                continue
            if int(ppid) == parent and state not in "ZX":
                found.add(int(entry.name))
    return found


def _running(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rpartition(")")[2].split()[0] not in "ZX"
    except OSError:
        return False


def _wait_for_children(parent: int, count: int, ignore: set[int] = frozenset()) -> set[int]:
    deadline = time.monotonic() + START
    while time.monotonic() < deadline:
        children = _children(parent) - ignore
        if len(children) >= count:
            return children
        time.sleep(0.01)
    raise AssertionError(f"no {count} worker processes of {parent} within {START} s")


def _in_thread(call, limit: float = HANG):
    """``call()`` in a thread: its result or error, once it ended within ``limit`` seconds."""
    outcome: dict[str, object] = {}

    def run():
        try:
            outcome["result"] = call()
        except BaseException as error:  # noqa: BLE001 (the test looks at it)
            outcome["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(limit)
    assert not thread.is_alive(), f"the call had not ended after {limit} s"
    return outcome


def test_a_killed_worker_ends_the_call_with_the_topics_it_held():
    def work(topics, verbose):
        if topics == ["b"]:
            os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer would
        time.sleep(0.2 if topics == ["a"] else HANG)  # "c" is still at work: it is stopped, not waited for
        return topics

    before = _children(os.getpid())
    outcome = _in_thread(lambda: map_topics(work, ["a", "b", "c"], weights=[3, 2, 1], processes=2))
    error = outcome.get("error")
    assert isinstance(error, WorkerDiedError) and isinstance(error, RuntimeError)
    assert str(error) == (
        "a worker process was killed by SIGKILL (perhaps for lack of memory) while it held topic b; no result "
        "was kept: give it more memory, or use one process (processes=1, --processes 1)"
    )
    assert _children(os.getpid()) - before == set()  # the other worker is gone too


def test_a_killed_worker_of_the_assigner_ends_the_call(sample_responses: pd.DataFrame):
    nuggets = pd.DataFrame(
        [
            {"qid": qid, "nugget": text.split(". ")[0], "importance": "vital"}
            for qid, text in sample_responses.groupby("qid", sort=False)["response"].first().items()
        ]
    )
    assigner = rag.nuggets.NuggetAssigner(nuggets=nuggets, processes=2)
    before = _children(os.getpid())

    def kill_one_worker():
        os.kill(min(_wait_for_children(os.getpid(), 1, ignore=before)), signal.SIGKILL)

    killer = threading.Thread(target=kill_one_worker, daemon=True)
    killer.start()
    outcome = _in_thread(lambda: assigner(sample_responses), START)  # it loads its models, then forks
    killer.join(HANG)
    error = outcome.get("error")
    assert isinstance(error, WorkerDiedError), outcome
    topics = set(sample_responses["qid"])
    assert "was killed by SIGKILL" in str(error) and "--processes 1" in str(error)
    assert any(f"topic {topic}" in str(error) or f", {topic}" in str(error) for topic in topics)
    assert _children(os.getpid()) - before == set()


def test_two_threads_map_their_own_topics_at_once():
    def work(name):
        return lambda topics, verbose: [(name, topic) for topic in topics]

    outcomes = {}
    threads = [
        threading.Thread(
            target=lambda name=name: outcomes.update(
                {name: map_topics(work(name), list("abcd"), weights=[1, 1, 1, 1], processes=2)}
            )
        )
        for name in ("x", "y")
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(HANG)
    for name in ("x", "y"):
        assert sorted(pair for group in outcomes[name] for pair in group) == [(name, topic) for topic in "abcd"]


def _command(name: str, *options: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "pyterrier_rag_axioms", name, "--quiet", *options],
        cwd=PROJECT_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )


def test_the_command_reports_a_killed_worker_in_one_line():
    command = _command("assign", "--processes", "2")  # the shipped sample: two topics, one per worker
    os.kill(min(_wait_for_children(command.pid, 2)), signal.SIGKILL)
    out, err = command.communicate(timeout=HANG)
    assert command.returncode == 2 and out == ""
    (line,) = err.strip().splitlines()
    assert line.startswith("rag-axioms assign: error: a worker process was killed by SIGKILL")
    assert line.endswith("give it more memory, or use one process (processes=1, --processes 1)")


@pytest.mark.parametrize(
    ("name", "ending"), [("assign", signal.SIGTERM), ("nuggetize", signal.SIGHUP), ("assign", signal.SIGKILL)]
)
def test_no_worker_outlives_the_command(name: str, ending: signal.Signals, tmp_path: Path):
    runs = sorted((trec_sample_path() / "runs").iterdir())
    options = [*map(str, runs), "--output", str(tmp_path / "nuggets.jsonl")] if name == "nuggetize" else []
    command = _command(name, *options, "--processes", "2")
    workers = _wait_for_children(command.pid, 2)
    command.send_signal(ending)
    command.wait(timeout=HANG)
    time.sleep(2)
    assert [pid for pid in workers if _running(pid)] == []
    out, err = command.communicate(timeout=HANG)  # a worker left running would hold the pipes open
    assert "Traceback" not in err and "BrokenPipeError" not in err
    if ending != signal.SIGKILL:  # the command stops its workers and says so in one line
        assert command.returncode == 128 + ending
        assert err.strip().splitlines() == [f"rag-axioms {name}: terminated by {ending.name}"]


def test_a_worker_terminated_from_outside_is_named_in_one_line_without_memory_advice():
    topics = [f"{number:03d}" for number in range(40)]

    def work(group, verbose):
        if "005" in group:
            os.kill(os.getpid(), signal.SIGTERM)  # as a job scheduler or a person would
        time.sleep(HANG)
        return group

    before = _children(os.getpid())
    outcome = _in_thread(lambda: map_topics(work, topics, weights=[1] * 40, processes=2))
    error = outcome.get("error")
    assert isinstance(error, WorkerDiedError), outcome
    message = str(error)
    assert "\n" not in message
    assert message.startswith(
        "a worker process was terminated by SIGTERM (sent from outside, not for lack of memory) before "
    )
    assert "more memory" not in message and "--processes 1" in message
    named = re.search(r"before (\d+) topics \((\d+), (\d+), (\d+) and (\d+) more\) were done", message)
    assert named is not None, message
    count, *qids, more = named.groups()
    assert 2 <= int(count) <= 40 and int(more) == int(count) - 3 and all(qid in topics for qid in qids)
    assert _children(os.getpid()) - before == set()
