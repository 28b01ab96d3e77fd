"""TREC's habits on the command line: only judged topics are scored, a TREC ad-hoc run file is named as such, an
output named for another format than the one written is refused before the work, and a run line without its
query says what to give."""

from __future__ import annotations

import pytest
from conftest import write_records

from pyterrier_rag_axioms.cli import main
from pyterrier_rag_axioms.judgments import load_run_file

NUGGETS = [{"qid": "moon", "nuggets": [{"text": "Apollo 11 landed on the Moon in 1969", "importance": "vital"}]}]


def run_line(run_id: str, topic_id: str, text: str, *, query: str | None = "When did people land on the Moon?") -> dict:
    line = {"run_id": run_id, "topic_id": topic_id, "references": ["d1"], "answer": [{"text": text, "citations": [0]}]}
    if query is not None:
        line["topic"] = query
    return line


def run(capsys, *arguments: str) -> tuple[int, str, str]:
    status = main(list(arguments))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_assign_scores_the_judged_topics_and_says_how_many_were_left_out(tmp_path, capsys):
    runs = write_records(tmp_path / "runs.jsonl", [
        run_line("a", "moon", "Apollo 11 landed on the Moon in 1969."),
        run_line("b", "moon", "The Moon is far away."),
        run_line("a", "mars", "Nobody has landed on Mars.", query="Has anyone landed on Mars?"),
        run_line("a", "venus", "Venus is hot.", query="Is Venus hot?"),
    ])
    nuggets = write_records(tmp_path / "nuggets.jsonl", NUGGETS)
    status, out, err = run(capsys, "assign", str(runs), "--nuggets", str(nuggets), "--quiet", "--processes", "1")
    assert status == 0, err
    assert err.splitlines() == [
        f"rag-axioms assign: note: 2 of the 3 topics of the run files have no nuggets in {nuggets} (e.g. qid 'mars'): "
        "left out, as TREC scores the judged topics only"
    ]
    assert out.splitlines()[0].startswith("2 answers of 2 runs to 1 topics;")


def test_assign_refuses_nuggets_of_none_of_the_topics(tmp_path, capsys):
    runs = write_records(tmp_path / "runs.jsonl", [run_line("a", "mars", "No.", query="Has anyone landed on Mars?")])
    nuggets = write_records(tmp_path / "nuggets.jsonl", NUGGETS)
    status, out, err = run(capsys, "assign", str(runs), "--nuggets", str(nuggets), "--quiet")
    assert (status, out) == (2, "")
    assert err == (f"rag-axioms assign: error: {nuggets}: has nuggets for none of the 1 topics of the run files "
                   "(e.g. qid 'mars'); give the nugget file of these topics\n")


@pytest.mark.parametrize("name", ["run.txt", "run.jsonl"])
def test_a_trec_ad_hoc_run_file_is_named_as_such(tmp_path, capsys, name):
    ranking = tmp_path / name
    ranking.write_text("moon Q0 doc1 1 12.5 bm25\nmoon Q0 doc2 2 11.0 bm25\n", encoding="utf-8")
    nuggets = write_records(tmp_path / "nuggets.jsonl", NUGGETS)
    status, out, err = run(capsys, "assign", str(ranking), "--nuggets", str(nuggets), "--quiet")
    assert (status, out) == (2, "")
    assert err.startswith(f"rag-axioms assign: error: {ranking}:1: a TREC ad-hoc run file (qid Q0 docno rank score "
                          "tag: a ranking of documents), not JSON lines; ") and err.count("\n") == 1


def test_runs_names_a_trec_ad_hoc_run_file_whatever_its_suffix(tmp_path, capsys):
    ranking = tmp_path / "bm25.run"
    ranking.write_text("\nmoon Q0 doc1 1 12.5 bm25\n", encoding="utf-8")
    status, out, err = run(capsys, "runs", str(ranking), "--quiet")
    assert (status, out) == (2, "")
    assert err.startswith(f"rag-axioms runs: error: {ranking}:2: a TREC ad-hoc run file (qid Q0 docno rank score "
                          "tag: a ranking of documents), not JSON lines; ") and err.count("\n") == 1


def test_a_run_line_without_its_query_asks_for_the_topics_file(tmp_path):
    runs = write_records(tmp_path / "runs.jsonl", [run_line("a", "moon", "Yes.", query=None)])
    with pytest.raises(ValueError, match=r"runs\.jsonl:1: no field 'topic' \(the query text of topic 'moon'\), and no "
                                         r"topics were given; give the topics file \(qid<TAB>query; on the command "
                                         r"line: --topics FILE\)"):
        load_run_file(runs)
    topics = tmp_path / "topics.txt"
    topics.write_text("mars\tHas anyone landed on Mars?\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no field 'topic' and no query for topic 'moon' in the given topics"):
        load_run_file(runs, topics=topics)
    topics.write_text("moon\tWhen did people land on the Moon?\n", encoding="utf-8")
    assert load_run_file(runs, topics=topics)["query"].tolist() == ["When did people land on the Moon?"]


@pytest.mark.parametrize("output", ["n.tsv", "n.parquet", "n.txt", "n"])
def test_nuggetize_refuses_an_output_not_named_for_json_lines_before_any_work(tmp_path, capsys, output):
    runs = write_records(tmp_path / "runs.jsonl", [run_line("a", "moon", "Yes."), run_line("b", "moon", "No.")])
    status, out, err = run(capsys, "nuggetize", str(runs), "--output", str(tmp_path / output))
    assert (status, out) == (2, "")
    assert err == (f"rag-axioms nuggetize: error: --output {tmp_path / output}: nuggetize writes JSON lines "
                   "(nuggetizer's create format), so name the file .jsonl (or .jsonl.gz)\n")
    assert not (tmp_path / output).exists()
