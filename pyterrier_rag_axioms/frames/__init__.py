"""The frame contract: columns, pyterrier-rag's names, validation (the one context rule), pairs and their
limits (``max_pairs``). Not here: axioms, rankers, and file formats (those are in :mod:`~pyterrier_rag_axioms.io`)."""

from pyterrier_rag_axioms.frames._checks import FrameError, FrameTypeError, shown
from pyterrier_rag_axioms.frames.columns import GOLD_ANSWER, gold_answer_texts, source_column
from pyterrier_rag_axioms.frames.context import Context, normalize_context, passage_text
from pyterrier_rag_axioms.frames.contract import (
    NAMES_ATTR,
    ORDER_COLUMNS,
    PAIR_BASES,
    PAIR_COLUMNS,
    RESPONSE_ALIASES,
    RESPONSE_COLUMNS,
    ResponseTable,
    extra_columns,
    is_preference_frame,
    pairs_from_responses,
    preference_frame,
    response_extras,
    response_frame,
    restore_names,
    warn_joined_context,
    warn_missing_context,
    warn_single_responses,
)
from pyterrier_rag_axioms.frames.limits import DEFAULT_MAX_PAIRS, check_pair_count, max_pairs, set_max_pairs
from pyterrier_rag_axioms.frames.names import RESERVED_COLUMNS, check_column_name

__all__ = [
    "DEFAULT_MAX_PAIRS", "GOLD_ANSWER", "RESERVED_COLUMNS", "check_column_name", "check_pair_count", "max_pairs",
    "set_max_pairs", "NAMES_ATTR", "ORDER_COLUMNS", "PAIR_BASES", "PAIR_COLUMNS", "RESPONSE_ALIASES",
    "RESPONSE_COLUMNS", "Context", "FrameError", "FrameTypeError", "ResponseTable", "extra_columns",
    "gold_answer_texts", "is_preference_frame", "normalize_context", "pairs_from_responses", "passage_text",
    "preference_frame", "response_extras", "response_frame", "restore_names", "shown", "source_column",
    "warn_joined_context", "warn_missing_context", "warn_single_responses",
]
