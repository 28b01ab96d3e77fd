"""Shared tools declare their configuration: one instance per configuration, pickled as that
configuration, the same ``repr`` as ever, and arguments checked by the declaration."""

from __future__ import annotations

import pickle
import re

import pytest

from pyterrier_rag_axioms.declaration import configuration_of, declared, is_declared
from pyterrier_rag_axioms.tools._shared import SharedTool
from pyterrier_rag_axioms.tools.arguments import DiscourseMarkerTagger, TargerTagger
from pyterrier_rag_axioms.tools.grammar.client import GrammarChecker
from pyterrier_rag_axioms.tools.grammar.languagetool import URL_VARIABLE
from pyterrier_rag_axioms.tools.rouge import RougeLsum
from pyterrier_rag_axioms.tools.terms import TermExtractor
from pyterrier_rag_axioms.tools.text import TextAnalyzer

#: Each declared tool with arguments of a configuration other than its default, and its repr.
TOOLS = [
    (TextAnalyzer, {}, "TextAnalyzer(model=None)"),
    (
        TextAnalyzer,
        {"model": "en_core_web_sm", "batch_size": 3, "n_process": 2, "cache_dir": False},
        "TextAnalyzer(model='en_core_web_sm', batch_size=3, n_process=2, cache_dir=False)",
    ),
    (GrammarChecker, {}, "GrammarChecker(remote_server='http://127.0.0.1:8081', language='en-US', timeout=10.0)"),
    (
        GrammarChecker,
        {"remote_server": "http://127.0.0.1:9/", "language": "de-DE", "timeout": 3},
        "GrammarChecker(remote_server='http://127.0.0.1:9', language='de-DE', timeout=3.0)",
    ),
    (TermExtractor, {}, "TermExtractor(text_analyzer=TextAnalyzer(model=None), stemmer='lemma', stop_words=True)"),
    (
        TermExtractor,
        {"stemmer": "porter", "stop_words": ["The", "a"]},
        "TermExtractor(text_analyzer=TextAnalyzer(model=None), stemmer='porter', stop_words=['a', 'the'])",
    ),
    (RougeLsum, {"use_stemmer": True}, "RougeLsum(use_stemmer=True)"),
    (DiscourseMarkerTagger, {}, "DiscourseMarkerTagger()"),
    (
        TargerTagger,
        {"url": "http://127.0.0.1:9/", "min_probability": 0.25},
        "TargerTagger(url='http://127.0.0.1:9/', model='tag-ibm-fasttext')",
    ),
]


@pytest.mark.parametrize(("tool", "arguments", "shown"), TOOLS)
def test_a_declared_tool_is_shared_and_pickled_as_its_configuration(tool, arguments, shown, monkeypatch):
    monkeypatch.delenv(URL_VARIABLE, raising=False)  # GrammarChecker's default server, were one running
    assert is_declared(tool)
    assert tool.configuration == configuration_of(tool) == tuple(field.name for field in declared(tool))
    shared = tool.shared(**arguments)
    assert tool.shared(**arguments) is shared and tool(**arguments) is not shared  # the constructor shares nothing
    assert repr(shared) == repr(tool(**arguments)) == shown
    copy = pickle.loads(pickle.dumps(shared))
    assert copy is shared
    configuration = dict(zip(tool.configuration, shared.configuration_key()))
    assert pickle.loads(pickle.dumps(tool(**arguments))) is tool.shared(**configuration) is shared


def test_configurations_that_differ_are_different_tools():
    assert TextAnalyzer.shared(batch_size=3) is not TextAnalyzer.shared(batch_size=4)
    assert TermExtractor.shared(stop_words=["a"]) is TermExtractor.shared(stop_words=("A",))  # stored lower-cased
    assert GrammarChecker.shared(remote_server="http://127.0.0.1:9/") is GrammarChecker.shared(
        remote_server="http://127.0.0.1:9"
    )


class LegacyTool(SharedTool):
    """A tool that names its configuration itself, as tools not declared yet do."""

    configuration = ("model", "size")

    def __init__(self, model: str | None = None, *, size: int = 2):
        self.model = model
        self.size = size


def test_a_tool_not_declared_yet_keeps_its_configuration_tuple():
    assert not is_declared(LegacyTool) and LegacyTool.configuration == ("model", "size")
    shared = LegacyTool.shared(model="m", size=3)
    assert LegacyTool.shared(model="m", size=3) is shared and LegacyTool.shared(model="m") is not shared
    assert pickle.loads(pickle.dumps(shared)) is shared
    assert repr(shared) == "LegacyTool(model='m', size=3)" and repr(LegacyTool()) == "LegacyTool(model=None)"


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [
        (lambda: TextAnalyzer(batch_size=0), ValueError, "TextAnalyzer: batch_size must be a whole number >= 1, not 0"),
        (
            lambda: TextAnalyzer(n_process=0),
            ValueError,
            "TextAnalyzer: n_process must be >= 1 or -1 (all cores), not 0",
        ),
        (
            lambda: TextAnalyzer(processes=2),
            TypeError,
            "TextAnalyzer has no argument 'processes'; its arguments: model, batch_size, defer_components, "
            "n_process, cache_dir",
        ),
        (lambda: GrammarChecker(timeout=0), ValueError, "GrammarChecker: timeout must be > 0 seconds, not 0"),
        (
            lambda: TermExtractor(stemmer="snowball"),
            ValueError,
            "TermExtractor: stemmer must be one of 'lemma', 'porter', not 'snowball'",
        ),
        (
            lambda: TermExtractor(stop_words="the"),
            TypeError,
            "TermExtractor: stop_words must be True, False or a collection of words, not a string",
        ),
        (
            lambda: RougeLsum(True),
            TypeError,
            "RougeLsum takes keyword arguments only, e.g. RougeLsum(use_stemmer=...), but got 1 positional argument: "
            "True",
        ),
        (
            lambda: TargerTagger(min_probability=2),
            ValueError,
            "TargerTagger: min_probability must be a number from 0 to 1, not 2",
        ),
    ],
)
def test_bad_tool_arguments_name_the_tool_the_argument_and_the_value(build, error, message):
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        build()
