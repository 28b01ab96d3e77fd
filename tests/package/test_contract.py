"""One contract over the registry: every public transformer keeps the rules of DESIGN.md.

pt.inspect inputs, outputs and attributes; both names; keyword-only constructors; pickling as
configuration; an empty frame gives an empty frame; the caller's frame is never changed;
antisymmetry and independence of row order and of the other responses.
"""

import inspect
import pickle

import numpy as np
import pandas as pd
import pyterrier as pt
import pytest
from conftest import PROJECT_ROOT

import pyterrier_rag_axioms as pra
from pyterrier_rag_axioms.registry import (
    AXIOMS,
    COMBINATORS,
    EXTRA_AXIOMS,
    GEN_AXIOMS,
    MODELS,
    NUGGET_AXIOMS,
    POOL_AXIOMS,
    RAG_AXIOMS,
    RANKERS,
    RERANKERS,
)

#: Axioms that build without judgments (the oracles need judgment files: see test_oracles.py); the
#: nugget axioms get the nuggets of the shipped sample's topics.
CONSTRUCTIBLE = [*RAG_AXIOMS, *EXTRA_AXIOMS, *NUGGET_AXIOMS, *POOL_AXIOMS, *GEN_AXIOMS]
SAMPLE_NUGGETS = str(PROJECT_ROOT / "data" / "sample" / "nuggets.jsonl")
ARGUMENTS = {name: {"nuggets": SAMPLE_NUGGETS} for name in NUGGET_AXIOMS}


def build(name: str, *positional, **arguments):
    """The axiom ``name``, with the arguments it needs besides ``arguments``."""
    return AXIOMS[name](*positional, **{**ARGUMENTS.get(name, {}), **arguments})
#: Axioms that run offline (CLAR1 needs a LanguageTool server: test_languagetool.py runs these checks on it).
RUNNABLE = [name for name in CONSTRUCTIBLE if name != "CLAR1"]

SWAP = {
    "docno_a": "docno_b",
    "docno_b": "docno_a",
    "response_a": "response_b",
    "response_b": "response_a",
    "context_a": "context_b",
    "context_b": "context_a",
}


def test_registry_lists_every_public_axiom_and_combinator():
    public = [getattr(pra, name) for name in pra.__all__]
    classes = [value for value in public if isinstance(value, type)]
    axioms = {cls.short_name for cls in classes if issubclass(cls, pra.Axiom) and "short_name" in vars(cls)}
    assert axioms == set(AXIOMS) | {model.short_name for model in MODELS.values()}
    combinators = {cls for cls in classes if issubclass(cls, pra.Combinator) and cls is not pra.Combinator}
    assert combinators == set(COMBINATORS.values())
    assert pra.RAG_AXIOMS == RAG_AXIOMS and pra.GEN_AXIOMS == GEN_AXIOMS


@pytest.mark.parametrize("name", CONSTRUCTIBLE)
def test_every_axiom_passes_pt_inspect_and_has_both_names(name):
    axiom = build(name)
    assert ["qid", "query", "response"] in pt.inspect.transformer_inputs(axiom)
    assert pt.inspect.transformer_outputs(axiom, ["qid", "query", "response"])[-1] == name
    attributes = {attribute.name: attribute.value for attribute in pt.inspect.transformer_attributes(axiom)}
    assert {"margin_fraction", "name", "verbose"} <= set(attributes)
    assert attributes["name"] == name
    assert repr(axiom).startswith(f"{name}(margin_fraction=")
    assert getattr(pra, type(axiom).__name__) is getattr(pra, name)
    assert type(axiom).__doc__ and "Intuition" in type(axiom).__doc__
    signature = list(inspect.signature(type(axiom).__init__).parameters.values())[1:]
    required = [parameter.name for parameter in signature if parameter.default is inspect.Parameter.empty]
    first = [*required, "margin_fraction", "name"]  # the required arguments come first
    with pytest.raises(TypeError, match=f"^{name} takes keyword arguments only, e.g. {name}\\({first[0]}=...\\)"):
        build(name, 0.1)
    with pytest.raises(TypeError, match=f"^{name} has no argument 'margin'; its arguments: {', '.join(first)}, "):
        build(name, margin=0.1)
    for bad in ("x", -1, True):
        with pytest.raises(ValueError, match=f"{name}: margin_fraction must be a number >= 0"):
            build(name, margin_fraction=bad)


@pytest.mark.parametrize("name", CONSTRUCTIBLE)
def test_every_axiom_pickles_as_its_configuration(name):
    axiom = build(name)
    copy = pickle.loads(pickle.dumps(axiom))
    assert type(copy) is type(axiom) and repr(copy) == repr(axiom)


@pytest.mark.parametrize("name", RUNNABLE)
def test_empty_frame_gives_empty_frame_with_the_column(name):
    empty = pd.DataFrame({"qid": [], "query": [], "response": []}, dtype=object)
    out = build(name)(empty)
    assert len(out) == 0 and name in out.columns


@pytest.mark.parametrize("name", RUNNABLE)
def test_antisymmetry_and_independence_of_other_responses(name, sample_responses):
    frame = sample_responses[sample_responses["qid"].isin(["q1", "q2", "q6"])]
    # a pool axiom's values depend on the other responses by design: with a fixed pool, they do not
    axiom = build(name, pool=frame) if name in POOL_AXIOMS else build(name)
    before = frame.copy(deep=True)
    forward = axiom(frame)
    pd.testing.assert_frame_equal(frame, before)  # the caller's frame is not changed
    swapped = forward.rename(columns=SWAP).drop(columns=[name])
    swapped_before = swapped.copy(deep=True)
    backward = axiom(swapped.iloc[::-1])
    pd.testing.assert_frame_equal(swapped, swapped_before)
    np.testing.assert_array_equal(backward[name].to_numpy()[::-1], -forward[name].to_numpy())
    assert set(forward[name].unique()) <= {-1.0, 0.0, 1.0}
    full = forward.set_index(["docno_a", "docno_b"])[name]
    for first, second in [(3, 1), (2, 0)]:
        alone = axiom(frame.iloc[[first, second]])  # one pair, reversed, without the others
        key = (alone["docno_a"].iloc[0], alone["docno_b"].iloc[0])
        expected = full[key] if key in full.index else -full[(key[1], key[0])]
        assert alone[name].iloc[0] == expected


MEMBERS = ("COV1", "CONS2", "CORR1")


@pytest.fixture
def pairs() -> pd.DataFrame:
    """A ready preference frame of one query's three responses, with three member columns."""
    return pd.DataFrame(
        {
            "qid": ["q"] * 3, "query": ["why"] * 3, "docno_a": ["r0", "r0", "r1"], "docno_b": ["r1", "r2", "r2"],
            "response_a": ["a", "a", "b"], "response_b": ["b", "c", "c"],
            "context_a": [None] * 3, "context_b": [None] * 3,
            "COV1": [1.0, 1.0, -1.0], "CONS2": [1.0, 0.0, 1.0], "CORR1": [0.0, -1.0, 1.0],
        }
    )


@pytest.mark.parametrize("name", list(COMBINATORS))
def test_every_combinator_keeps_the_contract(name, pairs):
    combinator = COMBINATORS[name](*MEMBERS)
    attributes = {attribute.name for attribute in pt.inspect.transformer_attributes(combinator)}
    assert {"members", "name", "verbose"} <= attributes
    assert pt.inspect.transformer_outputs(combinator, list(pairs.columns))[-1] == combinator.name
    assert repr(pickle.loads(pickle.dumps(combinator))) == repr(combinator)
    before = pairs.copy(deep=True)
    forward = combinator(pairs)
    pd.testing.assert_frame_equal(pairs, before)
    swapped = pairs.rename(columns=SWAP).assign(**{member: -pairs[member] for member in MEMBERS})
    np.testing.assert_array_equal(combinator(swapped)[combinator.name], -forward[combinator.name])
    assert len(combinator(pairs.iloc[:0])) == 0


def test_combinators_expose_their_member_transformers():
    cov1, corr1 = pra.COV1(), pra.CORR1()
    inner = pra.Cascade(corr1, "X")
    outer = pra.MajorityVote("Y", cov1, inner)
    assert list(outer) == [cov1, inner]
    assert pt.inspect.subtransformers(outer) == {"members": [cov1, inner]}
    assert pt.inspect.subtransformers(pra.KwikSort(outer)) == {"source": outer}


@pytest.mark.parametrize("name", [*RANKERS, *RERANKERS])
def test_every_ranker_keeps_the_contract(name, pairs):
    ranker = {**RANKERS, **RERANKERS}[name](pra.MajorityVote(*MEMBERS))
    attributes = {attribute.name for attribute in pt.inspect.transformer_attributes(ranker)}
    assert {"source", "verbose"} <= attributes
    assert repr(pickle.loads(pickle.dumps(ranker))) == repr(ranker)
    before = pairs.copy(deep=True)
    ranking = ranker(pairs)
    pd.testing.assert_frame_equal(pairs, before)
    assert sorted(ranking["docno"]) == ["r0", "r1", "r2"] and list(ranking["rank"]) == [0, 1, 2]
    assert len(ranker(pairs.iloc[:0])) == 0


def test_the_preference_model_keeps_the_contract(sample_responses):
    model = MODELS["preference"].default("nuggets")
    attributes = {attribute.name for attribute in pt.inspect.transformer_attributes(model)}
    assert {"axioms", "coefficients", "scales", "min_confidence", "name", "verbose"} <= attributes
    assert pt.inspect.subtransformers(model) == {"axioms": list(model.axioms)}
    assert pt.inspect.transformer_outputs(model, ["qid", "query", "response"])[-2:] == [
        "PreferenceModel", "PreferenceModel_probability"
    ]
    assert repr(pickle.loads(pickle.dumps(model))) == repr(model)
    frame = sample_responses[sample_responses["qid"].isin(["q1", "q2"])]
    before = frame.copy(deep=True)
    forward = model(frame)
    pd.testing.assert_frame_equal(frame, before)
    backward = model(forward.rename(columns=SWAP).drop(columns=["PreferenceModel", "PreferenceModel_probability"]))
    np.testing.assert_array_equal(backward["PreferenceModel"], -forward["PreferenceModel"])
    assert len(model(frame.iloc[:0])) == 0
