"""Benchmark CLAR1 against a real LanguageTool server, and its agreement with the CrowdRAG-25 judgments.

CLAR1 sends each distinct response to LanguageTool's ``/v2/check`` and measures the share of
characters inside GRAMMAR matches. Nearly all of its time is the server's check. This prints:

(a) CLAR1's time per response over the judged pairs of the CrowdRAG-25 development slice (a fresh
    grammar checker, so nothing is cached), and for the sample's responses;
(b) the bare work: one ``requests.post`` per distinct response to the same server with the same
    parameters, nothing else, measured in the same run; the ratio (a) / (b);
(c) CLAR1's agreement with the overall-quality judgments (decisiveness, concordance, accuracy).

Both are timed after a warm-up check, alternately (bare, CLAR1, bare, CLAR1, ...) and the fastest
of ``--repeat`` rounds is reported: the machine is shared, the server is not.

Usage: ``make bench`` (starts and stops a server), or with a running server
``RAG_AXIOMS_LANGUAGETOOL_URL=http://127.0.0.1:8081 .venv/bin/python benchmarks/bench_clar1.py``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import pandas as pd

PROJECT_ROOT = Path(__file__).resolve().parents[1]
if str(PROJECT_ROOT) not in sys.path:
    sys.path.insert(0, str(PROJECT_ROOT))  # the package from this checkout, installed or not
DEFAULT_DATA = PROJECT_ROOT.parent / "shared" / "data" / "crowdrag-25"
SAMPLE = PROJECT_ROOT / "data" / "sample" / "responses.jsonl"


def bare_checks(url: str, texts: list[str]) -> float:
    """Seconds for one plain HTTP check of each text, as CLAR1 sends it."""
    import requests

    session = requests.Session()
    start = time.perf_counter()
    for text in texts:
        answer = session.post(
            f"{url}/v2/check",
            data={"language": "en-US", "text": text, "enabledCategories": "GRAMMAR", "enabledOnly": "true"},
            timeout=60,
        )
        answer.raise_for_status()
        answer.json()
    return time.perf_counter() - start


def clar1_time(url: str, frame: pd.DataFrame) -> tuple[float, pd.DataFrame]:
    """Seconds for CLAR1 over ``frame`` with a fresh grammar checker (empty cache), and its output."""
    from pyterrier_rag_axioms import CLAR1
    from pyterrier_rag_axioms.tools.grammar import GrammarChecker

    axiom = CLAR1(grammar_checker=GrammarChecker(url))
    start = time.perf_counter()
    out = axiom(frame)
    return time.perf_counter() - start, out


def measure(name: str, url: str, frame: pd.DataFrame, texts: list[str], repeat: int) -> tuple[dict, pd.DataFrame]:
    bare, ours, out = [], [], None
    for _ in range(repeat):
        bare.append(bare_checks(url, texts))
        seconds, out = clar1_time(url, frame)
        ours.append(seconds)
    characters = sum(len(text) for text in texts)
    row = {
        "input": name,
        "responses": len(texts),
        "pairs": len(out),
        "mean characters": round(characters / len(texts)),
        "CLAR1 s": round(min(ours), 2),
        "CLAR1 s/response": round(min(ours) / len(texts), 3),
        "bare s": round(min(bare), 2),
        "CLAR1 / bare": round(min(ours) / min(bare), 2),
    }
    return row, out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=None, help="LanguageTool server (default: $RAG_AXIOMS_LANGUAGETOOL_URL)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of the CrowdRAG-25 files")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the fastest counts (default: %(default)s)")
    args = parser.parse_args(argv)

    from pyterrier_rag_axioms import agreement
    from pyterrier_rag_axioms.io import read_responses
    from pyterrier_rag_axioms.judgments import load_crowdrag_judgments
    from pyterrier_rag_axioms.tools.grammar.languagetool import answers, default_url

    url = (args.url or os.environ.get("RAG_AXIOMS_LANGUAGETOOL_URL") or default_url()).rstrip("/")
    if not answers(url, timeout=60.0):
        print(f"bench_clar1: no LanguageTool server answers at {url}; `make bench` starts one", file=sys.stderr)
        return 2
    bare_checks(url, ["A warm-up text that goes to the server.", "She go home."])

    rows = []
    sample = read_responses(SAMPLE)
    row, _ = measure("shipped sample", url, sample, list(dict.fromkeys(sample["response"])), args.repeat)
    rows.append(row)
    ratings, responses = args.data / "ratings.dev.jsonl.gz", args.data / "responses.dev.jsonl.gz"
    judged_agreement = None
    if ratings.is_file() and responses.is_file():
        judged = load_crowdrag_judgments(ratings, responses)
        texts = list(dict.fromkeys([*judged["response_a"], *judged["response_b"]]))
        row, out = measure("CrowdRAG-25 dev (judged pairs)", url, judged, texts, args.repeat)
        rows.append(row)
        judged_agreement = agreement(out, truth="quality_overall", axioms=["CLAR1"])
    else:
        print(f"CrowdRAG-25 development files not in {args.data}: only the sample is measured\n")

    print(f"CLAR1 against the LanguageTool server at {url}; fastest of {args.repeat} rounds\n")
    print(pd.DataFrame(rows).to_string(index=False))
    if judged_agreement is not None:
        print("\nAgreement with quality_overall on the CrowdRAG-25 development slice:\n")
        print(judged_agreement.round(3).to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
