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


SKY = "Why is the sky blue?"
SMALL = {
    "sky": {
        "run-a": "The sky is blue because air molecules scatter blue light.",
        "run-b": "Air molecules scatter blue light more than red light.",
        "run-c": "Blue light is scattered by air molecules more than other colours.",
        "run-d": "The sea looks blue too, and sunsets are red.",
    },
    "lonely": {
        "run-a": "Air molecules scatter blue light.",
        "run-b": "The ocean reflects the colour of the sky.",
        "run-c": "Sunsets look red because of dust.",
        "run-d": "Clouds are white because they scatter all colours.",
    },
}


def small_run_files(folder, topics=("sky", "lonely")):
    paths = []
    for run in ("run-a", "run-b", "run-c", "run-d"):
        records = [
            {
                "topic_id": qid,
                "topic": SKY,
                "run_id": run,
                "references": [],
                "answer": [{"text": SMALL[qid][run], "citations": []}],
            }
            for qid in topics
        ]
        paths.append(str(write_records(folder / f"{run}.jsonl", records)))
    return paths


def test_a_small_topic_gets_the_fact_its_runs_share_and_a_topic_without_one_stays_in_the_file(tmp_path):
    output = tmp_path / "nuggets.jsonl"
    completed = run_cli("nuggetize", *small_run_files(tmp_path), "--output", str(output), cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == ""  # the command's own line says it, once
    assert completed.stdout.splitlines()[-1] == (
        "no two runs state one fact for topic lonely: it has no nuggets (an empty list in the file)"
    )
    lines = {line["qid"]: line for line in map(json.loads, output.read_text(encoding="utf-8").splitlines())}
    assert lines["lonely"] == {"qid": "lonely", "query": SKY, "nuggets": []}
    first = lines["sky"]["nuggets"][0]
    assert "scatter blue light" in first["text"] and first["sources"] == ["run-a", "run-b", "run-c"]
    nuggets = load_nuggets(output)
    assert set(nuggets["qid"]) == {"sky"}
    assigned = run_cli("assign", *small_run_files(tmp_path), "--nuggets", str(output), cwd=tmp_path)
    assert assigned.returncode == 0, assigned.stderr
    assert "1 of the 2 topics of the run files have no nuggets" in assigned.stderr


def test_a_file_where_no_topic_has_nuggets_still_loads(tmp_path):
    output = tmp_path / "nuggets.jsonl"
    completed = run_cli(
        "nuggetize", *small_run_files(tmp_path, topics=("lonely",)), "--output", str(output), cwd=tmp_path
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.startswith("0 nuggets (0 vital) drawn from 4 answers of 4 runs to 1 topics")
    assert load_nuggets(output).empty


def test_the_extractors_settings_are_options(tmp_path):
    paths = small_run_files(tmp_path, topics=("sky",))
    strict = run_cli("nuggetize", *paths, "--similarity", "0.99", cwd=tmp_path)  # no two statements agree
    assert strict.returncode == 0, strict.stderr
    assert strict.stdout.splitlines()[-1] == "no two runs state one fact for topic sky: it has no nuggets"
    short = run_cli("nuggetize", *paths, "--max-words", "5", cwd=tmp_path)  # the longer statements still restate it
    assert short.returncode == 0, short.stderr
    nuggets = [line.split("runs  ")[1] for line in short.stdout.splitlines() if line.startswith("  ")]
    assert nuggets == ["Air molecules scatter blue light."]
    many = run_cli("nuggetize", *paths, "--min-support", "3", cwd=tmp_path)  # three others: not in four runs
    assert "no nuggets" in many.stdout.splitlines()[-1]
    line = cli_error(run_cli("nuggetize", *paths, "--vital-share", "2", cwd=tmp_path))
    assert line.startswith("rag-axioms nuggetize: error: argument --vital-share: must be a number from 0 to 1, not '2'")


def test_a_topic_that_one_run_alone_answers_has_no_nuggets(tmp_path):
    paths = small_run_files(tmp_path, topics=("sky",))
    alone = write_records(
        tmp_path / "run-e.jsonl",
        [
            {
                "topic_id": "moon",
                "topic": "Why does the moon shine?",
                "run_id": "run-e",
                "references": [],
                "answer": [{"text": "The moon reflects sunlight.", "citations": []}],
            }
        ],
    )
    output = tmp_path / "nuggets.jsonl"
    completed = run_cli("nuggetize", *paths, str(alone), "--output", str(output), cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.splitlines()[-1] == (
        "no two runs state one fact for topic moon: it has no nuggets (an empty list in the file)"
    )
    assert set(load_nuggets(output)["qid"]) == {"sky"}
