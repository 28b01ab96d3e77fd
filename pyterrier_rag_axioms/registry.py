"""Every axiom, combinator, ranker and pivot of the package by name: the one list that the command
line, the tests and the README's tables read.

This module imports nothing of the package: the axioms register themselves when their classes are
defined (:meth:`~pyterrier_rag_axioms.axioms.Axiom.__init_subclass__`), and the combinators,
models and rankers where they are defined. Importing ``pyterrier_rag_axioms`` fills every table;
importing this module loads neither spaCy nor torch.
"""

from __future__ import annotations

from typing import Any

#: The eleven RAG axioms of the ICTIR 2025 paper, by short name.
RAG_AXIOMS: dict[str, type] = {}

#: Axioms beyond the paper (length, citations, discourse, redundancy, query coverage, non-answers,
#: on-topic aspects, the opening sentence), by short name.
EXTRA_AXIOMS: dict[str, type] = {}

#: Axioms that read each topic's nuggets, given by the user (``nuggets=...``), by short name.
NUGGET_AXIOMS: dict[str, type] = {}

#: The 21 retrieval axioms adapted to generated responses, by short name.
GEN_AXIOMS: dict[str, type] = {}

#: The oracle axioms that read human or LLM judgments, by short name.
ORACLE_AXIOMS: dict[str, type] = {}

#: The pool axioms, whose values depend on the other responses to the same query, by short name.
POOL_AXIOMS: dict[str, type] = {}

#: The groups an axiom registers in, by the name of its ``registry_group``.
GROUPS: dict[str, dict[str, type]] = {
    "rag": RAG_AXIOMS, "extra": EXTRA_AXIOMS, "nugget": NUGGET_AXIOMS, "pool": POOL_AXIOMS, "gen": GEN_AXIOMS,
    "oracle": ORACLE_AXIOMS,
}

#: Every axiom, by short name (the groups in the order of :data:`GROUPS`).
AXIOMS: dict[str, type] = {}

#: The combinators, by the name the command line gives them.
COMBINATORS: dict[str, type] = {}

#: Fitted models over the per-response values of feature axioms, by name.
MODELS: dict[str, type] = {}

#: The rankers that turn preferences into a ranking, by the name the command line gives them.
RANKERS: dict[str, type] = {}

#: The transformers that rank with a ranker of :data:`RANKERS` over a combination of axioms.
RERANKERS: dict[str, type] = {}

#: The pivot rules of :class:`~pyterrier_rag_axioms.reranking.KwikSort`.
PIVOT_RULES: tuple[str, ...] = ()


def _rebuild_axioms() -> None:
    AXIOMS.clear()
    for group in GROUPS.values():
        AXIOMS.update(group)


def register_axiom(cls: Any, group: str) -> None:
    """Enter the axiom class ``cls`` under its ``short_name`` into ``group`` (a key of :data:`GROUPS`)."""
    GROUPS[group][cls.short_name] = cls
    _rebuild_axioms()


def order_group(group: str, short_names: tuple[str, ...] | list[str]) -> None:
    """Put the axioms of ``group`` in the order of ``short_names`` (the others after them)."""
    axioms = GROUPS[group]
    ordered = {name: axioms[name] for name in short_names if name in axioms}
    rest = {name: cls for name, cls in axioms.items() if name not in ordered}
    axioms.clear()
    axioms.update({**ordered, **rest})
    _rebuild_axioms()


def set_pivot_rules(pivots: tuple[str, ...]) -> None:
    """Record the pivot rules of the rankers."""
    global PIVOT_RULES
    PIVOT_RULES = tuple(pivots)


def axiom_class(name: str) -> type:
    """The axiom class of a short name, case-insensitive (``KeyError`` naming the known ones otherwise)."""
    by_upper = {short_name.upper(): cls for short_name, cls in AXIOMS.items()}
    try:
        return by_upper[name.strip().upper()]
    except KeyError:
        raise KeyError(f"unknown axiom {name!r}; known: {', '.join(sorted(AXIOMS))}") from None
