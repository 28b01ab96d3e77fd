"""``rag-axioms cache --build``: the defaults' model files built on an empty cache, whole and where it says."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from pyterrier_rag_axioms.runtime.model_files import file_sha256, record_path


def test_cache_build_makes_every_default_model_file_and_names_it(tmp_path):
    environment = {**os.environ, "XDG_CACHE_HOME": str(tmp_path), "HF_HUB_OFFLINE": "1"}
    environment.pop("RAG_AXIOMS_CACHE", None)
    built = subprocess.run([sys.executable, "-m", "pyterrier_rag_axioms", "cache", "--build"], capture_output=True,
                           text=True, env=environment, check=False)
    assert built.returncode == 0 and built.stderr == "", built.stderr
    lines = dict(re.fullmatch(r"(\S+): (\S+) \(SHA-256 ([0-9a-f]{16})\.\.\.\)", line).group(1, 2)
                 for line in built.stdout.splitlines())
    assert set(lines) == {"static", "onnx"}  # the judge's and extractor's encoder, the assigner's
    for path in map(Path, lines.values()):
        assert path.is_relative_to(tmp_path) and path.is_file()
        assert json.loads(record_path(path).read_text())["sha256"] == file_sha256(path)
