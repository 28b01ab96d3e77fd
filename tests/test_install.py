"""The package installs as a user installs it, and the installed copy alone runs the command line.

``python -m build`` makes the sdist and, from it, the wheel (so nothing stale in ``build/``
ships). A new virtual environment sits on top of the development one: ``--system-site-packages``,
and the development environment's site-packages added by a ``.pth`` file, so the dependencies
(torch among them) are not installed a second time. The wheel goes in with ``--no-deps``; the
package must then be imported from the new environment, not from the checkout, and its
``rag-axioms`` script must judge and rank the sample shipped inside the package with the shipped
preference model. A file missing from the package data or a wrong entry point fails here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[1]


def _run(command: list, **arguments) -> subprocess.CompletedProcess:
    result = subprocess.run([str(part) for part in command], capture_output=True, text=True, timeout=600, **arguments)
    assert result.returncode == 0, f"{command}: exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    pytest.importorskip("build", reason="the test extra: pip install 'pyterrier-rag-axioms[test]'")
    out = tmp_path_factory.mktemp("dist")
    # no isolation: the development environment's setuptools builds, so no download is needed
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", out, PROJECT_ROOT])
    return out


@pytest.fixture(scope="module")
def installed(dist, tmp_path_factory) -> Path:
    """A new virtual environment holding the wheel; its ``bin`` directory."""
    venv = tmp_path_factory.mktemp("user") / "venv"
    _run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", venv])
    python = venv / "bin" / "python"
    site = _run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).stdout.strip()
    development = sysconfig.get_path("purelib")
    Path(site, "development-environment.pth").write_text(f"import site; site.addsitedir({development!r})\n")
    (wheel,) = dist.glob("*.whl")
    _run([python, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", wheel], env=_user_environment())
    return venv / "bin"


def _user_environment() -> dict[str, str]:
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return {**environment, "HF_HUB_OFFLINE": "1"}


def test_the_wheel_is_built_from_the_sdist_with_the_package_data(dist):
    (sdist,) = dist.glob("*.tar.gz")
    (wheel,) = dist.glob("*.whl")
    with tarfile.open(sdist) as archive:
        in_sdist = {Path(name).name for name in archive.getnames()}
    with zipfile.ZipFile(wheel) as archive:
        in_wheel = archive.namelist()
    assert {"pyproject.toml", "README.md"} <= in_sdist
    assert any(name.endswith("sample/responses.jsonl") for name in in_wheel), in_wheel
    trec_sample = [name for name in in_wheel if "sample/trec-rag-2024/" in name]
    assert sum("/runs/" in name for name in trec_sample) == 8, trec_sample
    for name in ("topics.txt", "nuggets.jsonl", "assignments.jsonl", "README.md"):
        assert any(path.endswith(f"trec-rag-2024/{name}") for path in trec_sample), (name, trec_sample)
    assert sum(name.endswith(".json") and "/models/" in name for name in in_wheel) >= 2, in_wheel
    assert any(name.endswith("entry_points.txt") for name in in_wheel)
    assert not any(name.startswith(("tests/", "docs/", "benchmarks/")) for name in in_wheel)


def test_the_installed_wheel_alone_runs_the_command_line_on_the_shipped_sample(installed, tmp_path):
    environment = _user_environment()
    imported = _run([installed / "python", "-c", "import pyterrier_rag_axioms as p; print(p.__file__)"],
                    cwd=tmp_path, env=environment).stdout.strip()
    assert Path(imported).is_relative_to(installed.parent), f"imported from {imported}, not from the new environment"

    preferences = tmp_path / "preferences.jsonl"
    _run([installed / "rag-axioms", "--axioms", "COV1,CORR1,CLAR2", "--output", preferences], cwd=tmp_path,
         env=environment)
    rows = [json.loads(line) for line in preferences.read_text().splitlines()]
    assert len(rows) == 48  # the sample: 8 queries, 4 responses each, 6 pairs per query
    assert {"COV1", "CORR1", "CLAR2"} <= set(rows[0])

    ranking = tmp_path / "ranking.run"
    _run([installed / "rag-axioms", "rerank", "--model", "nuggets", "--output", ranking], cwd=tmp_path,
         env=environment)
    assert len(ranking.read_text().splitlines()) == 32
