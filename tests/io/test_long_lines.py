"""A small gzip file holding one huge line is refused after MAX_LINE_BYTES, without reading the line into memory."""

from __future__ import annotations

import gzip
import subprocess
import sys

from conftest import PROJECT_ROOT

from pyterrier_rag_axioms.io import MAX_LINE_BYTES

LINE_BYTES = 600 * 1024 * 1024  # ten times the limit, some 600 KB compressed

READ_AND_MEASURE = """
import resource, sys
from pyterrier_rag_axioms.io import iter_jsonl
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    for _ in iter_jsonl(sys.argv[1]):
        pass
except ValueError as error:
    print(error)
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print("grown MB", grown // 1024)
"""


def test_one_huge_line_in_a_small_gzip_file_fails_cleanly_within_bounded_memory(tmp_path):
    path = tmp_path / "huge.jsonl.gz"
    chunk = b"x" * (1 << 20)
    with gzip.open(path, "wb", compresslevel=9) as stream:
        stream.write(b'{"qid": "1", "response": "')
        for _ in range(LINE_BYTES // len(chunk)):
            stream.write(chunk)
        stream.write(b'"}\n')
    assert path.stat().st_size < 2 * 1024 * 1024
    finished = subprocess.run(
        [sys.executable, "-c", READ_AND_MEASURE, str(path)],
        capture_output=True,
        text=True,
        cwd=PROJECT_ROOT,
        timeout=600,
    )
    assert finished.returncode == 0, finished.stderr
    message, grown = finished.stdout.splitlines()
    assert message.startswith(f"{path}:1: the line is longer than {MAX_LINE_BYTES:,} bytes"), message
    assert int(grown.split()[-1]) < 4 * MAX_LINE_BYTES // (1024 * 1024), grown  # far below the line's 600 MB
