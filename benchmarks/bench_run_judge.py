"""The run judge, stage by stage, cold: where its CPU goes, and its decisions with each encoder.

Runs ``PreferenceModel.default("nuggets").scores`` in a fresh process with no cache (models
loaded inside the clock) on the TREC 2024 RAG development answers (``../shared/data`` or
``$RAG_AXIOMS_SHARED_DATA``), or with ``--topics``/``--runs`` on the synthetic track of
``bench_track.py``, and reports the process's CPU seconds per stage, each without the stages it
calls: loading spaCy and the encoder, spaCy's syntax and its deferred components, encoding (and
how many strings), each axiom's own work, the rest. ``--encoder torch`` runs the judge with
sentence-transformers' torch encoder in batches (the judge's encoder until the ONNX one). ``--decisions``
compares the encoders on the development answers against their nugget scores: pair
concordance (the model's pairwise preferences against the nugget oracle's) and Kendall's tau of the
runs' mean scores.

Usage: ``.venv/bin/python benchmarks/bench_run_judge.py [--encoder torch] [--topics N --runs N] [--decisions]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

os.environ.pop("RAG_AXIOMS_CACHE", None)  # cold: every text parsed and embedded

from bench_track import ASSIGNMENTS, FULL_RUNS, FULL_TOPICS, build_track  # noqa: E402

from pyterrier_rag_axioms.preference.features import ENCODERS  # noqa: E402


class Stages:
    """CPU seconds per stage, each without the stages it calls (a stack of open stages)."""

    def __init__(self):
        self.seconds: dict[str, float] = {}
        self.counts: dict[str, int] = {}
        self.open: list[float] = []

    def wrap(self, name: str, function, count=None):
        def timed(*args, **kwargs):
            start = time.process_time()
            self.open.append(0.0)
            try:
                return function(*args, **kwargs)
            finally:
                total = time.process_time() - start
                self.seconds[name] = self.seconds.get(name, 0.0) + total - self.open.pop()
                if self.open:
                    self.open[-1] += total
                if count is not None:
                    self.counts[name] = self.counts.get(name, 0) + count(*args, **kwargs)
        return timed


def responses_of(topics: int | None, runs: int | None):
    from pyterrier_rag_axioms.judgments import load_nugget_assignments

    if topics:
        return build_track(topics, runs or FULL_RUNS)[0]
    return load_nugget_assignments(ASSIGNMENTS)[["qid", "query", "docno", "response"]]


def profile(encoder: str | None, topics: int | None, runs: int | None) -> dict:
    """The judge's stages on the answers, in this process (see the module)."""
    from pyterrier_rag_axioms import PreferenceModel
    from pyterrier_rag_axioms.tools.embeddings.similarity import SentenceSimilarity
    from pyterrier_rag_axioms.tools.text.analyzer import TextAnalyzer

    stages = Stages()
    TextAnalyzer.nlp.func = stages.wrap("loading spaCy", TextAnalyzer.nlp.func)
    loading = SentenceSimilarity.backend_encoder
    loading.func = stages.wrap("loading the encoder", loading.func)
    def texts(self, texts, **_) -> int:
        return len(texts)

    TextAnalyzer._parse = stages.wrap("spaCy syntax", TextAnalyzer._parse, texts)
    TextAnalyzer.complete = stages.wrap("spaCy deferred components", TextAnalyzer.complete)
    SentenceSimilarity._encode = stages.wrap("encoding", SentenceSimilarity._encode, texts)
    responses = responses_of(topics, runs)
    # one process: every stage's CPU in this one (worker processes would hide theirs)
    judge = PreferenceModel.default("nuggets", processes=1, **({"encoder": encoder} if encoder else {}))
    for axiom, weight in zip(judge.computed_axioms(), judge.coefficients):
        if weight:
            axiom.response_values = stages.wrap(f"axiom {axiom.name}", axiom.response_values)
    start, cpu = time.perf_counter(), time.process_time()
    stages.wrap("the rest", judge.scores)(responses)
    return {
        "answers": len(responses), "encoder": judge.encoder, "wall": time.perf_counter() - start,
        "cpu": time.process_time() - cpu, "stages": stages.seconds, "counts": stages.counts,
        "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def decisions(encoder: str) -> dict:
    """Pair concordance and runs' tau of the judge with ``encoder`` on the development answers."""
    import pyterrier_rag_axioms as rag
    from pyterrier_rag_axioms.judgments import load_nugget_assignments, nugget_scores

    assignments = load_nugget_assignments(ASSIGNMENTS)
    judge = rag.PreferenceModel.default("nuggets", encoder=encoder)
    pairs = judge(rag.TrecRagNuggetAxiom(assignments_path=ASSIGNMENTS)(assignments.drop(columns=["nuggets"])))
    row = rag.agreement(pairs, truth="TREC_RAG_NUGGET", axioms=[judge.name]).iloc[0]
    scores = judge.scores(assignments[["qid", "query", "docno", "response"]]).rename(columns={"docno": "run"})
    nuggets = nugget_scores(assignments).rename(columns={"docno": "run"})
    tau = rag.evaluation.run_correlation(scores, nuggets, score_first=f"{judge.name}_score", score_second="score")
    return {"concordance": float(row["concordance"]), "pairs": int(row["concordance_pairs"]), "tau": tau["tau"],
            "preferences": pairs[judge.name].tolist()}


def child_figures(*arguments: str) -> dict:
    """The figures of a fresh process (``--child``) run with ``arguments``."""
    command = [sys.executable, __file__, "--child", *arguments]
    child = subprocess.run(command, capture_output=True, text=True, check=False)
    if child.returncode != 0:
        sys.exit(f"bench_run_judge: the child failed: {child.stderr.strip().splitlines()[-1:]}")
    return json.loads(child.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--encoder", choices=ENCODERS, help="the judge's encoder (default: its own)")
    parser.add_argument("--topics", type=int, help="topics of a synthetic track (default: the development answers)")
    parser.add_argument("--runs", type=int, help=f"runs per topic of the synthetic track (default {FULL_RUNS})")
    parser.add_argument("--decisions", action="store_true", help="compare the decisions of every encoder instead")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not ASSIGNMENTS.is_file():
        sys.exit(f"bench_run_judge: no development assignments at {ASSIGNMENTS}")
    if args.child:
        print(json.dumps(decisions(args.encoder) if args.decisions else profile(args.encoder, args.topics, args.runs)))
        return
    if args.decisions:
        figures = {encoder: child_figures("--decisions", "--encoder", encoder) for encoder in ENCODERS}
        for name, figure in figures.items():
            same = sum(a == b for a, b in zip(figures["torch"]["preferences"], figure["preferences"]))
            share = same / len(figure["preferences"])
            print(f"{name:10s} pair concordance {figure['concordance']:.4f} ({figure['pairs']} pairs), "
                  f"runs' tau {figure['tau']:.4f}, pairwise preferences as torch's {share:.2%}")
        return
    figures = child_figures(*(sys.argv[1:] if argv is None else argv))
    scale = FULL_TOPICS * FULL_RUNS / figures["answers"]
    print(f"{figures['answers']} answers, encoder {figures['encoder']}, cold in a fresh process: "
          f"{figures['cpu']:.1f} s CPU, {figures['wall']:.1f} s wall, peak {figures['peak_mib']:.0f} MiB; "
          f"a full track ({FULL_TOPICS} x {FULL_RUNS}) scaled linearly: {figures['cpu'] * scale / 60:.1f} min CPU")
    for name, seconds in sorted(figures["stages"].items(), key=lambda item: -item[1]):
        count = figures["counts"].get(name)
        print(f"  {name:28s} {seconds:7.2f} s" + (f"  ({count} texts)" if count is not None else ""))


if __name__ == "__main__":
    main()
