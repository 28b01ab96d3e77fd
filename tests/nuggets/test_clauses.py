"""The clauses of a sentence that is not one parse tree: list items whose words hang on the marker left out
of the sentence, LaTeX and code lines (real spaCy and MiniLM)."""

from __future__ import annotations

import pandas as pd
import pytest

from pyterrier_rag_axioms.nuggets import NuggetAssigner, NuggetExtractor
from pyterrier_rag_axioms.nuggets._evidence import sentence_clauses, text_evidence
from pyterrier_rag_axioms.tools.text import resolve_text_analyzer

#: A numbered step whose words the parser hangs on the left-out marker ``2.`` (it raised ``KeyError: 0``
#: in ``sentence_clauses``), and list items of LaTeX formulas and of C++ code.
LIST_ITEMS = [
    "2. Once Safari is open/active, type ⌘-y, ⌘-f",
    "1. $E = mc^2$, where $c$ is the speed of light\n2. $\\int_0^1 x^2 \\, dx = \\frac{1}{3}$ holds",
    "- `std::vector<int> v;` grows as needed\n- `v.push_back(3);` adds at the end, in amortised O(1)",
]


@pytest.mark.parametrize("text", LIST_ITEMS)
def test_every_token_of_a_list_item_is_in_one_clause(text):
    analysis = resolve_text_analyzer(None).analyse([text])[0]
    evidence = text_evidence(analysis)
    assert evidence.sentences
    for sentence in analysis.sentences:
        clauses = sentence_clauses(sentence, analysis.is_word)
        assert sorted(token.i for clause in clauses for token in clause) == [token.i for token in sentence]


def test_the_assigner_and_extractor_judge_list_items():
    responses = pd.DataFrame({
        "qid": "mac", "query": "How do I open the history in Safari?", "docno": ["a", "b", "c"], "response": LIST_ITEMS,
    })
    nuggets = pd.DataFrame({"qid": ["mac"], "nugget": ["In Safari, type ⌘-y to open the history"],
                            "importance": ["vital"]})
    assigned = NuggetAssigner(nuggets=nuggets, processes=1)(responses)
    assert len(assigned) == 3 and assigned["confidence"].notna().all()
    assert assigned.set_index("docno").loc["a", "assignment"] != "not_support"
    extracted = NuggetExtractor(processes=1)(responses)
    assert set(extracted.columns) >= {"qid", "nugget"}
