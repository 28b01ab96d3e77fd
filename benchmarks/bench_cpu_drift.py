"""How far each ONNX encoder's embeddings move when only the rounding of float kernels changes.

Another CPU runs other float kernels (AVX-512 against AVX2 code for Softmax, LayerNorm, GELU); on one
CPU, onnxruntime's fused kernels against its unfused ones change the same thing, the order and
width of float32 sums. The script encodes the texts of the shipped samples both ways, with the
float32 export and the 8-bit one, and prints how far the embeddings move (docs/speed.md, "The same
numbers on every CPU"). It also takes the 8-bit model's integer matrix products in float64, as an
exact reference: where they agree with onnxruntime's, this CPU's int8 kernels do not saturate, so
the integer sums equal those of CPUs with VNNI, AMX or ARM dot products, which add in 32 bits.

Usage: ``.venv/bin/python benchmarks/bench_cpu_drift.py``.
"""

from __future__ import annotations

import json

import _setup  # noqa: F401  (first: the checkout's package, offline models)
import numpy as np
import onnx
import onnxruntime
from onnx import TensorProto, helper

from pyterrier_rag_axioms.sample import sample_path
from pyterrier_rag_axioms.tools.embeddings.similarity import SentenceSimilarity


def sample_texts() -> list[str]:
    """Every string of over 15 characters in the shipped samples' JSON lines, and their sentences."""
    found: list[str] = []

    def walk(value) -> None:
        if isinstance(value, str) and len(value) > 15:
            found.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for path in sorted(sample_path(".").rglob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            walk(json.loads(line))
    sentences = [part.strip() for text in found for part in text.replace("\n", " ").split(". ")]
    return sorted(set(found) | {sentence for sentence in sentences if len(sentence) > 10})


def exact_integer_products(model_bytes: bytes) -> bytes:
    """The model with each integer matrix product (MatMulInteger) taken in float64: exact sums."""
    model = onnx.load_from_string(model_bytes)
    nodes = []
    for node in model.graph.node:
        if node.op_type != "MatMulInteger":
            nodes.append(node)
            continue
        inputs = list(node.input) + [""] * (4 - len(node.input))
        shifted = []
        for side, (values, zero_point) in enumerate(((inputs[0], inputs[2]), (inputs[1], inputs[3]))):
            name = f"{node.output[0]}/exact{side}"
            nodes.append(helper.make_node("Cast", [values], [name], to=TensorProto.DOUBLE))
            if zero_point:
                nodes.append(helper.make_node("Cast", [zero_point], [name + "/zero"], to=TensorProto.DOUBLE))
                nodes.append(helper.make_node("Sub", [name, name + "/zero"], [name + "/shifted"]))
                name += "/shifted"
            shifted.append(name)
        nodes.append(helper.make_node("MatMul", shifted, [node.output[0] + "/exact"]))
        nodes.append(helper.make_node("Cast", [node.output[0] + "/exact"], [node.output[0]], to=TensorProto.INT32))
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    return model.SerializeToString()


def embed(encoder, model_bytes: bytes, texts: list[str], *, fused: bool) -> np.ndarray:
    """``texts`` encoded by ``encoder`` with the model ``model_bytes``, its kernels fused or not."""
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    levels = onnxruntime.GraphOptimizationLevel
    options.graph_optimization_level = levels.ORT_ENABLE_ALL if fused else levels.ORT_DISABLE_ALL
    encoder.__dict__["session"] = onnxruntime.InferenceSession(model_bytes, options, providers=["CPUExecutionProvider"])
    return encoder.encode(texts)


def main() -> None:
    texts = sample_texts()
    print(f"{len(texts)} texts of the shipped samples, each encoded alone, on one thread")
    print("fused against unfused kernels:")
    print(f"{'encoder':<12} {'largest change':>15} {'median':>10} {'lowest cosine':>14}")
    for backend in ("onnx", "onnx-int8"):
        encoder = SentenceSimilarity(backend=backend, cache_dir=False).backend_encoder
        encoder.prepare()
        model = encoder.export_path.read_bytes()
        fused, unfused = (embed(encoder, model, texts, fused=choice) for choice in (True, False))
        change = np.abs(fused - unfused).max(axis=1)
        cosine = (fused * unfused).sum(axis=1)
        print(f"{backend:<12} {change.max():>15.1e} {np.median(change):>10.0e} {cosine.min():>14.6f}")
        if backend == "onnx-int8":
            exact = embed(encoder, exact_integer_products(model), texts, fused=True)
            differ = int((np.abs(fused - exact).max(axis=1) > 0).sum())
            print(f"int8 products against exact ones (float64): {differ} of {len(texts)} texts differ, "
                  f"largest change {np.abs(fused - exact).max():.1e}")


if __name__ == "__main__":
    main()
