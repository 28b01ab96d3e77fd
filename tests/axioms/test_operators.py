"""PyTerrier's operators on axioms, combinators and preference models: a clear error naming the
combinator to use, in either operand order; ``>>`` and ``.parallel()`` keep working."""

from __future__ import annotations

import operator

import pyterrier as pt
import pytest

from pyterrier_rag_axioms import COV1, LEN1, Cascade, KwikSort, MajorityVote, PreferenceModel, WeightedSum

OPERATORS = {
    "+": (operator.add, "WeightedSum"),
    "*": (operator.mul, "WeightedSum"),
    "|": (operator.or_, "MajorityVote"),
    "&": (operator.and_, "Conjunction"),
    "%": (operator.mod, "KwikSort"),
    "**": (operator.pow, "PreferenceModel"),
    "^": (operator.xor, "Cascade"),
}

PREFERENCE_WRITERS = {
    "axiom": lambda: COV1(),
    "combinator": lambda: MajorityVote(COV1(), LEN1()),
    "weighted sum": lambda: WeightedSum("COV1", "LEN1", weights=[2, 1]),
    "preference model": lambda: PreferenceModel(axioms=["LEN1", "COV1"], coefficients=[1.0, 1.0], scales=[1.0, 1.0]),
}


@pytest.mark.parametrize("writer", PREFERENCE_WRITERS, ids=list(PREFERENCE_WRITERS))
@pytest.mark.parametrize("symbol", OPERATORS, ids=list(OPERATORS))
def test_each_operator_names_the_combinator_to_use(symbol, writer):
    apply, instead = OPERATORS[symbol]
    left = PREFERENCE_WRITERS[writer]()
    right = 2 if symbol in ("*", "%") else LEN1()
    with pytest.raises(TypeError) as error:
        apply(left, right)
    message = str(error.value)
    assert message.startswith(f"{'COV1()' if writer == 'axiom' else ''}")
    assert f" {symbol} " in message and instead in message
    assert all(name in message for name in ("MajorityVote", "WeightedSum", "Cascade", "Conjunction"))


@pytest.mark.parametrize("symbol", ["+", "*", "|", "&", "%", "**", "^"])
def test_the_reflected_operators_give_the_same_error(symbol):
    apply, instead = OPERATORS[symbol]
    with pytest.raises(TypeError, match=instead):
        apply(2, COV1())  # int's own operator gives way to the axiom's reflected one


def test_the_errors_read_as_the_issue_asked():
    with pytest.raises(TypeError, match=r"^COV1\(\) % LEN1\(\): PyTerrier's % cuts a ranking at a rank"):
        COV1() % LEN1()
    with pytest.raises(TypeError, match=r"Use WeightedSum\(COV1\(\), LEN1\(\), weights=\[1, 1\]\)"):
        COV1() + LEN1()
    with pytest.raises(TypeError, match=r"Use Cascade\(COV1\(\), LEN1\(\)\)"):
        COV1() ^ LEN1()


def test_compose_and_parallel_keep_working(sample_responses):
    one_query = sample_responses[sample_responses["qid"] == "q1"]
    chained = COV1() >> LEN1() >> Cascade("COV1", "LEN1")
    out = chained(one_query)
    assert {"COV1", "LEN1", "Cascade(COV1,LEN1)"} <= set(out.columns) and len(out) == 6
    assert isinstance(COV1().parallel(2), pt.Transformer)
    assert isinstance(chained.parallel(2), pt.Transformer)


def test_rankers_keep_pyterriers_operators(sample_responses):
    one_query = sample_responses[sample_responses["qid"] == "q1"]
    top_two = KwikSort(COV1()) % 2
    assert list(top_two(one_query)["rank"]) == [0, 1]
