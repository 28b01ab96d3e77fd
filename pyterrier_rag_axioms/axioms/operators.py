"""PyTerrier's operators on transformers that write preferences: a clear error instead of a wrong result.

PyTerrier gives ``+ * | & % ** ^`` a meaning on transformers that score or retrieve documents: a
sum of scores, a scaled score, the union or intersection of result sets, a rank cutoff, a union
of features, a concatenation of rankings. Axioms, combinators and preference models write
preference columns over pairs of responses, which none of these fit (``COV1() % LEN1()`` failed
with a bare ``AssertionError``, ``COV1() + LEN1()`` with ``KeyError: 'docno'``). On them each
operator raises a ``TypeError`` that names the combinator to use instead. ``>>`` (compose) and
``.parallel()`` keep PyTerrier's meaning.
"""

from __future__ import annotations

from typing import Any, NoReturn

#: What each operator does in PyTerrier, and what to write instead for preferences.
OPERATORS: dict[str, tuple[str, str]] = {
    "+": ("adds the scores of two rankings", "WeightedSum({a}, {b}, weights=[1, 1])"),
    "*": ("scales the scores of a ranking", "WeightedSum(..., weights=[...]) to weigh preferences"),
    "|": ("takes the union of two result sets", "MajorityVote({a}, {b}, min_decisive_share=0) or Cascade({a}, {b})"),
    "&": ("takes the intersection of two result sets", "Conjunction({a}, {b})"),
    "%": ("cuts a ranking at a rank", "a ranker first, e.g. KwikSort({a}) % k, or a combinator such as "
          "MajorityVote({a}, {b})"),
    "**": ("joins the features of two rankings", "{a} >> {b} (one preference column each), or a "
           "PreferenceModel over the axioms' values"),
    "^": ("concatenates two rankings", "Cascade({a}, {b}) (the first that prefers decides)"),
}


def _label(operand: Any) -> str:
    """``COV1()`` for an axiom, a combinator's or model's column name, else the operand's repr."""
    short_name = getattr(type(operand), "short_name", None)
    if isinstance(short_name, str):
        return f"{short_name}()"
    name = getattr(operand, "name", None)
    return name if isinstance(name, str) and hasattr(operand, "transform") else repr(operand)


def operator_error(left: Any, operator: str, right: Any) -> TypeError:
    """The error for ``left <operator> right`` where one side writes preferences."""
    meaning, instead = OPERATORS[operator]
    a, b = _label(left), _label(right)
    return TypeError(
        f"{a} {operator} {b}: PyTerrier's {operator} {meaning}; axioms, combinators and preference models "
        f"write preferences, not scores. Use {instead.format(a=a, b=b)} (combinators: MajorityVote, WeightedSum, "
        f"Cascade, Conjunction), and >> to chain axioms."
    )


class PreferenceOperators:
    """Mixin for transformers that write preferences: PyTerrier's ``+ * | & % ** ^`` raise
    :func:`operator_error`, in either operand order; ``>>`` and ``.parallel()`` are PyTerrier's."""

    def __add__(self, other: Any) -> NoReturn:
        raise operator_error(self, "+", other)

    def __radd__(self, other: Any) -> NoReturn:
        raise operator_error(other, "+", self)

    def __mul__(self, other: Any) -> NoReturn:
        raise operator_error(self, "*", other)

    def __rmul__(self, other: Any) -> NoReturn:
        raise operator_error(other, "*", self)

    def __or__(self, other: Any) -> NoReturn:
        raise operator_error(self, "|", other)

    def __ror__(self, other: Any) -> NoReturn:
        raise operator_error(other, "|", self)

    def __and__(self, other: Any) -> NoReturn:
        raise operator_error(self, "&", other)

    def __rand__(self, other: Any) -> NoReturn:
        raise operator_error(other, "&", self)

    def __mod__(self, other: Any) -> NoReturn:
        raise operator_error(self, "%", other)

    def __rmod__(self, other: Any) -> NoReturn:
        raise operator_error(other, "%", self)

    def __pow__(self, other: Any) -> NoReturn:
        raise operator_error(self, "**", other)

    def __rpow__(self, other: Any) -> NoReturn:
        raise operator_error(other, "**", self)

    def __xor__(self, other: Any) -> NoReturn:
        raise operator_error(self, "^", other)

    def __rxor__(self, other: Any) -> NoReturn:
        raise operator_error(other, "^", self)
