"""The ONNX exports of :mod:`~pyterrier_rag_axioms.tools.embeddings.onnx_encoder`: the float32 export of
a sentence-transformers model with mean pooling, and its 8-bit quantizations.

They are built once, by one process, atomically, and checked before every use as every model file
built at first use is (:mod:`~pyterrier_rag_axioms.runtime.model_files`). An export's folder is named by a
fingerprint of the model's files, the versions of the packages that make it (this package, torch,
transformers, onnx, onnxruntime) and :data:`EXPORT_VERSION`. What is particular to ONNX:

- **Deterministically.** The same model and versions give the same bytes: the export traces the
  model on fixed example inputs with a fixed opset, and neither step records times or paths.
- **In a private folder.** onnxruntime's quantization writes a fixed-name ``model-inferred.onnx``
  beside its input, so the float32 export is copied into the build's private folder first; a
  built file is loaded by onnxruntime (a check that it is a whole model) before it is installed.
- **Quiet.** torch's export notes, transformers' loading notes and onnxruntime's advice on
  pre-processing never reach the terminal.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pyterrier_rag_axioms.runtime.model_files import (
    ModelFileError,
    check_file,
    ensure_file,
    file_sha256,
    install,
    model_folder,
    say_rebuilt,
)

#: Version of how exports are made here; part of each export directory's name.
EXPORT_VERSION = 2
#: The packages whose versions decide an export's bytes; part of each export directory's name.
BUILD_PACKAGES: tuple[str, ...] = ("pyterrier-rag-axioms", "torch", "transformers", "onnx", "onnxruntime")
#: What an export is called in notes and errors.
ONNX_FILE = "ONNX model file"


class OnnxExportError(ModelFileError):
    """An ONNX export that cannot be built or used: the message names the file and what is wrong."""


def export_directory(model_path: Path, export_dir: Path) -> Path:
    """The directory of a model's exports in ``export_dir`` (see
    :func:`~pyterrier_rag_axioms.runtime.model_files.model_folder`)."""
    return model_folder(model_path, export_dir, packages=BUILD_PACKAGES, version=EXPORT_VERSION)


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


def _load_onnx(path: Path) -> None:
    """Load an ONNX file in onnxruntime: a check that it is a whole model."""
    import onnxruntime

    onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])


def ensure_built(model_path: Path, target: Path, *, quantize: bool, per_channel: bool = False) -> str:
    """Make sure the ONNX export at ``target`` is whole, building it where it is missing or damaged (see
    :func:`~pyterrier_rag_axioms.runtime.model_files.ensure_file`); its SHA-256.

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
    float_state, why = check_file(float_target) if quantize else ("missing", "")
    if float_state != "good":
        if float_state == "damaged":
            say_rebuilt(float_target, why, ONNX_FILE)
        _export_float(model_path, private / float_target.name)
        digest = install(private / float_target.name, float_target, model_path, load=_load_onnx,
                         packages=BUILD_PACKAGES)
        if not quantize:
            return digest
    source = private / "float-input.onnx"  # quantization writes beside its input: here, privately
    shutil.copyfile(float_target, source)
    if file_sha256(source) != check_file(float_target)[1]:
        raise OnnxExportError(f"{float_target}: the {ONNX_FILE} changed while it was read")
    _quantize(source, private / target.name, per_channel=per_channel)
    return install(private / target.name, target, model_path, load=_load_onnx, packages=BUILD_PACKAGES)


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
