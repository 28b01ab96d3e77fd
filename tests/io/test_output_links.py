"""Outputs that are links, and write errors: a link is replaced by a plain file with the umask's mode (never its
target's setuid, setgid or world-write), and every write error names the file."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from conftest import PROJECT_ROOT

from pyterrier_rag_axioms.io import atomic_write, write_frame
from pyterrier_rag_axioms.io.atomic import output_mode

FRAME = pd.DataFrame([{"qid": "q1", "query": "Why?", "docno": "a", "response": "Because."}])


@pytest.fixture
def umask_022():
    previous = os.umask(0o022)
    yield 0o644
    os.umask(previous)


def test_a_link_to_a_setuid_program_becomes_a_plain_file_with_the_umasks_mode(tmp_path, umask_022):
    program = tmp_path / "program"
    program.write_bytes(b"#!/bin/sh\n")
    os.chmod(program, 0o4755)
    assert program.stat().st_mode & stat.S_ISUID
    output = tmp_path / "pw.tsv"
    output.symlink_to(program)
    write_frame(FRAME, output)
    info = os.lstat(output)
    assert stat.S_ISREG(info.st_mode) and not output.is_symlink()
    assert stat.S_IMODE(info.st_mode) == umask_022
    assert program.read_bytes() == b"#!/bin/sh\n" and stat.S_IMODE(program.stat().st_mode) == 0o4755


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_link_to_a_world_writable_device_becomes_a_plain_file_that_is_not_world_writable(tmp_path, umask_022):
    output = tmp_path / "out.jsonl.gz"
    output.symlink_to("/dev/full")
    write_frame(FRAME, output)
    assert stat.S_ISREG(os.lstat(output).st_mode)
    assert stat.S_IMODE(os.lstat(output).st_mode) == umask_022


def test_a_replaced_plain_file_keeps_its_mode_less_setuid_setgid_and_world_write(tmp_path):
    output = tmp_path / "out.jsonl"
    output.write_text("old\n")
    os.chmod(output, 0o6777)
    assert output_mode(output) == 0o775
    write_frame(FRAME, output)
    assert stat.S_IMODE(output.stat().st_mode) == 0o775


def test_a_dangling_link_is_replaced_and_its_target_never_made(tmp_path, umask_022):
    output = tmp_path / "out.tsv"
    output.symlink_to(tmp_path / "elsewhere" / "target.tsv")
    write_frame(FRAME, output)
    assert not output.is_symlink() and stat.S_IMODE(output.stat().st_mode) == umask_022
    assert not (tmp_path / "elsewhere").exists()


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EFBIG, errno.EDQUOT])
def test_an_error_while_writing_names_the_output(tmp_path, code):
    def write(path):
        with open(path, "w") as stream:
            stream.write("x")
            raise OSError(code, os.strerror(code))

    with pytest.raises(OSError) as caught:
        atomic_write(tmp_path / "out.tsv", write)
    assert caught.value.errno == code
    assert str(caught.value).startswith(f"{tmp_path / 'out.tsv'}: cannot be written ({os.strerror(code)})")
    assert list(tmp_path.iterdir()) == []


_TOO_LARGE = """
import resource, signal, sys
import pandas as pd
from pyterrier_rag_axioms.io import write_frame
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of the signal, as under a shell's ulimit -f
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
try:
    numbers = range(5000)
    write_frame(pd.DataFrame({"qid": [f"q{i}" for i in numbers], "response": [f"answer {i * i}" for i in numbers]}),
                sys.argv[1])
except OSError as error:
    print(error.errno, error)
"""


@pytest.mark.parametrize("name", ["big.tsv", "big.jsonl.gz", "big.parquet"])
def test_a_file_too_large_names_the_output(tmp_path, name):
    target = tmp_path / name
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    done = subprocess.run([sys.executable, "-c", _TOO_LARGE, str(target)], capture_output=True, text=True, env=env,
                          timeout=120)
    code, _, message = done.stdout.strip().partition(" ")
    assert code == str(errno.EFBIG), done.stdout + done.stderr
    assert message.startswith(f"{target}: cannot be written ("), message
    assert Path(tmp_path).exists() and [path.name for path in tmp_path.iterdir()] == []


def test_the_command_line_replaces_an_output_link_to_a_setuid_program_by_a_plain_file(tmp_path):
    from conftest import run_cli

    from pyterrier_rag_axioms.sample import trec_sample_path

    program = tmp_path / "passwd"
    program.write_bytes(b"\x7fELF")
    os.chmod(program, 0o4755)
    output = tmp_path / "pw.tsv"
    output.symlink_to(program)
    completed = run_cli("score", str(trec_sample_path("assignments.jsonl")), "--output", "pw.tsv", cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    info = os.lstat(output)
    assert stat.S_ISREG(info.st_mode)
    assert not info.st_mode & (stat.S_ISUID | stat.S_ISGID | stat.S_IWOTH)
    assert output.read_text().startswith("run\ttopics\tall")
    assert program.read_bytes() == b"\x7fELF" and stat.S_IMODE(program.stat().st_mode) == 0o4755
