"""Progress where people wait: on a terminal, ``rag-axioms`` shows one ``pt.tqdm`` bar per long stage
(parsing, embedding) and no model library's own bars; ``--quiet`` leaves stderr empty.

The commands run under a pseudo-terminal (stderr is a tty, as in an interactive shell) on a slice of
the TREC 2024 RAG development answers: two topics, four runs each.
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import numpy as np
import pytest

TOPICS, RUNS = 2, 4
LIBRARY_BARS = re.compile(r"Loading weights|Batches|Fetching \d+ files|it/s\]")


@pytest.fixture(scope="module")
def dev_slice(shared_data, tmp_path_factory) -> dict[str, Path]:
    """The first topics' answers of the first runs: the nugget assignment lines, and a response file."""
    lines = (shared_data / "trec-rag-2024" / "nugget_assignment.dev.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    qids = list(dict.fromkeys(record["qid"] for record in records))[:TOPICS]
    runs = list(dict.fromkeys(record["run_id"] for record in records))[:RUNS]
    kept = [line for line, record in zip(lines, records) if record["qid"] in qids and record["run_id"] in runs]
    directory = tmp_path_factory.mktemp("dev-slice")
    nuggets = directory / "nuggets.jsonl"
    nuggets.write_text("\n".join(kept) + "\n", encoding="utf-8")
    responses = directory / "responses.jsonl"
    responses.write_text("".join(
        json.dumps({"qid": record["qid"], "query": record["query"], "docno": record["run_id"],
                    "response": record["answer_text"]}) + "\n"
        for record in map(json.loads, kept)
    ), encoding="utf-8")
    return {"nuggets": nuggets, "responses": responses}


def run_on_a_terminal(arguments: list[str], cwd: Path) -> tuple[int, str, str]:
    """Run ``rag-axioms`` with stderr on a pseudo-terminal: exit status, stdout, what the terminal showed."""
    main, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # 24 rows, 100 columns
    environment = {**os.environ, "HF_HUB_OFFLINE": "1", "TERM": "xterm"}
    environment.pop("HF_HUB_DISABLE_PROGRESS_BARS", None)
    process = subprocess.Popen([sys.executable, "-m", "pyterrier_rag_axioms", *arguments], cwd=cwd,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=terminal, env=environment)
    os.close(terminal)
    shown = bytearray()
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        ready, _, _ = select.select([main], [], [], 1.0)
        if ready:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the terminal closed: the process is gone
                break
            if not chunk:
                break
            shown += chunk
        elif process.poll() is not None:
            break
    os.close(main)
    stdout = process.stdout.read().decode()
    status = process.wait(timeout=60)
    return status, stdout, shown.decode(errors="replace")


def bars(shown: str) -> set[str]:
    """The descriptions of the tqdm bars a terminal showed (``spaCy: 100%|...``)."""
    return set(re.findall(r"([A-Za-z][\w ]*): +\d+%\|", shown))


@pytest.fixture
def project_root() -> Path:
    return Path(__file__).resolve().parents[2]


def test_judge_shows_one_bar_per_stage_on_a_terminal(dev_slice, project_root):
    status, stdout, shown = run_on_a_terminal(["judge", str(dev_slice["responses"]), "--axioms", "COV1,COV7,LEN1"],
                                              project_root)
    assert status == 0, shown
    assert f"{TOPICS * RUNS} responses to {TOPICS} queries" in stdout
    assert {"spaCy", "Embeddings"} <= bars(shown), shown
    assert not LIBRARY_BARS.search(shown), shown  # the model libraries' own bars stay hidden
    assert "Traceback" not in shown


def test_runs_shows_progress_and_quiet_shows_nothing(dev_slice, project_root):
    arguments = ["runs", str(dev_slice["responses"]), "--nuggets", str(dev_slice["nuggets"])]
    status, stdout, shown = run_on_a_terminal(arguments, project_root)
    assert status == 0, shown
    assert "PreferenceModel" in bars(shown), shown  # the judge's values, axiom by axiom
    assert not LIBRARY_BARS.search(shown), shown

    status, quiet_stdout, quiet_shown = run_on_a_terminal([*arguments, "--quiet"], project_root)
    assert status == 0
    assert quiet_shown.strip() == "", quiet_shown
    assert quiet_stdout == stdout  # the same results, only without the bars


def test_judge_quiet_and_redirected_stderr_show_nothing(dev_slice, project_root):
    status, _, shown = run_on_a_terminal(["judge", str(dev_slice["responses"]), "--axioms", "COV1,LEN1", "--quiet"],
                                         project_root)
    assert status == 0 and shown.strip() == "", shown
    redirected = subprocess.run(  # stderr to a pipe, as from a program: no bars without --verbose
        [sys.executable, "-m", "pyterrier_rag_axioms", "judge", str(dev_slice["responses"]), "--axioms", "COV1"],
        cwd=project_root, capture_output=True, text=True, env={**os.environ, "HF_HUB_OFFLINE": "1"}, timeout=600,
    )
    assert redirected.returncode == 0 and redirected.stderr == "", redirected.stderr


def test_the_embedding_bar_changes_no_embedding(capfd):
    from pyterrier_rag_axioms.tools import SentenceSimilarity

    texts = [f"Sentence number {i} says {'more ' * (i % 5)}about the sky." for i in range(40)]
    encoder = SentenceSimilarity(batch_size=8)
    quiet = encoder._encode(texts, verbose=False)
    shown = encoder._encode(texts, verbose=True)
    assert np.array_equal(quiet, shown)
    err = capfd.readouterr().err
    assert "Embeddings" in err and not LIBRARY_BARS.search(err), err
