"""Atomic facts: the splitter of answers into short statements, and TREC's nugget form, for nuggets and claims.
Not here: the spaCy parse it reads (``tools/text/``), or nuggets drawn from facts (``nuggets/extractor.py``)."""

from pyterrier_rag_axioms.nuggets.facts.splitting import (
    AtomicFact,
    atomic_facts,
    atomic_facts_of,
    in_trec_form,
    trec_form_problems,
)

__all__ = ["AtomicFact", "atomic_facts", "atomic_facts_of", "in_trec_form", "trec_form_problems"]
