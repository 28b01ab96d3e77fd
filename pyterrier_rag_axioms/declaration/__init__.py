"""The one declaration of configurable objects' parameters (how: ``_constructor``), read by repr, copies,
files, checks and shared tools. Not here: the objects that declare them, nor the command line's options."""

from pyterrier_rag_axioms.declaration._checks import (
    check_arguments,
    check_choice,
    describe_bounds,
    resolve_parameters,
    within_bounds,
)
from pyterrier_rag_axioms.declaration._comparison import (
    UnnamedToolError,
    declared_repr,
    keyed_parameters,
    same,
    same_parameters,
    shown_source,
    tool_argument,
)
from pyterrier_rag_axioms.declaration._constructor import is_declared, parameters
from pyterrier_rag_axioms.declaration._fields import (
    DECISION,
    PRESENTATION,
    REQUIRED,
    ROLES,
    TOOL,
    VALUE,
    choices_of,
    configuration_of,
    declared,
    declared_parameter,
    declares,
    label_of,
    parameter,
)
from pyterrier_rag_axioms.declaration._saving import replaced, saved_arguments

__all__ = [
    "DECISION",
    "PRESENTATION",
    "REQUIRED",
    "ROLES",
    "TOOL",
    "VALUE",
    "UnnamedToolError",
    "check_arguments",
    "check_choice",
    "choices_of",
    "configuration_of",
    "declared",
    "declared_parameter",
    "declared_repr",
    "declares",
    "describe_bounds",
    "is_declared",
    "keyed_parameters",
    "label_of",
    "parameter",
    "parameters",
    "replaced",
    "resolve_parameters",
    "same",
    "same_parameters",
    "saved_arguments",
    "shown_source",
    "tool_argument",
    "within_bounds",
]
