"""Building the ONNX exports of :mod:`~pyterrier_rag_axioms.tools.embeddings.onnx_encoder`: once, by one
process, deterministically, and checked before every use.

The static encoder's distilled model (:mod:`~pyterrier_rag_axioms.tools.embeddings.static_encoder`)
is built and checked the same way, through :func:`ensure_file` and :func:`install`.

An export lives in a directory named by a fingerprint of the model's files and the versions of
the packages that make it (this package, torch, transformers, onnx, onnxruntime), so another
version never reads it. Beside each file, ``<file>.json`` records the SHA-256 of its bytes.

- **Once, by one process.** A build holds an exclusive lock (``fcntl.flock`` on ``.build.lock`` in
  the export directory) and looks again for the file once it has the lock, so processes that
  start together (worker processes, two commands on one cache) wait for the first one's build
  instead of building beside it.
- **Atomically.** The file is built in a private temporary directory (``.build-*``) beside its
  place: onnxruntime's quantization writes a fixed-name ``model-inferred.onnx`` beside its input,
  so the input is copied there first. The result is loaded by onnxruntime (a check that it is a
  whole model), hashed, and renamed into place; the record follows. A reader never sees a
  half-written file. A killed build leaves its ``.build-*`` directory, which the next build (and
  ``rag-axioms cache --prune``, :func:`prune_exports`) removes; so are the exports of other
  versions, once unused for a while.
- **Deterministically.** The same model and versions give the same bytes: the export traces the
  model on fixed example inputs with a fixed opset, and neither step records times or paths.
- **Checked.** :func:`ensure_built` hashes the file and compares the record before every use (once
  per process and file, while its size and modification time stay the same). A damaged,
  truncated or empty file is built again, with one line on stderr saying so; one that cannot be
  built raises :class:`OnnxExportError`, one line naming it.
- **Quiet.** The libraries' notes and warnings during a build (torch's export notes, transformers'
  loading notes, onnxruntime's advice on pre-processing) never reach the terminal.
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
from pyterrier_rag_axioms.tools.versions import installed_versions

#: Version of how exports are made here; part of each export directory's name.
EXPORT_VERSION = 2
#: The packages whose versions decide an export's bytes; part of each export directory's name.
BUILD_PACKAGES: tuple[str, ...] = ("pyterrier-rag-axioms", "torch", "transformers", "onnx", "onnxruntime")
#: The lock file a build holds, in the export directory.
LOCK_NAME = ".build.lock"
#: How the private temporary directory of a build begins, in the export directory.
BUILD_PREFIX = ".build-"
#: What an export is called in notes and errors.
ONNX_FILE = "ONNX model file"
#: The environment variable that, set (``--quiet`` sets it), silences the notes on builds and waits.
QUIET_VARIABLE = "RAG_AXIOMS_QUIET"
#: The suffix of the record of an export's hash, beside it.
RECORD_SUFFIX = ".json"

_verified: dict[Path, tuple[tuple[int, int, int], str]] = {}
_used: set[Path] = set()


class ModelFileError(OSError):
    """A model file built here that cannot be built or used: the message names the file and what is wrong."""


class OnnxExportError(ModelFileError):
    """An ONNX export that cannot be built or used: the message names the file and what is wrong."""


def build_versions(packages: tuple[str, ...] = BUILD_PACKAGES) -> dict[str, str | None]:
    """The installed version of each of ``packages`` (``None`` where one is missing)."""
    return installed_versions(packages)


def export_directory(
    model_path: Path, export_dir: Path, *, packages: tuple[str, ...] = BUILD_PACKAGES, version: int = EXPORT_VERSION
) -> Path:
    """The directory of a model's exports in ``export_dir``: named by a fingerprint of the model's files,
    the versions of the ``packages`` that build them (:data:`BUILD_PACKAGES`) and how they are built
    (``version``, :data:`EXPORT_VERSION`)."""
    from pyterrier_rag_axioms.tools.cache import file_fingerprint, namespace_of

    files = {
        str(path.relative_to(model_path)): file_fingerprint(path)
        for path in sorted(model_path.rglob("*"))
        if path.is_file() and path.suffix in {".json", ".txt", ".safetensors", ".bin", ".model"}
    }
    identity = {"files": files, "export": version, "versions": build_versions(packages)}
    return export_dir / namespace_of(identity).hex()[:24]


def record_path(path: Path) -> Path:
    """Where the record of an export's hash lives: ``<file>.json`` beside it."""
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


def check_export(path: Path) -> tuple[str, str]:
    """Whether the export at ``path`` is whole: ``("good", sha256)``, ``("missing", "")``, or
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
    """Hold the exclusive build lock of an export directory, waiting for another process's build (saying
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
    """Record (once per process and directory) that its exports are in use: the build lock's time, for
    :func:`prune_exports`."""
    if directory not in _used:
        _used.add(directory)
        with contextlib.suppress(OSError):
            (directory / LOCK_NAME).touch()


def prune_exports(export_dir: Path, *, unused_days: float = 30.0) -> tuple[int, int]:
    """Remove from ``export_dir`` the exports not used for ``unused_days`` days (those of other versions)
    and the private directories of killed builds; returns (export directories, build directories) removed.

    A directory being built (its build lock held) is left alone."""
    exports = builds = 0
    if not export_dir.is_dir():
        return exports, builds
    cutoff = time.time() - unused_days * 86400
    for directory in sorted(path for path in export_dir.iterdir() if path.is_dir() and not path.is_symlink()):
        last_used = max((path.stat().st_mtime for path in directory.iterdir()), default=0)  # before the lock
        with open(directory / LOCK_NAME, "a+b") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # a build is under way
            try:
                if last_used < cutoff:
                    shutil.rmtree(directory, ignore_errors=True)
                    exports += 1
                else:
                    builds += len(remove_stale_builds(directory))
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)
    return exports, builds


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


def _export_float(model_path: Path, target: Path) -> None:
    """Trace the model with mean pooling to an ONNX file (float32, opset 17) at ``target``."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    from pyterrier_rag_axioms.tools.embeddings._loading import quiet_loading

    with quiet_loading():
        tokenizer = AutoTokenizer.from_pretrained(str(model_path))
        model = AutoModel.from_pretrained(str(model_path)).eval()
    example = tokenizer(["An example.", "Another, longer example sentence."], padding=True, return_tensors="pt")
    names = ["input_ids", "attention_mask", "token_type_ids"]
    if "token_type_ids" not in example:
        example["token_type_ids"] = torch.zeros_like(example["input_ids"])
    with torch.no_grad():
        torch.onnx.export(
            mean_pooled(model),
            tuple(example[name] for name in names),
            str(target),
            input_names=names,
            output_names=["embedding"],
            dynamic_axes={**{name: {0: "batch", 1: "tokens"} for name in names}, "embedding": {0: "batch"}},
            opset_version=17,
            dynamo=False,
        )


def _quantize(source: Path, target: Path, *, per_channel: bool) -> None:
    """8-bit weights (onnxruntime's dynamic quantization) of the ONNX file ``source``, at ``target``."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(source), str(target), weight_type=QuantType.QInt8, per_channel=per_channel)


def install(
    built: Path, target: Path, model_path: Path, *, load: Callable[[Path], object],
    packages: tuple[str, ...] = BUILD_PACKAGES,
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


def _load_onnx(path: Path) -> None:
    import onnxruntime

    onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])


def _say_rebuilt(path: Path, why: str, what: str) -> None:
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
    state, found = check_export(target)
    if state == "good":
        _mark_used(target.parent)
        return found
    if target.is_dir() or (target.exists() and not target.is_file()):
        raise error(f"{target}: the {what} is not a file (a directory?); remove it or choose another cache folder")
    try:
        with build_lock(target.parent, waiting=f"{what} {target}"):
            state, found = check_export(target)  # built by another process meanwhile?
            if state == "good":
                return found
            if state == "damaged":
                _say_rebuilt(target, found, what)
            else:
                say(f"building the {what} once, at first use (about {takes}): {target}")
            remove_stale_builds(target.parent)
            with quiet_build(), tempfile.TemporaryDirectory(dir=target.parent, prefix=BUILD_PREFIX) as private:
                return build(Path(private))
    except ModelFileError:
        raise
    except Exception as failure:  # the libraries' own errors too: one line naming the file
        raise error(f"{target}: the {what} cannot be built: {failure}") from None


def ensure_built(model_path: Path, target: Path, *, quantize: bool, per_channel: bool = False) -> str:
    """Make sure the ONNX export at ``target`` is whole, building it where it is missing or damaged (see
    :func:`ensure_file`); its SHA-256.

    Raises:
        OnnxExportError: the export cannot be built; the message names the file.
    """
    return ensure_file(
        target,
        lambda private: _build(model_path, target, private, quantize=quantize, per_channel=per_channel),
        what=ONNX_FILE,
        error=OnnxExportError,
    )


def _build(model_path: Path, target: Path, private: Path, *, quantize: bool, per_channel: bool) -> str:
    """Build ``target`` (and the float32 export it is quantized from, where needed) in ``private``."""
    float_target = target.with_name(export_file_name(quantize=False))
    float_state, why = check_export(float_target) if quantize else ("missing", "")
    if float_state != "good":
        if float_state == "damaged":
            _say_rebuilt(float_target, why, ONNX_FILE)
        _export_float(model_path, private / float_target.name)
        digest = install(private / float_target.name, float_target, model_path, load=_load_onnx)
        if not quantize:
            return digest
    source = private / "float-input.onnx"  # quantization writes beside its input: here, privately
    shutil.copyfile(float_target, source)
    if file_sha256(source) != check_export(float_target)[1]:
        raise OnnxExportError(f"{float_target}: the {ONNX_FILE} changed while it was read")
    _quantize(source, private / target.name, per_channel=per_channel)
    return install(private / target.name, target, model_path, load=_load_onnx)


def export_file_name(*, quantize: bool, per_channel: bool = False) -> str:
    """The file name of an export: ``model.onnx`` (float32), ``model-qint8.onnx`` or
    ``model-qint8-per-channel.onnx``."""
    return "model.onnx" if not quantize else "model-qint8-per-channel.onnx" if per_channel else "model-qint8.onnx"


def mean_pooled(model):
    """The transformer followed by mean pooling over the attention mask, as one torch module."""
    import torch

    class MeanPooled(torch.nn.Module):
        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            hidden = self.model(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            return (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)

    return MeanPooled(model)
