"""The samples shipped in the package: 8 queries' responses, and a TREC 2024 RAG slice (runs, nuggets, assignments).
Not here: the public datasets, fetched by name (``judgments.public_data``)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

#: The files of the TREC 2024 RAG sample, relative to its folder.
TREC_SAMPLE_FILES: tuple[str, ...] = ("topics.txt", "nuggets.jsonl", "assignments.jsonl", "runs")


def sample_path(name: str = "responses.jsonl") -> Path:
    """The path of a file shipped in the sample folder, wherever the package is installed.

    ``sample_path()`` is the response sample (8 queries, 4 responses each); ``sample_path("answers.jsonl")``
    its reference answers (``qid``, ``gold_answer``); ``sample_path("trec-rag-2024")`` the TREC 2024 RAG
    sample's folder (see :func:`trec_sample_path`). ``rag-axioms data path sample`` prints the first.
    """
    path = Path(str(resources.files(__name__) / name))
    if not path.exists():
        raise FileNotFoundError(f"{path}: not in the package's samples")
    return path


def trec_sample_path(name: str = "") -> Path:
    """The TREC 2024 RAG sample's folder, or a file in it (``"topics.txt"``, ``"nuggets.jsonl"``, ...).

    Two topics of TREC 2024 RAG, the answers of eight runs to them as TREC run files (``runs/*.jsonl``),
    the topics' nuggets (nuggetizer's create format) and NIST's assignments of the nuggets to the
    answers (nuggetizer's assign format), cut from the public nugget assignments; see the README there.
    """
    return sample_path(f"trec-rag-2024/{name}" if name else "trec-rag-2024")


def trec_sample_runs() -> list[Path]:
    """The run files of the TREC 2024 RAG sample, sorted by name."""
    return sorted(trec_sample_path("runs").glob("*.jsonl"))


__all__ = ["TREC_SAMPLE_FILES", "sample_path", "trec_sample_path", "trec_sample_runs"]
