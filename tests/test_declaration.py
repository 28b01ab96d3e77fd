"""The shared parameter declaration: one list read by repr, copies, saving, value keys and choice checks."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import re
import sys

import pyterrier as pt
import pytest

import pyterrier_rag_axioms as rag
from pyterrier_rag_axioms.declaration import (
    PRESENTATION,
    REQUIRED,
    TOOL,
    UnnamedToolError,
    check_arguments,
    check_choice,
    choices_of,
    declared_repr,
    is_declared,
    keyed_parameters,
    parameter,
    parameters,
    replaced,
    saved_arguments,
)
from pyterrier_rag_axioms.tools._shared import SharedTool
from pyterrier_rag_axioms.tools.text import TextAnalyzer, resolve_text_analyzer


@parameters
class Example:
    """A declared object with each kind of parameter."""

    source: str = parameter(REQUIRED, positional=True)
    unit: str = parameter("words", choices=("words", "sentences"))
    limit: int = parameter(3)
    analyzer: TextAnalyzer | str | None = parameter(
        None, role=TOOL, resolve=lambda owner, analyzer: resolve_text_analyzer(analyzer)
    )
    name: str = parameter("example", role=PRESENTATION)
    verbose: bool = parameter(False, role=PRESENTATION, hidden=True)

    __repr__ = declared_repr


@parameters
class Members:
    """A declared object with variadic members, bounded numbers and derived state."""

    members: tuple[str, ...] = parameter(REQUIRED, variadic=True, check=lambda owner, members: _some(members))
    share: float = parameter(0.5, at_least=0, at_most=1)
    count: int | None = parameter(None, whole=True, at_least=1)

    def __post_init__(self) -> None:
        self.size = len(self.members)

    __repr__ = declared_repr


def _some(members: tuple[str, ...]) -> None:
    if not members:
        raise ValueError("Members: needs at least one member")


def test_repr_shows_the_positional_and_the_non_default_parameters():
    assert repr(Example("a")) == "Example('a')"
    assert repr(Example("a", limit=4, name="x", verbose=True)) == "Example('a', limit=4, name='x')"
    assert repr(Example("a", analyzer="en_core_web_sm")) == "Example('a', analyzer='en_core_web_sm')"


def test_choices_are_checked_when_built_and_offered():
    assert choices_of(Example, "unit") == ("words", "sentences")
    with pytest.raises(ValueError, match="^Example: unit must be one of 'words', 'sentences', not 'pages'$"):
        Example("a", unit="pages")
    with pytest.raises(ValueError, match="^PreferenceModel: value_transform must be one of 'signed_log1p', 'identity'"):
        rag.PreferenceModel(axioms=["LEN1"], value_transform="log")
    assert check_choice("words", ("words",), "Example", "unit") == "words"


def test_a_copy_keeps_every_parameter_and_takes_changes():
    example = Example("a", unit="sentences", limit=5, verbose=True)
    copy = replaced(example, limit=6)
    assert (copy.source, copy.unit, copy.limit, copy.verbose) == ("a", "sentences", 6, True)
    with pytest.raises(TypeError, match="no keyword parameter 'limits'"):
        replaced(example, limits=1)


def test_saved_arguments_name_tools_and_leave_out_defaults_and_hidden_ones():
    assert saved_arguments(Example("a", limit=4, verbose=True)) == {"source": "a", "limit": 4}
    named = Example("a", analyzer=TextAnalyzer.shared(model="en_core_web_sm"))
    assert saved_arguments(named)["analyzer"] == "en_core_web_sm"
    with pytest.raises(UnnamedToolError, match="analyzer is a TextAnalyzer built in memory"):
        saved_arguments(Example("a", analyzer=TextAnalyzer(model="en_core_web_sm", batch_size=3)))


def test_value_keys_hold_value_parameters_and_tools_only():
    assert set(keyed_parameters(Example("a", name="x"))) == {"source", "unit", "limit", "analyzer"}
    assert set(keyed_parameters(rag.COV1(margin_fraction=0.5, name="c"))) == {"aspects", "encoder"}


def test_axioms_are_equal_by_their_declared_parameters():
    assert rag.LEN1() == rag.LEN1(verbose=True) and hash(rag.LEN1()) == hash(rag.LEN1(margin_fraction=0.2))
    assert rag.LEN1() != rag.LEN1(margin_fraction=0.2) and rag.LEN1() != rag.COH3()


def test_the_declaration_builds_the_constructor():
    members = Members("a", "b", share=1)
    assert (members.members, members.share, members.count, members.size) == (("a", "b"), 1, None, 2)
    assert repr(members) == "Members('a', 'b', share=1)"
    assert str(inspect.signature(Members)) == (
        "(*members: 'str', share: 'float' = 0.5, count: 'int | None' = None) -> None"
    )
    assert str(inspect.signature(Example)).startswith("(source: 'str', *, unit: 'str' = 'words', limit: 'int' = 3")
    attributes = pt.inspect.transformer_attributes(rag.KwikSort("p", seed=2))
    assert [(a.name, a.value) for a in attributes] == [
        ("source", "p"),
        ("pivot", "random"),
        ("seed", 2),
        ("verbose", False),
    ]
    with pytest.raises(ValueError, match="^Members: needs at least one member$"):
        Members()
    with pytest.raises(TypeError, match="^Example: missing a required argument: 'source'$"):
        Example()
    with pytest.raises(TypeError, match="^Example has no argument 'limits'; its arguments: source, unit, limit, "):
        Example("a", limits=2)
    with pytest.raises(TypeError, match="^Example: too many positional arguments$"):
        Example("a", "b")
    with pytest.raises(TypeError, match=r"^COV1 takes keyword arguments only, e.g. COV1\(margin_fraction=\.\.\.\)"):
        rag.COV1(0.1)
    with pytest.raises(TypeError, match="takes its constructor from its declaration"):

        @parameters
        class Own:
            value: int = parameter(1)

            def __init__(self, value: int = 1):
                self.value = value


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"share": 1.5}, "share must be a number from 0 to 1, not 1.5"),
        ({"share": "0.5"}, "share must be a number from 0 to 1, not '0.5'"),
        ({"share": True}, "share must be a number from 0 to 1, not True"),
        ({"count": 0}, "count must be a whole number >= 1 or None, not 0"),
        ({"count": 2.0}, "count must be a whole number >= 1 or None, not 2.0"),
    ],
)
def test_bounds_are_checked_once_from_the_field(arguments, message):
    with pytest.raises(ValueError, match=f"^Members: {re.escape(message)}$"):
        Members("a", **arguments)
    with pytest.raises(ValueError, match=f"^Caller: {re.escape(message)}$"):
        check_arguments(Members, "Caller", **arguments)
    assert Members("a", share=0, count=3).count == 3


@parameters
class Renamed:
    """A declared object whose parameter had other names: one still taken for now, one refused."""

    new: int = parameter(1, deprecated=("old",), formerly=("older",))


@parameters
class Labelled:
    """A declared object with a value shown by another parameter."""

    function: object = parameter(REQUIRED, positional=True, shown_for=lambda owner, function: f"{owner.label}()")
    label: str = parameter("f", in_repr=False)

    __repr__ = declared_repr


def test_a_deprecated_name_is_taken_with_a_warning_and_a_former_one_refused():
    with pytest.warns(DeprecationWarning, match="^Renamed: old= is now called new=$") as caught:
        assert Renamed(old=2).new == 2
    assert caught[0].filename == __file__  # the warning points at the caller
    assert "old" not in inspect.signature(Renamed).parameters
    with pytest.raises(TypeError, match="^Renamed: old= is now called new=; pass new= alone$"):
        Renamed(old=2, new=3)
    with pytest.raises(TypeError, match="^Renamed: older= is now called new=; pass new=2$"):
        Renamed(older=2)


def test_a_value_may_show_by_the_other_parameters():
    assert repr(Labelled(len, label="g")) == "Labelled('g()')" and repr(Labelled(len)) == "Labelled('f()')"
    assert saved_arguments(Labelled(len, label="g")) == {"function": "g()", "label": "g"}
    with pytest.raises(ValueError, match="give shown or shown_for, not both"):
        parameter(None, shown=str, shown_for=lambda owner, value: value)


#: Classes left with a constructor of their own, and why. A class converted to a declaration leaves the list.
NOT_DECLARED = {
    # Not configured by users.
    "tools._shared.SharedTool": "the base of the shared tools, with no parameters",
    "runtime._alpha.QueryParallelTransformer": "pyterrier-alpha's constructor, built by .parallel(N)",
    "axioms.pool.PoolLabel": "how a pool axiom's repr shows a fixed pool",
    "runtime.cache.ModelWorkCache": "a handle on an open cache directory, made by model_work_cache()",
    "tools.terms.TermProfile": "the terms of one text: a result, not a configuration",
    "tools.text.faster_components.WordList": "a list of words for spaCy, with a set beside it",
}


def _package_classes() -> dict[str, type]:
    """Every class defined in the package (its modules imported, ``__main__`` aside), by dotted name."""
    for module in pkgutil.walk_packages(rag.__path__, "pyterrier_rag_axioms."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    classes = {}
    for name, module in list(sys.modules.items()):
        if name == "pyterrier_rag_axioms" or name.startswith("pyterrier_rag_axioms."):
            for cls in vars(module).values():
                if isinstance(cls, type) and cls.__module__ == name:
                    classes[f"{name.removeprefix('pyterrier_rag_axioms.')}.{cls.__qualname__}"] = cls
    return classes


def _written(cls: type, method: str) -> bool:
    """Whether ``cls`` (or a base) has a hand-written ``method``: not a dataclass's, nor a declaration's."""
    for kind in cls.__mro__[:-1]:
        if method in vars(kind):
            generated = getattr(getattr(kind, "__dataclass_params__", None), method.strip("_"), False)
            return not generated and not getattr(vars(kind)[method], "__declared_constructor__", False)
    return False


def _configurable(cls: type) -> bool:
    """A tool, transformer or dataset; or any class with a constructor and a ``repr`` of its own (records aside)."""
    if issubclass(cls, SharedTool | pt.Transformer | pt.datasets.Dataset):
        return True
    written = "__init__" in vars(cls) and _written(cls, "__init__") and _written(cls, "__repr__")
    return written and not issubclass(cls, BaseException)


def test_every_configurable_class_is_declared():
    classes = _package_classes()
    assert {"axioms.coverage.aspects.AspectAxiom", "pipelines.rag.SamplingReader"} <= set(classes), "none found"
    undeclared = sorted(name for name, cls in classes.items() if _configurable(cls) and not is_declared(cls))
    assert undeclared == sorted(NOT_DECLARED), "declare these with @parameters (or list why not): " + ", ".join(
        sorted(set(undeclared) ^ set(NOT_DECLARED))
    )
    assert sum(_configurable(cls) and is_declared(cls) for cls in classes.values()) > 80


def test_a_class_that_writes_its_own_constructor_is_not_declared():
    @dataclasses.dataclass
    class Record:
        value: int

    class Own(SharedTool):
        configuration = ("value",)

        def __init__(self, value: int = 1):
            self.value = value

        def __repr__(self) -> str:
            return f"Own({self.value})"

    class Undeclared(Members):
        extra: int = 1  # an attribute only a declaration of its own would read

    assert is_declared(Members) and not is_declared(Own) and not is_declared(Record) and not is_declared(Undeclared)
    assert _configurable(Own) and not _configurable(Record)
