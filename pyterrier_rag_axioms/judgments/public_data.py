"""The public TREC 2024 RAG and CrowdRAG-25 files: where they come from, fetched once, checked, cached.

The files are those of the ``data/`` folder of the ir-axioms repository (the artifact of the
ICTIR 2025 paper on RAG axioms), pinned to one commit. :func:`public_file` gives the path of one
on this machine: a local copy under ``$RAG_AXIOMS_DATA``, else the cached download, else it
downloads the file (with a progress bar), checks its SHA-256 and only then moves it into the cache
under PyTerrier's data folder. A wrong checksum or a cut-off transfer is refused, and no partial
file is left behind.
"""

from __future__ import annotations

import hashlib
import os
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import pyterrier as pt

from pyterrier_rag_axioms.io import atomic_write

#: The repository and commit that hold the public files.
DATA_REPOSITORY = "webis-de/ir_axioms"
DATA_COMMIT = "cd9b4f33f4991e470adb19e6f7316c4a6dd5431a"
#: Where the files are downloaded from: the repository's raw files at :data:`DATA_COMMIT`.
DEFAULT_BASE_URL = f"https://raw.githubusercontent.com/{DATA_REPOSITORY}/{DATA_COMMIT}/"
#: Environment variable with another base URL (a mirror; the tests' server on 127.0.0.1).
BASE_URL_VARIABLE = "RAG_AXIOMS_DATA_URL"
#: Environment variable naming a local copy: ``$RAG_AXIOMS_DATA/<dataset>/<file name>``.
DATA_VARIABLE = "RAG_AXIOMS_DATA"
#: Seconds to wait for the server before a download fails.
DOWNLOAD_TIMEOUT = 60.0


@dataclass(frozen=True)
class PublicFile:
    """One public data file: its dataset, its role there, its path in the repository, its checksum and size."""

    dataset: str
    role: str
    path: str
    sha256: str
    size: int
    description: str

    @property
    def name(self) -> str:
        """The file's name, as cached and as looked up in a local copy."""
        return PurePosixPath(self.path).name


#: The public files, by dataset and role.
PUBLIC_FILES: tuple[PublicFile, ...] = (
    PublicFile(
        "trec-rag-2024",
        "nuggets",
        "data/nugget_assignment.20241108.jl",
        "84ceb734107dbe26fb1c98bff103121be8bb8f52bab5513e6b28a468102095ae",
        2894439,
        "TREC 2024 RAG nugget assignments by NIST assessors (21 topics, 45 runs)",
    ),
    PublicFile(
        "trec-rag-2024",
        "topics",
        "data/topics.rag24.test.txt",
        "a05c85cceb11d0967befcd2fb12696ba5dc9f97c9430b548906e8fa34c63509b",
        19216,
        "the 301 TREC 2024 RAG test topics (qid<TAB>query)",
    ),
    PublicFile(
        "crowdrag-25",
        "ratings",
        "data/crowd/ratings.jsonl.gz",
        "37c13dad214b05cffbe5c4d8ea99ab86ec0b5d3161c121056f7c8e4dacbda3f1",
        726948,
        "CrowdRAG-25 pairwise utility judgments (1,352 judged pairs, 5 workers each)",
    ),
    PublicFile(
        "crowdrag-25",
        "retrieval",
        "data/crowd/study1_retrieval.jsonl.gz",
        "2d7c5137b4513e1543537be7af9bebb855e53411dbdb45ebf88e2b8004522746",
        2386113,
        "CrowdRAG-25 retrieved passages per topic (301 topics, 20 passages each)",
    ),
)


def public_datasets() -> tuple[str, ...]:
    """The names of the datasets with public files."""
    return tuple(dict.fromkeys(file.dataset for file in PUBLIC_FILES))


def dataset_files(dataset: str) -> tuple[PublicFile, ...]:
    """The public files of ``dataset`` (``"trec-rag-2024"`` or ``"crowdrag-25"``)."""
    files = tuple(file for file in PUBLIC_FILES if file.dataset == dataset)
    if not files:
        raise ValueError(f"unknown dataset {dataset!r}; the datasets are {', '.join(public_datasets())}")
    return files


def find_public_file(dataset: str, role: str) -> PublicFile:
    """The public file of ``dataset`` with ``role`` (e.g. ``"nuggets"``)."""
    for file in dataset_files(dataset):
        if file.role == role:
            return file
    roles = ", ".join(file.role for file in dataset_files(dataset))
    raise ValueError(f"dataset {dataset!r} has no {role!r} file; it has {roles}")


def cache_folder() -> Path:
    """Where downloads are kept: ``rag-axioms/`` in PyTerrier's data folder (``$PYTERRIER_HOME``, ``~/.pyterrier``)."""
    return Path(pt.io.pyterrier_home()) / "corpora" / "rag-axioms"


def cached_path(file: PublicFile) -> Path:
    """The path of ``file`` in the cache (which may not hold it yet)."""
    return cache_folder() / file.dataset / file.name


def local_copy_path(file: PublicFile) -> Path | None:
    """The path of ``file`` in the local copy that ``$RAG_AXIOMS_DATA`` names, or ``None`` where none is set."""
    folder = os.environ.get(DATA_VARIABLE)
    return Path(folder) / file.dataset / file.name if folder else None


def base_url() -> str:
    """The base URL of downloads: ``$RAG_AXIOMS_DATA_URL`` where set, else :data:`DEFAULT_BASE_URL`."""
    return os.environ.get(BASE_URL_VARIABLE) or DEFAULT_BASE_URL


def file_url(file: PublicFile, base: str | None = None) -> str:
    """The URL ``file`` is downloaded from."""
    return (base or base_url()).rstrip("/") + "/" + file.path


def sha256_of(path: Path) -> str:
    """The SHA-256 of a file, as hex digits."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        while chunk := stream.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def copy_problem(file: PublicFile, path: Path) -> str | None:
    """What is wrong with ``path`` as a copy of ``file`` (``None``: it is the public file), the one rule of
    ``data list``, ``data fetch``, the cache and a local copy alike.

    The size is compared first (from the file system, at no cost), so a truncated copy or a huge
    sparse file is told apart at once; only a file of the right size is hashed.
    """
    try:
        info = path.stat()
    except OSError as error:
        return error.strerror or str(error)
    if not path.is_file():
        return "not a file"
    if info.st_size != file.size:
        return f"{info.st_size:,} bytes, not the {file.size:,} of the public file"
    if sha256_of(path) != file.sha256:
        return f"its SHA-256 differs from {file.sha256[:12]}..."
    return None


def is_cached(file: PublicFile) -> bool:
    """Whether the cache holds ``file`` with the right size and checksum."""
    path = cached_path(file)
    return path.is_file() and copy_problem(file, path) is None


def _check_local_copy(file: PublicFile, path: Path) -> Path:
    problem = copy_problem(file, path)
    if problem is not None:
        raise ValueError(
            f"{path}: not the public {file.name} ({problem}); "
            f"replace it with the file of {DATA_REPOSITORY} at commit {DATA_COMMIT[:12]}, or unset {DATA_VARIABLE}"
        )
    return path


def _download_to(url: str, file: PublicFile, target: Path, *, verbose: bool) -> None:
    """Stream ``url`` into ``target``, checking size and checksum; raise on any difference."""
    digest = hashlib.sha256()
    received = 0
    try:
        with urllib.request.urlopen(url, timeout=DOWNLOAD_TIMEOUT) as response, open(target, "wb") as out:
            announced = response.headers.get("Content-Length")
            with pt.tqdm(
                total=int(announced) if announced else file.size,
                unit="B",
                unit_scale=True,
                desc=f"{file.dataset}/{file.name}",
                disable=not verbose,
            ) as bar:
                while chunk := response.read(1 << 16):
                    digest.update(chunk)
                    out.write(chunk)
                    received += len(chunk)
                    bar.update(len(chunk))
    except urllib.error.HTTPError as error:
        raise OSError(f"{url}: the server answered {error.code} {error.reason}; nothing was saved") from None
    except (urllib.error.URLError, TimeoutError, ConnectionError) as error:
        reason = getattr(error, "reason", error)
        raise OSError(
            f"{url}: cannot download ({reason}); nothing was saved. Offline? Copy the file to "
            f"${DATA_VARIABLE}/{file.dataset}/{file.name}"
        ) from None
    except Exception as error:  # http.client.IncompleteRead and its kind: the transfer broke off
        if not type(error).__module__.startswith("http"):
            raise
        raise OSError(f"{url}: the transfer broke off after {received} bytes ({error!r}); nothing was saved") from None
    if received != file.size:
        raise OSError(
            f"{url}: received {received} bytes, expected {file.size}; the transfer was cut short, nothing was saved"
        )
    if digest.hexdigest() != file.sha256:
        raise ValueError(
            f"{url}: SHA-256 mismatch (expected {file.sha256}, got {digest.hexdigest()}); nothing was saved"
        )


def download(file: PublicFile, *, base: str | None = None, force: bool = False, verbose: bool = True) -> Path:
    """Download ``file`` into the cache, unless it is there already (or ``force``), and return its path.

    The bytes go to a temporary file next to the cached one, which becomes the cached file only once
    size and checksum are right.

    Raises:
        OSError: the server cannot be reached, answers with an error, or the transfer is cut short.
        ValueError: the file's SHA-256 is not the published one.
    """
    path = cached_path(file)
    if not force and is_cached(file):
        return path
    url = file_url(file, base)
    atomic_write(path, lambda target: _download_to(url, file, Path(target), verbose=verbose), compress=False)
    return path


def public_file(dataset: str, role: str, *, base: str | None = None, force: bool = False, verbose: bool = True) -> Path:
    """The path of a public file on this machine: the local copy, else the cache, else a fresh download.

    A local copy is ``$RAG_AXIOMS_DATA/<dataset>/<file name>`` (e.g.
    ``$RAG_AXIOMS_DATA/trec-rag-2024/nugget_assignment.20241108.jl``); it must have the published
    checksum too.
    """
    file = find_public_file(dataset, role)
    local = local_copy_path(file)
    if local is not None and local.is_file():
        return _check_local_copy(file, local)
    return download(file, base=base, force=force, verbose=verbose)


__all__ = [
    "BASE_URL_VARIABLE",
    "DATA_COMMIT",
    "DATA_REPOSITORY",
    "DATA_VARIABLE",
    "DEFAULT_BASE_URL",
    "PUBLIC_FILES",
    "PublicFile",
    "base_url",
    "cache_folder",
    "cached_path",
    "copy_problem",
    "dataset_files",
    "download",
    "file_url",
    "find_public_file",
    "is_cached",
    "local_copy_path",
    "public_datasets",
    "public_file",
    "sha256_of",
]
