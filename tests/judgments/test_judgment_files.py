"""Judgment files: the contexts of both responses, and malformed lines named by file and line."""

from __future__ import annotations

import json

import pytest

from pyterrier_rag_axioms.judgments import load_crowdrag_judgments, load_nugget_assignments, load_topics


def test_crowdrag_judgments_carry_both_contexts(shared_data):
    crowd = shared_data / "crowdrag-25"
    judgments = load_crowdrag_judgments(crowd / "ratings.dev.jsonl.gz", crowd / "responses.dev.jsonl.gz")
    assert {"context_a", "context_b"} <= set(judgments.columns) and "context" not in judgments.columns
    assert judgments["context_b"].map(len).eq(20).all()


def test_nan_and_infinity_in_judgment_files_name_file_and_line(tmp_path):
    line = {"qid": "1", "query": "q", "run_id": "r", "answer_text": "A.", "nuggets": [], "response_length": 3}
    path = tmp_path / "nuggets.jsonl"
    path.write_text(json.dumps(line) + "\n" + json.dumps({**line, "run_id": "s", "response_length": float("nan")}))
    with pytest.raises(ValueError, match=r"nuggets\.jsonl:2: NaN is not a JSON number"):
        load_nugget_assignments(path)
    path.write_text(json.dumps(line) + "\n" + json.dumps(line | {"run_id": "s"}).replace("3}", "1e400}"))
    with pytest.raises(ValueError, match=r"nuggets\.jsonl:2: number 1e400 is out of range"):
        load_nugget_assignments(path)


def test_non_utf8_topic_file_names_file_and_line(tmp_path):
    path = tmp_path / "topics.txt"
    path.write_bytes("1\tfirst topic\n2\tcaf\u00e9 latte\n".encode() + "3\tcaf\u00e9\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"topics\.txt:3: not UTF-8 text \(byte 0xe9 at column 6\)"):
        load_topics(path)
