"""The sample shipped inside the package: without a file, ``rag-axioms [FILE]`` (:mod:`.judge`) and
``rag-axioms rerank [FILE]`` (:mod:`.rerank`) run on it."""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable

#: The sample shipped inside the package (``data/sample/responses.jsonl`` is its readable copy).
SAMPLE: Traversable = files("pyterrier_rag_axioms") / "sample" / "responses.jsonl"

#: The sample as a path on disk, the default input of both subcommands.
SAMPLE_PATH = str(SAMPLE)
