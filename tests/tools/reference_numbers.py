"""The reference table of embeddings and decisions that every machine must reproduce (``test_same_numbers.py``).

Made once, on one CPU, and shipped in ``tests/data/reference-numbers.json``; write it again (after
a change that is meant to move the numbers) with ``.venv/bin/python tests/tools/reference_numbers.py``.
The tolerances, and why they hold on other instruction sets, are in docs/speed.md ("The same
numbers on every CPU").
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "reference-numbers.json"
#: The encoders of the table: every backend of the sentence similarity.
BACKENDS = ("onnx-int8", "onnx", "static", "torch")
#: How far an embedding's component may move, per float backend: float32 sums in another order
#: (threads, vector widths).
EMBEDDING_TOLERANCE = {"onnx": 1e-4, "static": 1e-4, "torch": 1e-4}
#: The lowest cosine of an 8-bit embedding to its reference: its activations are rounded to 8 bits,
#: and a float sum in another order flips such a rounding now and then (lowest measured: 0.9949).
INT8_COSINE = 0.99
#: How far the assigner's confidence may move; a decision whose confidence lies farther than this
#: from the model's thresholds must be the same.
CONFIDENCE_TOLERANCE = 2e-3
#: The run of the TREC sample whose (answer, nugget) decisions the table holds.
RUN = "baseline_top_5"


def texts() -> list[str]:
    """The texts of the table: the sample's nuggets of its first topic and the answers of one run."""
    from pyterrier_rag_axioms.nuggets import load_nuggets
    from pyterrier_rag_axioms.sample import trec_sample_path

    nuggets = load_nuggets(trec_sample_path("nuggets.jsonl"))
    answers = sample_run()["response"].tolist()
    return nuggets["nugget"].head(12).tolist() + [answer[:600] for answer in answers]


def sample_run() -> pd.DataFrame:
    """The responses of :data:`RUN` in the TREC sample, as a response frame."""
    from pyterrier_rag_axioms.judgments.rag_runs import load_run_file
    from pyterrier_rag_axioms.sample import trec_sample_path

    return load_run_file(trec_sample_path(f"runs/{RUN}.jsonl"), topics=trec_sample_path("topics.txt"))


def embeddings(backend: str, texts: list[str]) -> np.ndarray:
    from pyterrier_rag_axioms.tools.embeddings.similarity import SentenceSimilarity

    return SentenceSimilarity(backend=backend, cache_dir=False).embed(texts)


def decisions() -> pd.DataFrame:
    """The default assigner's decisions on :data:`RUN`'s answers: qid, docno, nugget_id, assignment, confidence."""
    from pyterrier_rag_axioms.nuggets import NuggetAssigner, load_nuggets
    from pyterrier_rag_axioms.sample import trec_sample_path

    assigner = NuggetAssigner(nuggets=load_nuggets(trec_sample_path("nuggets.jsonl")))
    assigned = assigner(sample_run())
    return assigned[["qid", "docno", "nugget_id", "assignment", "confidence"]].reset_index(drop=True)


def main() -> None:
    table = texts()
    reference = {
        "texts": table,
        "embeddings": {backend: np.round(embeddings(backend, table), 6).tolist() for backend in BACKENDS},
        "decisions": decisions().round({"confidence": 6}).to_dict(orient="records"),
    }
    REFERENCE.write_text(json.dumps(reference, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{REFERENCE}: {len(table)} texts, {len(reference['decisions'])} decisions")


if __name__ == "__main__":
    main()
