"""Writing files atomically: a temporary file made by ``mkstemp`` next to the target, moved onto it.

Nothing half-written is left behind: where writing fails, or SIGTERM, SIGINT or SIGHUP ends the
process meanwhile, the temporary file is removed and the target keeps what it held. Every file
the package writes goes through :func:`atomic_write` (frames, run files, saved models, the
LanguageTool server's state file).
"""

from __future__ import annotations

import contextlib
import gzip
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any


def check_output_path(path: str | Path, *, inputs: Sequence[str | Path | None] = ()) -> None:
    """Check before any work that an output path can be written: not a directory, none of ``inputs``,
    and in a folder that exists and takes a new file.

    An input is recognised by its device and inode, so a hard link or a symbolic link to it is
    the input too. The folder is probed by making (and removing) a hidden temporary file in it,
    as :func:`atomic_write` will.

    Raises:
        ValueError: ``path`` is a directory, it is one of ``inputs`` (the message names both), or
            its folder is missing, not a folder, or refuses a new file (the message names the
            folder and why).
    """
    if Path(path).is_dir():
        raise ValueError(f"{path}: is a directory; give the name of the file to write")
    for source in inputs:
        if source is None or not os.path.exists(path) or not os.path.exists(source):
            continue
        if os.path.samefile(path, source):
            how = "is" if os.path.abspath(path) == os.path.abspath(source) else "is a link to"
            raise ValueError(
                f"{path}: {how} the input file {source}; writing there would replace the input, so give "
                "another output file"
            )
    check_output_folder(path)


def check_output_folder(path: str | Path) -> None:
    """Check that the folder of an output path exists and takes a new file (probed with a hidden temporary
    file, removed at once).

    Raises:
        ValueError: the folder is missing, not a folder, or refuses a new file; the message names
            the output and the folder, never the probe.
    """
    folder = Path(path).parent
    shown = folder if str(folder) != "." else Path(".")
    if not folder.exists():
        raise ValueError(f"{path}: its folder {shown} does not exist; make it first, or give another output file")
    if not folder.is_dir():
        raise ValueError(f"{path}: {shown} is not a folder, so the output cannot be written there")
    try:
        handle, name = tempfile.mkstemp(dir=folder, prefix=".", suffix=".partial-probe")
    except OSError as error:
        raise ValueError(
            f"{path}: cannot write in its folder {shown} ({error.strerror or error}); give another output file"
        ) from None
    os.close(handle)
    with contextlib.suppress(OSError):
        os.unlink(name)


def same_file(first: str | Path, second: str | Path) -> bool:
    """Whether two paths name one file: the same path once links and ``..`` are resolved, or the same
    device and inode (a hard link)."""
    if os.path.realpath(first) == os.path.realpath(second):
        return True
    return os.path.exists(first) and os.path.exists(second) and os.path.samefile(first, second)


def check_output_paths(
    outputs: Mapping[str, str | Path | None], *, inputs: Sequence[str | Path | None] = ()
) -> None:
    """Check before any work every output of a command (by option, e.g. ``{"--output": path}``):
    each one as :func:`check_output_path` does, and no two naming one file (also through a link
    or ``..``), since the second write would replace the first.

    Raises:
        ValueError: the first problem found, in one line naming the paths (and options).
    """
    given = [(option, path) for option, path in outputs.items() if path is not None and str(path) != ""]
    for position, (option, path) in enumerate(given):
        for other_option, other in given[:position]:
            if same_file(path, other):
                raise ValueError(
                    f"{path}: {other_option} {other} and {option} {path} name one file, so one output would "
                    "replace the other; give each output its own file"
                )
    for _, path in given:
        check_output_path(path, inputs=inputs)


_partial_files: set[Path] = set()
_previous_handlers: dict[int, Any] = {}
_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def _remove_partial_files(signum: int, frame: object) -> None:
    """On a signal: remove the temporary files being written, then do what was done before without us."""
    for partial in list(_partial_files):
        with contextlib.suppress(OSError):
            os.unlink(partial)
    previous = _previous_handlers.get(signum, signal.SIG_DFL)
    if callable(previous):  # e.g. Python's KeyboardInterrupt, or a program's own handler
        previous(signum, frame)
    elif previous != signal.SIG_IGN:  # the default: end the process by the signal, as without us
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)


@contextlib.contextmanager
def _removed_on_signal(partial: Path) -> Iterator[None]:
    """Remove ``partial`` when SIGTERM, SIGINT or SIGHUP ends the process while it is written.

    The handlers the program had (``languagetool run``'s, Python's ``KeyboardInterrupt``) run after
    the removal, and are back in place afterwards. Only the main thread can set handlers; writes
    from other threads rely on the program's own.
    """
    install = threading.current_thread() is threading.main_thread() and not _partial_files
    if install:
        for signum in _SIGNALS:
            previous = signal.getsignal(signum)
            if previous in (signal.SIG_IGN, None):
                continue
            _previous_handlers[signum] = previous
            signal.signal(signum, _remove_partial_files)
    _partial_files.add(partial)
    try:
        yield
    finally:
        _partial_files.discard(partial)
        if install:
            for signum, previous in _previous_handlers.items():
                signal.signal(signum, previous)
            _previous_handlers.clear()


def atomic_write(path: Path, write: Callable[[Path], None], *, compress: bool | None = None) -> None:
    """Call ``write`` on a temporary file next to ``path``, then move it onto ``path``.

    The temporary file is made by ``mkstemp`` in the target's directory (a new name, never a file
    or link that is already there). ``write`` writes the plain format: for a target ending in
    ``.gz`` the temporary file is named like the target without ``.gz``, and compressed here
    afterwards (its gzip header names the target without ``.gz`` and holds no time, so the same
    frame gives the same bytes), so every format can be gzipped; ``compress=False`` writes the bytes
    as they are (a download that is gzip-compressed already). The permissions are those of
    :func:`output_mode`: a link is replaced by a plain file, never given its target's mode.
    Where ``write`` fails, or SIGTERM, SIGINT or SIGHUP arrives meanwhile, the temporary file is
    removed and ``path`` keeps what it held.

    Raises:
        OSError: the file cannot be written (a full disk, a file too large, a read-only folder); the
            message names ``path``, and ``errno`` is kept.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    compressed = path.suffix.lower() == ".gz" if compress is None else compress
    plain_name = path.name[: -len(path.suffix)] if compressed else path.name
    mode = output_mode(path)
    try:
        handle, name = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=f".partial-{plain_name}")
    except OSError as error:
        raise _naming_target(error, path) from None
    os.close(handle)
    temporary = Path(name)
    with _removed_on_signal(temporary):
        try:
            write(temporary)
            if compressed:
                plain = temporary.read_bytes()
                with (
                    open(temporary, "wb") as raw,
                    gzip.GzipFile(filename=plain_name, mode="wb", fileobj=raw, mtime=0) as stream,
                ):
                    stream.write(plain)
            os.chmod(temporary, mode)
            os.replace(temporary, path)
        except BaseException as error:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            if isinstance(error, OSError) and (error.filename is None or temporary.name in str(error)):
                raise _naming_target(error, path) from None  # e.g. ENOSPC or EFBIG while writing: name the file
            raise


def _naming_target(error: OSError, path: Path) -> OSError:
    """The error of a failed write, naming the target rather than the temporary file (which is gone)."""
    reason = error.strerror or str(error).replace(str(error.filename), "").strip(" :")
    named = OSError(f"{path}: cannot be written ({reason}); the previous file, if any, is unchanged")
    named.errno = error.errno  # str() stays the message: no "[Errno N]" before it
    return named


#: How long a temporary file of :func:`atomic_write` must be untouched before it counts as left behind.
STALE_PARTIAL_SECONDS = 3600.0


def remove_stale_partial_files(folder: str | Path, *, older_than: float = STALE_PARTIAL_SECONDS) -> list[Path]:
    """Remove the hidden temporary files (``.*.partial-*``) that a killed write (SIGKILL, a power cut) left in
    ``folder``: those not modified for ``older_than`` seconds, so that a write under way keeps its file.

    Returns the files removed.
    """
    import time

    removed = []
    now = time.time()
    for candidate in Path(folder).glob(".*.partial-*"):
        try:
            info = candidate.lstat()
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode) and now - info.st_mtime >= older_than:
            with contextlib.suppress(OSError):
                candidate.unlink()
                removed.append(candidate)
    return removed


def atomic_write_text(path: Path, text: str) -> None:
    """Write a UTF-8 text file atomically (see :func:`atomic_write`)."""
    atomic_write(Path(path), lambda target: Path(target).write_text(text, encoding="utf-8"))


#: Permission bits an output never takes over from the file it replaces: setuid, setgid, sticky, world-write.
_NEVER_KEPT = stat.S_ISUID | stat.S_ISGID | stat.S_ISVTX | stat.S_IWOTH


def output_mode(path: str | Path) -> int:
    """The permissions of an output written to ``path``: a plain file's own, where one is replaced, less setuid,
    setgid, sticky and world-write; otherwise (a new file, a symbolic link, a device such as ``/dev/full``)
    those a new file gets under the umask. A link's target never lends its mode: ``ln -s /usr/bin/passwd
    out.tsv`` gives a plain ``out.tsv`` without setuid."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return _new_file_mode()
    if not stat.S_ISREG(info.st_mode):
        return _new_file_mode()
    return stat.S_IMODE(info.st_mode) & ~_NEVER_KEPT


def _new_file_mode() -> int:
    """The permissions ``open`` gives a new file under the current umask (``mkstemp`` gives 0600)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
