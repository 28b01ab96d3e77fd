"""How many pairs one frame may need: every pair is judged, or none.

``n`` responses to one query make ``n (n - 1) / 2`` pairs, so 30,000 responses to one query make
about 450 million, far more than fit in memory. Before any pair is built, the pairs of a response
frame are counted: above a quarter of :func:`max_pairs` a warning says how many there will be
and about how much memory they take, and above :func:`max_pairs` the frame is refused with the
ways out (among them per-response scores: ``FeatureAxiom.values``, ``PreferenceModel.scores``).
The limit is ``$RAG_AXIOMS_MAX_PAIRS`` where set, else :data:`DEFAULT_MAX_PAIRS`;
:func:`set_max_pairs` changes it for the process.
"""

from __future__ import annotations

import os
import warnings

import pandas as pd

#: The most pairs one frame may need by default: about 2 GB of memory while they are judged.
DEFAULT_MAX_PAIRS = 10_000_000
#: Environment variable that sets the limit (a whole number).
MAX_PAIRS_VARIABLE = "RAG_AXIOMS_MAX_PAIRS"
#: Memory one pair takes while an axiom judges it (measured: about 180 bytes with one axiom).
BYTES_PER_PAIR = 200

_limit: int | None = None


def set_max_pairs(limit: int | None) -> None:
    """Set the most pairs one frame may need in this process (``None``: ``$RAG_AXIOMS_MAX_PAIRS`` or the default)."""
    global _limit
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise ValueError(f"max_pairs must be a whole number >= 1, not {limit!r}")
    _limit = limit


def max_pairs() -> int:
    """The most pairs one frame may need: :func:`set_max_pairs`, else ``$RAG_AXIOMS_MAX_PAIRS``, else the default.

    Raises:
        ValueError: ``$RAG_AXIOMS_MAX_PAIRS`` is not a whole number >= 1.
    """
    if _limit is not None:
        return _limit
    value = os.environ.get(MAX_PAIRS_VARIABLE, "").strip().replace("_", "")
    if not value:
        return DEFAULT_MAX_PAIRS
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"${MAX_PAIRS_VARIABLE} must be a whole number >= 1, not {value!r}")
    return int(value)


def _size(pairs: int) -> str:
    gigabytes = pairs * BYTES_PER_PAIR / 1e9
    return f"{gigabytes:,.1f} GB" if gigabytes >= 0.1 else f"{pairs * BYTES_PER_PAIR / 1e6:.1f} MB"


def check_pair_count(qids: pd.Series, transformer: object) -> int:
    """Count the pairs the responses of ``qids`` (one per response) make; warn or refuse before they are built.

    Raises:
        ValueError: more pairs than :func:`max_pairs`; the message names the largest query and
            the ways out.
    """
    counts = qids.value_counts(sort=True)
    pairs = int((counts * (counts - 1) // 2).sum())
    limit = max_pairs()
    if pairs <= limit // 4:
        return pairs
    largest, responses = str(counts.index[0]), int(counts.iloc[0])
    what = (
        f"{pairs:,} pairs (about {_size(pairs)} while judged; qid {largest!r} alone has {responses:,} responses, "
        f"{responses * (responses - 1) // 2:,} pairs)"
    )
    if pairs > limit:
        raise ValueError(
            f"{transformer}: the frame needs {what}, more than max_pairs={limit:,}: nothing was judged. Split each "
            "query's responses into groups and judge each group (a pair's preference does not depend on the other "
            "responses), rank with KwikSort, which compares far fewer pairs, use per-response scores where there are "
            "some (FeatureAxiom.values, PreferenceModel.scores), or raise the "
            f"limit (${MAX_PAIRS_VARIABLE}, pyterrier_rag_axioms.frames.set_max_pairs) if the memory is there"
        )
    warnings.warn(f"{transformer}: the frame needs {what}; max_pairs is {limit:,}", stacklevel=4)
    return pairs
