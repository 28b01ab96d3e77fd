"""A persistent, opt-in cache of model work: spaCy analyses and sentence embeddings.

Parsing and encoding are nearly all of an axiom run's time. With a cache directory, each text's
model work is stored on disk and the next run (a restarted kernel, the CLI judging the same run
file again, a ``.parallel`` worker) reads it instead of loading and running the models:

- what :class:`~pyterrier_rag_axioms.tools.text.TextAnalyzer` derives from a parse (sentence
  texts, words, noun chunks, entities, lemmas, subject-verb distances, negated entities), field
  by field, as JSON;
- the embeddings of :class:`~pyterrier_rag_axioms.tools.embeddings.SentenceSimilarity`, as
  little-endian float32 blobs.

Every entry is keyed by a *namespace*, the SHA-256 of a JSON description of the model identity
(package, version, a fingerprint of its files), the tool's configuration and the version of the
package's per-text derivation (a hash of the module source that derives the values), and by the
SHA-256 of the text. A different model, configuration or derivation never reads another's entries.

Storage is one SQLite database per cache directory (Python's ``sqlite3``; no extra dependency) in
write-ahead-log mode: readers never block, writers from several processes take turns (each write
takes the write lock first, ``BEGIN IMMEDIATE``, and waits up to a minute for it), and each batch
of entries is one transaction, so a process killed while writing leaves the entries of committed
batches and nothing half-written. Each process opens its own connection; connections are closed
before a fork. Values are plain bytes (no pickle), so a cache file never runs code.

Enable it per tool (``TextAnalyzer(cache_dir=...)``, ``SentenceSimilarity(cache_dir=...)``), for
the whole package (:func:`set_cache_dir`), or with the environment variable ``RAG_AXIOMS_CACHE``.

A cache that cannot be used (damaged, locked by another process, under a file) raises a
:class:`CacheError` that names the database and what is wrong. One that cannot be written (a full
disk, a read-only folder, ``/proc``, a dangling link) is a :class:`CacheUnwritable`: a tool that
meets it mid-run says so in one line on stderr, naming the database, and goes on without the cache
(so does a command at start-up). Each namespace records when it was last used, so that
:func:`~pyterrier_rag_axioms.runtime.cache_upkeep.prune` can remove what no
version uses any more (``rag-axioms cache --prune``).
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import functools
import hashlib
import json
import os
import sqlite3
import sys
import threading
import time
import warnings
import weakref
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Protocol

#: Environment variable naming the cache directory used when no tool or package setting names one.
CACHE_ENVIRONMENT_VARIABLE = "RAG_AXIOMS_CACHE"
#: File name of the database inside a cache directory.
DATABASE_NAME = "model-work.sqlite3"
#: Version of the database layout; a different layout uses another file.
SCHEMA_VERSION = 1

_UNSET = object()
_package_cache_dir: object = _UNSET
_SQL_VARIABLES = 900  # texts per lookup query, well below SQLite's limit on bound parameters


def set_cache_dir(directory: str | os.PathLike | None) -> None:
    """Set the cache directory of every tool that was not given one (``None``: no cache).

    Overrides the environment variable ``RAG_AXIOMS_CACHE``; applies to tools already created.
    """
    global _package_cache_dir
    _package_cache_dir = None if directory is None else Path(directory)


def reset_cache_dir() -> None:
    """Forget :func:`set_cache_dir`, so that ``RAG_AXIOMS_CACHE`` decides again."""
    global _package_cache_dir
    _package_cache_dir = _UNSET


def configured_cache_dir() -> Path | None:
    """The package-wide cache directory: :func:`set_cache_dir`, else ``RAG_AXIOMS_CACHE``, else none."""
    if _package_cache_dir is not _UNSET:
        return _package_cache_dir  # type: ignore[return-value]
    value = os.environ.get(CACHE_ENVIRONMENT_VARIABLE, "").strip()
    return Path(value) if value else None


def resolve_cache_dir(directory: str | os.PathLike | bool | None) -> Path | None:
    """A tool's effective cache directory: its own, ``False`` for none, or ``None`` for the package's."""
    if directory is False:
        return None
    if directory is None or directory is True:
        return configured_cache_dir()
    return Path(directory)


def text_key(text: str) -> bytes:
    """The key of a text: the SHA-256 of its UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


def namespace_of(description: dict) -> bytes:
    """The namespace of a model, configuration and derivation: the SHA-256 of their canonical JSON."""
    return hashlib.sha256(json.dumps(description, sort_keys=True, default=str).encode("utf-8")).digest()


def file_fingerprint(path: Path, *, head: int = 1 << 20) -> str:
    """SHA-256 of a file's size, first MiB and last MiB (the whole file when it is small)."""
    digest = hashlib.sha256()
    size = path.stat().st_size
    digest.update(str(size).encode())
    with open(path, "rb") as file:
        digest.update(file.read(head))
        if size > 2 * head:
            file.seek(size - head)
            digest.update(file.read(head))
        else:
            digest.update(file.read())
    return digest.hexdigest()


def source_fingerprint(*files: str | os.PathLike) -> str:
    """SHA-256 of source files: the version of what the package derives from model output."""
    digest = hashlib.sha256()
    for file in files:
        digest.update(Path(file).read_bytes())
    return digest.hexdigest()


@functools.cache
def module_version(module: str) -> str:
    """A hash of a module's source (16 hexadecimal digits): the version of the per-text values it derives."""
    return source_fingerprint(sys.modules[module].__file__)[:16]


def derived_key(cls: type, parameters: dict) -> str:
    """The name of a value that ``cls`` derives from one text's analysis, for
    :meth:`~pyterrier_rag_axioms.tools.text.TextAnalysis.derived` and a persistent cache: the class,
    a hash of its module's source and its parameters (JSON), so values of other code or parameters
    are never read."""
    parameters_json = json.dumps(parameters, sort_keys=True)
    return f"{cls.__module__}.{cls.__qualname__}@{module_version(cls.__module__)}:{parameters_json}"


def _set_up(connection: sqlite3.Connection, *, patience: float = 60.0) -> None:
    """Write-ahead logging and the tables, retried while another process sets up the same database.

    Switching to write-ahead logging needs the database to itself, and SQLite answers "database is
    locked" at once, without waiting for the busy timeout, where another connection is doing the
    same (e.g. ``.parallel(N)`` workers starting together), so the set-up retries for ``patience``
    seconds with growing pauses.
    """
    deadline, pause = time.monotonic() + patience, 0.01
    while True:
        try:
            connection.execute("PRAGMA busy_timeout = 60000")
            connection.execute("PRAGMA journal_mode = WAL")
            connection.execute("PRAGMA synchronous = NORMAL")
            connection.execute(
                "CREATE TABLE IF NOT EXISTS entries (namespace BLOB NOT NULL, text BLOB NOT NULL, "
                "field TEXT NOT NULL, value BLOB NOT NULL, PRIMARY KEY (namespace, text, field)) WITHOUT ROWID"
            )
            connection.execute(
                "CREATE TABLE IF NOT EXISTS namespaces (namespace BLOB PRIMARY KEY, description TEXT NOT NULL)"
            )
            connection.execute("CREATE TABLE IF NOT EXISTS usage (namespace BLOB PRIMARY KEY, last_used REAL NOT NULL)")
            connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.5)


class CacheError(OSError):
    """A cache that cannot be used: the message names its database, what is wrong and the way out."""


class CacheUnwritable(CacheError):
    """A cache that cannot be written (a full disk, a read-only folder, ``/proc``, a dangling link): work
    can go on without it."""


#: What SQLite and the file system say of a cache that cannot be written.
_UNWRITABLE = ("full", "readonly", "read-only", "unable to open database file", "disk i/o error", "dangling link")


def cache_error(path: Path, error: BaseException) -> CacheError:
    """What an SQLite or file-system error means for the cache at ``path``, as a :class:`CacheError`."""
    text = str(error)
    unwritable = isinstance(error, PermissionError) or getattr(error, "errno", None) in {
        errno.ENOSPC, errno.EFBIG, errno.EROFS, errno.EDQUOT} or any(word in text.lower() for word in _UNWRITABLE)
    if isinstance(error, sqlite3.DatabaseError) and ("not a database" in text or "malformed" in text):
        problem = f"it is damaged: not an SQLite database ({text}); remove it (its entries are computed again)"
    elif "locked" in text or "busy" in text:
        problem = "it is locked by another process, which holds it too long; wait for that process"
    elif "readonly" in text or "read-only" in text or isinstance(error, PermissionError):
        problem = f"it cannot be written ({text}); make it writable"
    elif "full" in text or getattr(error, "errno", None) == errno.ENOSPC:
        problem = "the disk is full; make room"
    elif isinstance(error, OSError):
        problem = f"{error.strerror or text}" + (f": {error.filename}" if error.filename else "")
    else:
        problem = text
    if unwritable:
        return CacheUnwritable(f"{path}: the model-work cache cannot be written: {problem}")
    return CacheError(f"{path}: the model-work cache cannot be used: {problem}; or run without it (--cache none)")


def say_without_cache(error: CacheUnwritable) -> None:
    """One line on stderr: the cache cannot be written, and the work goes on without it."""
    print(f"rag-axioms: note: {error}; going on without the cache", file=sys.stderr)


class ModelWorkCache:
    """One SQLite database of model work in ``directory``, shared by processes and tools.

    Entries are ``(namespace, text key, field) -> bytes``. Use :func:`model_work_cache` for the
    process-wide instance of a directory. Each process (also a forked one) opens its own
    connection.
    """

    def __init__(self, directory: str | os.PathLike):
        self.directory = Path(directory)
        self.path = self.directory / DATABASE_NAME
        self._connection: sqlite3.Connection | None = None
        self._pid: int | None = None
        self._lock = threading.Lock()
        self._known_namespaces: set[bytes] = set()
        self._used: set[bytes] = set()
        self.disabled = False  # set once the cache turned out unwritable: the work goes on without it
        _open_caches.add(self)

    def _connect(self) -> sqlite3.Connection:
        if self._connection is not None and self._pid == os.getpid():
            return self._connection
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(self.path, timeout=60.0, isolation_level=None, check_same_thread=False)
            _set_up(connection)
        except (sqlite3.Error, OSError) as error:
            raise cache_error(self.path, error) from None
        self._connection, self._pid = connection, os.getpid()
        self._known_namespaces, self._used = set(), set()
        return connection

    def _mark_used(self, connection: sqlite3.Connection, namespace: bytes) -> None:
        """Record (once per process) that ``namespace`` is in use now, for :func:`~.cache_upkeep.prune`."""
        if namespace not in self._used:
            connection.execute("INSERT OR REPLACE INTO usage VALUES (?, ?)", (namespace, time.time()))
            self._used.add(namespace)

    def get_many(self, namespace: bytes, keys: Sequence[bytes]) -> dict[bytes, dict[str, bytes]]:
        """The stored fields of each key found: ``{key: {field: value}}``."""
        found: dict[bytes, dict[str, bytes]] = {}
        if not keys or self.disabled:
            return found
        with self._lock, self._errors(degrade=True):
            connection = self._connect()
            if namespace not in self._used:
                self._mark_used(connection, namespace)
            distinct = list(dict.fromkeys(keys))
            for start in range(0, len(distinct), _SQL_VARIABLES):
                chunk = distinct[start : start + _SQL_VARIABLES]
                placeholders = ",".join("?" * len(chunk))
                rows = connection.execute(
                    f"SELECT text, field, value FROM entries WHERE namespace = ? AND text IN ({placeholders})",
                    (namespace, *chunk),
                )
                for key, field, value in rows:
                    found.setdefault(key, {})[field] = value
        return found

    def put_many(self, namespace: bytes, description: dict, entries: Iterable[tuple[bytes, str, bytes]]) -> int:
        """Store entries ``(key, field, value)`` in one transaction; returns how many."""
        entries = list(entries)
        if not entries or self.disabled:
            return 0
        with self._lock, self._errors(degrade=True):
            connection = self._connect()
            connection.execute("BEGIN IMMEDIATE")
            try:
                if namespace not in self._known_namespaces:
                    connection.execute(
                        "INSERT OR IGNORE INTO namespaces VALUES (?, ?)",
                        (namespace, json.dumps(description, sort_keys=True, default=str)),
                    )
                self._mark_used(connection, namespace)
                connection.executemany(
                    "INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?)",
                    ((namespace, key, field, value) for key, field, value in entries),
                )
                connection.execute("COMMIT")
            except BaseException:
                if connection.in_transaction:  # SQLite ends a transaction itself on some errors (a full disk)
                    connection.execute("ROLLBACK")
                raise
            self._known_namespaces.add(namespace)
        return len(entries)

    @contextlib.contextmanager
    def _errors(self, *, degrade: bool = False) -> Iterator[None]:
        """SQLite's errors as a :class:`CacheError` naming this cache; with ``degrade``, one that cannot be
        written is said in one line and the cache is left alone from then on (:attr:`disabled`)."""
        try:
            yield
        except (sqlite3.Error, OSError) as error:
            problem = error if isinstance(error, CacheError) else cache_error(self.path, error)
            if not degrade or not isinstance(problem, CacheUnwritable):
                raise problem from None
            self.disabled = True
            self._connection = None  # left to the garbage collector: it may hold a failed transaction
            say_without_cache(problem)

    def namespaces(self) -> dict[str, dict]:
        """The description of each namespace with entries, by hexadecimal namespace."""
        with self._lock, self._errors():
            rows = self._connect().execute("SELECT namespace, description FROM namespaces").fetchall()
        return {bytes(namespace).hex(): json.loads(description) for namespace, description in rows}

    def __len__(self) -> int:
        with self._lock:
            return int(self._connect().execute("SELECT COUNT(*) FROM entries").fetchone()[0])

    def close(self) -> None:
        """Close this process's connection (it is opened again on next use)."""
        with self._lock:
            if self._connection is not None and self._pid == os.getpid():
                self._connection.close()
            self._connection = None

    def __repr__(self) -> str:
        return f"ModelWorkCache({str(self.directory)!r})"


_caches: dict[Path, ModelWorkCache] = {}
_open_caches: weakref.WeakSet = weakref.WeakSet()


def close_caches() -> None:
    """Close every open cache's connection; the next use reopens it. Before a fork (an SQLite connection must
    not cross one: the child opens its own), and before a process ends without the interpreter's teardown
    (SQLite then folds its write-ahead log into the database)."""
    for cache in list(_open_caches):
        with contextlib.suppress(sqlite3.Error):  # one that cannot be closed stays as its last write left it
            cache.close()


os.register_at_fork(before=close_caches)


def model_work_cache(directory: str | os.PathLike) -> ModelWorkCache:
    """The process-wide :class:`ModelWorkCache` of a directory."""
    key = Path(directory).expanduser().absolute()
    if key not in _caches:
        _caches[key] = ModelWorkCache(key)
    return _caches[key]


class _Flushable(Protocol):
    def flush(self) -> None: ...


_flushables: weakref.WeakSet = weakref.WeakSet()


def register_flushable(tool: _Flushable) -> None:
    """Have :func:`flush_caches` (called after each axiom and at exit) write ``tool``'s pending entries."""
    _flushables.add(tool)


def flush_caches() -> None:
    """Write the pending entries of every tool with a cache (a no-op without pending entries)."""
    for tool in list(_flushables):
        tool.flush()


def _flush_at_exit() -> None:
    try:
        flush_caches()
    except CacheError as error:  # e.g. the directory is gone; the cache stays as it was
        warnings.warn(f"pending entries not written at exit: {error}", stacklevel=1)


atexit.register(_flush_at_exit)


def finish_caches() -> None:
    """What a process that ends without the interpreter's exit handlers and teardown must do first: write
    every tool's pending entries (a warning where they cannot be written) and close the caches."""
    _flush_at_exit()
    close_caches()
