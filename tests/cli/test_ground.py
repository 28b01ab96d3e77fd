"""``rag-axioms ground``: the unsupported spans of each answer of the shipped sample, printed and saved."""

from __future__ import annotations

import json

from pyterrier_rag_axioms.cli import main


def test_ground_prints_and_saves_the_unsupported_spans(tmp_path, capsys):
    output = tmp_path / "grounded.jsonl"
    assert main(["ground", "--output", str(output), "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "q1  q1-r1  faithfulness" in printed
    assert "  unsupported [" in printed
    records = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 32 and {"qid", "docno", "faithfulness", "unsupported"} <= set(records[0])
    spans = [span for record in records for span in record["unsupported"]]
    assert spans and all(span["end"] > span["start"] for span in spans)


def test_ground_without_context_is_one_line(tmp_path, capsys):
    responses = tmp_path / "responses.jsonl"
    responses.write_text(json.dumps({"qid": "1", "query": "q", "response": "It rains."}) + "\n", encoding="utf-8")
    assert main(["ground", str(responses), "--quiet"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0 and "Faithfulness: column 'context' has no passages for qid '1'" in error


def test_ground_refuses_an_output_it_cannot_write_before_any_work(tmp_path, capsys):
    missing = tmp_path / "no-such-folder" / "grounded.jsonl"
    assert main(["ground", "--output", str(missing), "--quiet"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0 and "no-such-folder" in error
    assert not missing.parent.exists()


def test_ground_never_writes_over_its_input(tmp_path, capsys):
    responses = tmp_path / "responses.jsonl"
    text = json.dumps({"qid": "1", "query": "q", "response": "It rains.", "context": ["It rains today."]}) + "\n"
    responses.write_text(text, encoding="utf-8")
    assert main(["ground", str(responses), "--output", str(responses), "--quiet"]) == 2
    assert "the input file" in capsys.readouterr().err
    assert responses.read_text(encoding="utf-8") == text
