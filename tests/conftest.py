"""Shared helpers and fixtures: the preference of one pair, the shipped sample, the shared development data."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SAMPLE_PATH = PROJECT_ROOT / "data" / "sample" / "responses.jsonl"
SHARED_DATA = Path(os.environ.get("RAG_AXIOMS_SHARED_DATA", PROJECT_ROOT.parent / "shared" / "data"))


@pytest.fixture(scope="session")
def sample_responses():
    """The shipped sample as a response frame (8 queries, 4 responses each)."""
    from pyterrier_rag_axioms.io import read_responses

    return read_responses(SAMPLE_PATH)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The shared development data directory; skips the test where it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared development data not found at {SHARED_DATA}")
    return SHARED_DATA


def prefer(axiom, better: str, worse: str, *, query: str = "a question", context=None) -> float:
    """The preference of ``axiom`` for the pair (better, worse) of one query, as a float."""
    frame = pd.DataFrame(
        {"qid": ["q", "q"], "query": [query, query], "docno": ["a", "b"], "response": [better, worse],
         "context": [context, context]}
    )
    out = axiom(frame)
    assert len(out) == 1
    return float(out[axiom.name].iloc[0])
