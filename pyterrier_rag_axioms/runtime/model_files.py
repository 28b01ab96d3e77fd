"""Model files built at first use (the ONNX exports, the static encoder's distilled model): once, by one
process, atomically, and checked before every use. Not here: how a file is made, deterministically
(:mod:`~pyterrier_rag_axioms.tools.embeddings.onnx_build`,
:mod:`~pyterrier_rag_axioms.tools.embeddings.static_encoder`).

A model's files live in a folder named by a fingerprint of the model's files, the versions of the
packages that make them and the version of how they are made (:func:`model_folder`), so another
version never reads them. Beside each file, ``<file>.json`` records the SHA-256 of its bytes.

- **Once, by one process.** A build holds an exclusive lock (``fcntl.flock`` on ``.build.lock`` in
  the model's folder) and looks again for the file once it has the lock, so processes that start
  together (worker processes, two commands on one cache) wait for the first one's build instead of
  building beside it.
- **Atomically.** The file is built in a private temporary directory (``.build-*``) beside its
  place, read whole, hashed, and renamed into place; the record follows (:func:`install`). A reader
  never sees a half-written file. A killed build leaves its ``.build-*`` directory, which the next
  build (and ``rag-axioms cache --prune``, :func:`prune_model_folders`) removes; so are the folders of
  other versions, once unused for a while.
- **Checked.** :func:`ensure_file` hashes the file and compares the record before every use (once
  per process and file, while its size and modification time stay the same). A damaged, truncated
  or empty file is built again, with one line on stderr saying so; one that cannot be built raises
  :class:`ModelFileError`, one line naming it.
- **Said, and quiet.** A build says so first, in one line on stderr (:func:`say`; the environment
  variable :data:`QUIET_VARIABLE` silences it); the libraries' own notes and warnings during a build
  never reach the terminal (:func:`quiet_build`).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import shutil
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

from pyterrier_rag_axioms.io import atomic_write
from pyterrier_rag_axioms.runtime.versions import installed_versions

#: The lock file a build holds, in the model's folder.
LOCK_NAME = ".build.lock"
#: How the private temporary directory of a build begins, in the model's folder.
BUILD_PREFIX = ".build-"
#: The environment variable that, set (``--quiet`` sets it), silences the notes on builds and waits.
QUIET_VARIABLE = "RAG_AXIOMS_QUIET"
#: The suffix of the record of a file's hash, beside it.
RECORD_SUFFIX = ".json"

_verified: dict[Path, tuple[tuple[int, int, int], str]] = {}
_used: set[Path] = set()


class ModelFileError(OSError):
    """A model file built here that cannot be built or used: the message names the file and what is wrong."""


def default_model_files_dir() -> Path:
    """Where model files go when no cache directory is set: ``$XDG_CACHE_HOME/pyterrier-rag-axioms``, one
    folder per kind (``onnx``, ``static``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pyterrier-rag-axioms"


def build_versions(packages: tuple[str, ...]) -> dict[str, str | None]:
    """The installed version of each of ``packages`` (``None`` where one is missing)."""
    return installed_versions(packages)


def model_folder(model_path: Path, parent: Path, *, packages: tuple[str, ...], version: int) -> Path:
    """The folder of a model's built files in ``parent``: named by a fingerprint of the model's files,
    the versions of the ``packages`` that build them and how they are built (``version``)."""
    from pyterrier_rag_axioms.runtime.cache import file_fingerprint, namespace_of

    files = {
        str(path.relative_to(model_path)): file_fingerprint(path)
        for path in sorted(model_path.rglob("*"))
        if path.is_file() and path.suffix in {".json", ".txt", ".safetensors", ".bin", ".model"}
    }
    # "export": the key under which the first kind (ONNX exports) recorded its version; kept, so folders stay
    identity = {"files": files, "export": version, "versions": build_versions(packages)}
    return parent / namespace_of(identity).hex()[:24]


def record_path(path: Path) -> Path:
    """Where the record of a model file's hash lives: ``<file>.json`` beside it."""
    return path.with_name(path.name + RECORD_SUFFIX)


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, in hexadecimal digits."""
    with open(path, "rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()


def _recorded_sha256(path: Path) -> str | None:
    """The hash recorded for ``path``, or ``None`` where there is no readable record."""
    try:
        record = json.loads(record_path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    digest = record.get("sha256") if isinstance(record, dict) else None
    return digest if isinstance(digest, str) else None


def check_file(path: Path) -> tuple[str, str]:
    """Whether the model file at ``path`` is whole: ``("good", sha256)``, ``("missing", "")``, or
    ``("damaged", why)`` (no record, or bytes other than recorded)."""
    try:
        status = path.stat()
    except FileNotFoundError:
        return "missing", ""
    except OSError as error:
        return "damaged", error.strerror or str(error)
    stamp = (status.st_ino, status.st_size, status.st_mtime_ns)
    recorded = _recorded_sha256(path)
    known = _verified.get(path)
    if known is not None and known[0] == stamp and known[1] == recorded:
        return "good", recorded
    if recorded is None:
        return "damaged", f"no record of its hash in {record_path(path).name}"
    try:
        digest = file_sha256(path)
    except OSError as error:
        return "damaged", error.strerror or str(error)
    if digest != recorded:
        return "damaged", f"its {status.st_size} bytes are not those recorded in {record_path(path).name}"
    _verified[path] = (stamp, digest)
    return "good", digest


def say(note: str) -> None:
    """Print a one-line note about a model file on stderr, unless notes are off (:data:`QUIET_VARIABLE`)."""
    if not os.environ.get(QUIET_VARIABLE):
        print(f"rag-axioms: {note}", file=sys.stderr, flush=True)


@contextlib.contextmanager
def build_lock(directory: Path, *, waiting: str | None = None) -> Iterator[None]:
    """Hold the exclusive build lock of a model's folder, waiting for another process's build (saying
    so in a note, where ``waiting`` names what is built)."""
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / LOCK_NAME, "a+b") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if waiting is not None:
                say(f"waiting for another process to build the {waiting}")
            fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _mark_used(directory: Path) -> None:
    """Record (once per process and directory) that its model files are in use: the build lock's time, for
    :func:`prune_model_folders`."""
    if directory not in _used:
        _used.add(directory)
        with contextlib.suppress(OSError):
            (directory / LOCK_NAME).touch()


def prune_model_folders(parent: Path, *, unused_days: float = 30.0) -> tuple[int, int]:
    """Remove from ``parent`` the model folders not used for ``unused_days`` days (those of other versions)
    and the private directories of killed builds; returns (model folders, build directories) removed.

    A directory being built (its build lock held) is left alone."""
    folders = builds = 0
    if not parent.is_dir():
        return folders, builds
    cutoff = time.time() - unused_days * 86400
    for directory in sorted(path for path in parent.iterdir() if path.is_dir() and not path.is_symlink()):
        last_used = max((path.stat().st_mtime for path in directory.iterdir()), default=0)  # before the lock
        with open(directory / LOCK_NAME, "a+b") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # a build is under way
            try:
                if last_used < cutoff:
                    shutil.rmtree(directory, ignore_errors=True)
                    folders += 1
                else:
                    builds += len(remove_stale_builds(directory))
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)
    return folders, builds


def remove_stale_builds(directory: Path) -> list[Path]:
    """Remove the private directories of killed builds in ``directory`` (call with the build lock held)."""
    stale = sorted(path for path in directory.glob(BUILD_PREFIX + "*") if path.is_dir())
    for path in stale:
        shutil.rmtree(path, ignore_errors=True)
    return stale


@contextlib.contextmanager
def quiet_build() -> Iterator[None]:
    """Keep the libraries' warnings and log records (root logger included) from the terminal, here only."""
    previous = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        logging.disable(previous)


def install(
    built: Path, target: Path, model_path: Path, *, load: Callable[[Path], object], packages: tuple[str, ...]
) -> str:
    """Check a built file (``load`` reads it whole), rename it into place and record its hash and the
    versions of the ``packages`` that built it; returns the hash."""
    load(built)
    digest = file_sha256(built)
    os.chmod(built, 0o666 & ~_umask())  # as any file written here: libraries write some with 0600
    record_path(target).unlink(missing_ok=True)
    os.replace(built, target)
    record = {"sha256": digest, "size": target.stat().st_size, "model": str(model_path),
              "versions": build_versions(packages)}
    atomic_write(record_path(target), lambda temporary: temporary.write_text(
        json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8"))
    _verified.pop(target, None)
    return digest


def _umask() -> int:
    """The process's file-mode creation mask (read by setting it, and setting it back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def say_rebuilt(path: Path, why: str, what: str) -> None:
    """Say on stderr that the ``what`` at ``path`` is damaged (``why``) and is built again."""
    print(f"rag-axioms: note: {path}: the {what} is damaged ({why}); building it again", file=sys.stderr)


def ensure_file(
    target: Path,
    build: Callable[[Path], str],
    *,
    what: str,
    error: type[ModelFileError] = ModelFileError,
    takes: str = "a minute",
) -> str:
    """Make sure the model file at ``target`` is whole, building it where it is missing or damaged; its SHA-256.

    ``build(private)`` makes the file in the private directory ``private`` and installs it (see
    :func:`install`), returning its hash; ``what`` names the file in notes and errors. A build says
    so first, in one line on stderr with ``takes``, roughly how long it takes on two cores; so does
    a wait for another process's build (both unless :data:`QUIET_VARIABLE` is set).

    Raises:
        ModelFileError: (``error``) the file cannot be built (e.g. a library is missing, the folder
            cannot be written); the message names the file.
    """
    state, found = check_file(target)
    if state == "good":
        _mark_used(target.parent)
        return found
    if target.is_dir() or (target.exists() and not target.is_file()):
        raise error(f"{target}: the {what} is not a file (a directory?); remove it or choose another cache folder")
    try:
        with build_lock(target.parent, waiting=f"{what} {target}"):
            state, found = check_file(target)  # built by another process meanwhile?
            if state == "good":
                return found
            if state == "damaged":
                say_rebuilt(target, found, what)
            else:
                say(f"building the {what} once, at first use (about {takes}): {target}")
            remove_stale_builds(target.parent)
            with quiet_build(), tempfile.TemporaryDirectory(dir=target.parent, prefix=BUILD_PREFIX) as private:
                return build(Path(private))
    except ModelFileError:
        raise
    except Exception as failure:  # the libraries' own errors too: one line naming the file
        raise error(f"{target}: the {what} cannot be built: {failure}") from None
