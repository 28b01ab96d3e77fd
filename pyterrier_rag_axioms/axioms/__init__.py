"""The axioms, one module per dimension (coverage, correctness, coherence, consistency, clarity), length,
pool, oracles and gen/; each registers itself when defined. Not here: combinators, rankers, tools."""

from pyterrier_rag_axioms.axioms._base import (
    Axiom,
    FeatureAxiom,
    compare_with_margin,
    context_readers,
    declared_repr,
    parameter,
    parameters,
    resolve_tool,
    warn_about_contexts,
)
from pyterrier_rag_axioms.axioms.operators import PreferenceOperators, operator_error
from pyterrier_rag_axioms.declaration import resolve_parameters

# isort: off
from pyterrier_rag_axioms.axioms import length  # noqa: F401  (each module registers its axioms)
from pyterrier_rag_axioms.axioms import coherence  # noqa: F401
from pyterrier_rag_axioms.axioms import coverage  # noqa: F401
from pyterrier_rag_axioms.axioms import consistency  # noqa: F401
from pyterrier_rag_axioms.axioms import correctness  # noqa: F401
from pyterrier_rag_axioms.axioms import clarity  # noqa: F401
from pyterrier_rag_axioms.axioms import pool  # noqa: F401
from pyterrier_rag_axioms.axioms import gen  # noqa: F401
from pyterrier_rag_axioms.axioms import oracles  # noqa: F401
# isort: on
from pyterrier_rag_axioms.registry import AXIOMS

#: Every axiom class under its short name and its long (class) name.
AXIOM_NAMES: dict[str, type[Axiom]] = {
    name: cls for short_name, cls in AXIOMS.items() for name in (short_name, cls.__name__)
}
globals().update(AXIOM_NAMES)

__all__ = [
    "AXIOM_NAMES", "Axiom", "FeatureAxiom", "PreferenceOperators", "compare_with_margin", "context_readers",
    "operator_error", "parameter", "parameters", "declared_repr", "resolve_parameters", "resolve_tool",
    "warn_about_contexts",
    *AXIOM_NAMES,
]
