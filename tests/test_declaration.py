"""The shared parameter declaration: one list read by repr, copies, saving, value keys and choice checks."""

from __future__ import annotations

import pytest

import pyterrier_rag_axioms as rag
from pyterrier_rag_axioms.declaration import (
    PRESENTATION,
    REQUIRED,
    TOOL,
    UnnamedToolError,
    check_choice,
    choices_of,
    declared_repr,
    keyed_parameters,
    parameter,
    parameters,
    replaced,
    resolve_parameters,
    saved_arguments,
)
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

    def __init__(self, source: str, **arguments):
        self.source = source
        for field, value in {**{"unit": "words", "limit": 3, "analyzer": None, "name": "example",
                                "verbose": False}, **arguments}.items():
            setattr(self, field, value)
        resolve_parameters(self)

    __repr__ = declared_repr


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
    assert set(keyed_parameters(rag.COV1(margin_fraction=0.5, name="c"))) == {"aspects", "sentence_similarity"}


def test_axioms_are_equal_by_their_declared_parameters():
    assert rag.LEN1() == rag.LEN1(verbose=True) and hash(rag.LEN1()) == hash(rag.LEN1(margin_fraction=0.2))
    assert rag.LEN1() != rag.LEN1(margin_fraction=0.2) and rag.LEN1() != rag.COH3()
