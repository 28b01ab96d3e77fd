"""The names an axiom, model or combinator may not take: the columns of the frames it reads and writes.

Each writes its preferences into the column named by its ``name``; a name that is also a frame
column (``qid``, ``docno_a``, ``response_a``, ...) would silently replace that column, so it is
refused when the object is made.
"""

from __future__ import annotations

from pyterrier_rag_axioms.frames.contract import ORDER_COLUMNS, PAIR_COLUMNS, RESPONSE_ALIASES, RESPONSE_COLUMNS

#: Columns of response, preference and result frames: no preference column may take their names.
RESERVED_COLUMNS: tuple[str, ...] = tuple(
    dict.fromkeys([*RESPONSE_COLUMNS, *PAIR_COLUMNS, *RESPONSE_ALIASES.values(), *ORDER_COLUMNS])
)


def check_column_name(name: object, owner: str, *, role: str = "name") -> None:
    """Refuse a preference column name that is a frame column (or not a non-empty string).

    Raises:
        ValueError: the name is one of :data:`RESERVED_COLUMNS`; the message names ``owner``.
    """
    if not isinstance(name, str) or not name:
        raise ValueError(f"{owner}: {role} must be a non-empty string, not {name!r}")
    if name in RESERVED_COLUMNS:
        raise ValueError(
            f"{owner}: {role} {name!r} is a column of the frames it reads and writes "
            f"({', '.join(RESERVED_COLUMNS)}); its preferences would replace that column, so choose another name"
        )
