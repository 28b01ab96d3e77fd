"""Keeping a model-work cache usable and small: a check at start-up, a summary, and pruning.

:func:`check_cache` tries, before any work, what a run will do with the cache (open it, read it,
take the write lock) and raises a :class:`~pyterrier_rag_axioms.runtime.cache.CacheError` naming the
database and what is wrong, so that a damaged, read-only, locked or full cache is one clear line
at start-up rather than an error after all the work. :func:`prune` removes the entries of
namespaces (a model, configuration and version of the code and libraries) that were not used for
some days: after an upgrade, the old versions' entries are never read again.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import sqlite3
import time
from pathlib import Path

from pyterrier_rag_axioms.runtime.cache import DATABASE_NAME, cache_error, model_work_cache

#: Environment variable: seconds the start-up check waits for a cache that another process holds.
TIMEOUT_VARIABLE = "RAG_AXIOMS_CACHE_TIMEOUT"
#: Seconds the start-up check waits for the write lock by default.
DEFAULT_TIMEOUT = 10.0
#: Free disk space below which the start-up check reports a full disk.
MINIMUM_FREE_BYTES = 1 << 20


def _timeout() -> float:
    value = os.environ.get(TIMEOUT_VARIABLE, "").strip()
    try:
        return float(value) if value else DEFAULT_TIMEOUT
    except ValueError:
        raise ValueError(f"${TIMEOUT_VARIABLE} must be a number of seconds, not {value!r}") from None


def check_cache(directory: str | os.PathLike, *, timeout: float | None = None) -> None:
    """Make sure the cache in ``directory`` can be read and written now, before any work.

    Raises:
        CacheError: the directory cannot be made, the database is damaged, or another process holds
            its lock longer than ``timeout`` seconds (``$RAG_AXIOMS_CACHE_TIMEOUT``, default 10);
            the message names the database and the way out. A
            :class:`~pyterrier_rag_axioms.runtime.cache.CacheUnwritable` where it cannot be written
            (a full disk, a read-only folder, ``/proc``, a dangling link).
    """
    cache = model_work_cache(directory)
    timeout = _timeout() if timeout is None else timeout
    try:
        if cache.directory.is_symlink() and not cache.directory.exists():
            raise OSError(errno.ENOENT, f"it is a dangling link (to {os.readlink(cache.directory)})")
        cache.directory.mkdir(parents=True, exist_ok=True)
        usage = shutil.disk_usage(cache.directory)
        if usage.total and usage.free < MINIMUM_FREE_BYTES:  # /proc has no size: nothing to fill
            raise OSError(errno.ENOSPC, "the disk is full")
        with sqlite3.connect(cache.path, timeout=timeout, isolation_level=None) as connection:
            connection.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
            connection.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # reads the header
            connection.execute("BEGIN IMMEDIATE")  # the write lock a run takes to store entries
            connection.execute("ROLLBACK")
        connection.close()
    except (sqlite3.Error, OSError) as error:
        raise cache_error(cache.path, error) from None
    cache.namespaces()  # sets the database up where it is new


def summary(directory: str | os.PathLike) -> list[dict]:
    """One record per namespace: ``namespace``, ``kind``, ``entries``, ``bytes``, ``last_used`` (seconds, or None)."""
    cache = model_work_cache(directory)
    cache.namespaces()  # sets up and checks the tables
    with sqlite3.connect(cache.path, timeout=60.0) as connection:
        rows = connection.execute(
            "SELECT e.namespace, COUNT(*), SUM(LENGTH(e.value)), n.description, u.last_used FROM entries e "
            "LEFT JOIN namespaces n ON n.namespace = e.namespace LEFT JOIN usage u ON u.namespace = e.namespace "
            "GROUP BY e.namespace ORDER BY u.last_used DESC"
        ).fetchall()
    connection.close()
    records = []
    for namespace, entries, size, description, last_used in rows:
        kind = json.loads(description).get("kind", "?") if description else "?"
        records.append({"namespace": bytes(namespace).hex(), "kind": kind, "entries": entries, "bytes": size or 0,
                        "last_used": last_used})
    return records


def prune(directory: str | os.PathLike, *, unused_days: float = 30.0) -> tuple[int, int]:
    """Remove the entries of namespaces not used for ``unused_days`` days (or never recorded as used), and
    compact the database; returns (namespaces removed, entries removed)."""
    cache = model_work_cache(directory)
    cache.namespaces()
    cache.close()
    cutoff = time.time() - unused_days * 86400
    try:
        with sqlite3.connect(cache.path, timeout=60.0, isolation_level=None) as connection:
            connection.execute("BEGIN IMMEDIATE")
            stale = [
                namespace
                for (namespace,) in connection.execute(
                    "SELECT DISTINCT e.namespace FROM entries e LEFT JOIN usage u ON u.namespace = e.namespace "
                    "WHERE u.last_used IS NULL OR u.last_used < ?",
                    (cutoff,),
                )
            ]
            removed = 0
            for namespace in stale:
                removed += connection.execute("DELETE FROM entries WHERE namespace = ?", (namespace,)).rowcount
                connection.execute("DELETE FROM namespaces WHERE namespace = ?", (namespace,))
                connection.execute("DELETE FROM usage WHERE namespace = ?", (namespace,))
            connection.execute("COMMIT")
            connection.execute("VACUUM")
        connection.close()
    except sqlite3.Error as error:
        raise cache_error(cache.path, error) from None
    return len(stale), removed


def database_path(directory: str | os.PathLike) -> Path:
    """The database file of the cache in ``directory``."""
    return Path(directory) / DATABASE_NAME
