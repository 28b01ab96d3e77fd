"""``rag-axioms nuggetize``: the nugget file it writes, read back by load_nuggets and assign; its one-line errors."""

from __future__ import annotations

import json

from conftest import cli_error, run_cli, write_records

from pyterrier_rag_axioms.nuggets import load_nuggets

ANSWERS = {
    "tower": (
        "What should I know about the Eiffel Tower?",
        {
            "run-a": ["The Eiffel Tower is 330 metres tall.", "Tickets can be bought online."],
            "run-b": ["Standing 330 metres tall, the Eiffel Tower dominates Paris.", "It has a restaurant."],
            "run-c": ["The Eiffel Tower is about 330 metres high.", "It attracts seven million visitors a year."],
        },
    ),
    "tea": (
        "Is green tea good for you?",
        {
            "run-a": ["Green tea contains antioxidants called catechins."],
            "run-b": ["Green tea is rich in catechins, which are antioxidants."],
            "run-c": ["Catechins, the antioxidants in green tea, may protect cells."],
        },
    ),
}


def run_files(folder, runs=("run-a", "run-b", "run-c"), topics=("tower", "tea")):
    paths = []
    for run in runs:
        records = [
            {
                "topic_id": qid,
                "topic": ANSWERS[qid][0],
                "run_id": run,
                "references": ["doc1"],
                "answer": [{"text": text, "citations": [0]} for text in ANSWERS[qid][1][run]],
            }
            for qid in topics
        ]
        paths.append(str(write_records(folder / f"{run}.jsonl", records)))
    return paths


def test_nuggetize_writes_the_create_format_that_assign_reads(tmp_path):
    output = tmp_path / "nuggets.jsonl"
    completed = run_cli("nuggetize", *run_files(tmp_path), "--output", str(output), cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    assert "drawn from 6 answers of 3 runs to 2 topics" in completed.stdout
    lines = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]
    assert [line["qid"] for line in lines] == ["tea", "tower"]
    assert lines[1]["query"] == ANSWERS["tower"][0]
    first = lines[1]["nuggets"][0]
    assert "330" in first["text"] and first["importance"] == "vital"
    assert first["sources"] == ["run-a", "run-b", "run-c"] and first["support"] == 3
    nuggets = load_nuggets(output)
    assert set(nuggets["qid"]) == {"tea", "tower"} and "drawn_from" in nuggets.columns
    assigned = run_cli("assign", *run_files(tmp_path), "--nuggets", str(output), cwd=tmp_path)
    assert assigned.returncode == 0, assigned.stderr
    assert "6 answers of 3 runs to 2 topics" in assigned.stdout


def test_a_run_file_without_answers_is_refused(tmp_path):
    paths = run_files(tmp_path)
    empty = write_records(
        tmp_path / "empty.jsonl",
        [
            {"topic_id": "tower", "topic": ANSWERS["tower"][0], "run_id": "run-d", "references": [], "answer": []},
        ],
    )
    line = cli_error(run_cli("nuggetize", *paths, str(empty), "--output", str(tmp_path / "n.jsonl"), cwd=tmp_path))
    assert f"{empty}: the run file holds no answer" in line
    assert not (tmp_path / "n.jsonl").exists()


def test_a_topic_with_one_answer_is_refused(tmp_path):
    paths = run_files(tmp_path, runs=("run-a",))
    line = cli_error(run_cli("nuggetize", *paths, "--output", str(tmp_path / "n.jsonl"), cwd=tmp_path))
    assert "topic 'tea' has one answer (run 'run-a')" in line


def test_an_empty_output_path_is_refused(tmp_path):
    line = cli_error(run_cli("nuggetize", *run_files(tmp_path), "--output", "", cwd=tmp_path))
    assert "--output: the path is empty" in line


def test_an_output_that_is_an_input_is_refused(tmp_path):
    paths = run_files(tmp_path)
    line = cli_error(run_cli("nuggetize", *paths, "--output", paths[0], cwd=tmp_path))
    assert "the input file" in line


def test_without_run_files_nor_output_it_prints_the_nuggets_of_the_shipped_sample(tmp_path):
    completed = run_cli("nuggetize", "--quiet", cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == ""
    lines = completed.stdout.splitlines()
    assert lines[0].endswith("drawn from 16 answers of 8 runs to 2 topics")
    assert "[2024-142395] what have teen done to stop animal testing" in lines
    assert all(line.split()[0] in ("vital", "okay") for line in lines[1:] if line.startswith("  "))
    assert list(tmp_path.iterdir()) == []
