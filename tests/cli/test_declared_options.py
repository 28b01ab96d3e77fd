"""Command-line options take their default, choices and bounds from the parameter they set, written once."""

from __future__ import annotations

import ast

import pytest
from conftest import PROJECT_ROOT

from pyterrier_rag_axioms.aggregation import MajorityVote
from pyterrier_rag_axioms.cli import main
from pyterrier_rag_axioms.cli.nuggetize import build_parser as nuggetize_parser
from pyterrier_rag_axioms.cli.rerank import build_parser as rerank_parser
from pyterrier_rag_axioms.cli.runs import build_parser as runs_parser
from pyterrier_rag_axioms.declaration import declared_parameter
from pyterrier_rag_axioms.evaluation.comparison import compare_nugget_rankings
from pyterrier_rag_axioms.nuggets import NuggetExtractor
from pyterrier_rag_axioms.reranking import METHODS, PIVOTS, AxiomaticReranker
from pyterrier_rag_axioms.runtime.cache_upkeep import prune


def test_no_option_of_the_command_line_writes_a_literal_default():
    for path in sorted((PROJECT_ROOT / "pyterrier_rag_axioms" / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "add_argument":
                for keyword in node.keywords:
                    if keyword.arg == "default":
                        assert not isinstance(keyword.value, ast.Constant | ast.List), (
                            f"{path.name}:{node.lineno}: a literal default; take it from the parameter it sets"
                        )


def test_defaults_and_choices_come_from_the_declaration(capsys):
    args = rerank_parser().parse_args([])
    assert args.method == declared_parameter(AxiomaticReranker, "method").default
    assert (args.pivot, args.seed, args.min_decisive_share) == (None, None, None)  # passed on only where given
    actions = {action.dest: action for action in rerank_parser()._actions}
    assert actions["method"].choices == list(METHODS) and actions["pivot"].choices == list(PIVOTS)
    assert "(default: random)" in actions["pivot"].help and "(default: 0)" in actions["seed"].help
    assert f"(default: {declared_parameter(MajorityVote, 'min_decisive_share').default})" in (
        actions["min_decisive_share"].help
    )
    assert runs_parser().parse_args([]).confidence == compare_nugget_rankings.__kwdefaults__["confidence"]
    assert nuggetize_parser().parse_args(["run.jsonl", "--output", "n.jsonl"]).max_nuggets == (
        declared_parameter(NuggetExtractor, "max_nuggets").default
    )
    with pytest.raises(SystemExit):
        main(["cache", "--help"])
    assert f"(default: {prune.__kwdefaults__['unused_days']})" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["nuggetize", "run.jsonl", "--output", "n.jsonl", "--max-nuggets", "0"],
         "rag-axioms nuggetize: error: argument --max-nuggets: must be a whole number >= 1, not '0'"),
        (["rerank", "--seed", "x"], "rag-axioms rerank: error: argument --seed: must be a whole number >= 0, not 'x'"),
        (["runs", "--confidence", "high"],
         "rag-axioms runs: error: argument --confidence: must be a number, not 'high'"),
        (["assign", "--processes", "1.5"],
         "rag-axioms assign: error: argument --processes: must be a whole number >= 1, not '1.5'"),
    ],
)
def test_bounds_are_checked_by_the_option_on_one_line(arguments, message, capsys):
    assert main(arguments) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1, err
