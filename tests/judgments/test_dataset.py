"""Loaders of TREC 2024 RAG and CrowdRAG-25 files, and the PyTerrier dataset over nugget judgments."""

from __future__ import annotations

import gzip
import json
import math
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pyterrier as pt
import pytest

from pyterrier_rag_axioms import CORR1
from pyterrier_rag_axioms.frames import PAIR_COLUMNS
from pyterrier_rag_axioms.judgments import (
    CROWDRAG_DIMENSIONS,
    load_crowdrag_judgments,
    load_crowdrag_responses,
    load_llm_ratings,
    load_nugget_assignments,
    load_run_file,
    load_topics,
    nugget_qrels,
    nugget_scores,
    render_answer,
)
from pyterrier_rag_axioms.judgments.dataset import TrecRag2024Dataset, trec_rag_2024_dataset

DATA = Path(__file__).parents[1] / "data"
NUGGETS = DATA / "nuggets.jsonl"


def _write_lines(path: Path, lines: list[object]) -> Path:
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))
    return path


def _rating(qid: str, a: str, b: str, p_a: float, p_b: float, p_n: float = 0.0) -> dict[str, object]:
    record: dict[str, object] = {"submission_id": "s", "query_id": qid, "response_a": a, "response_b": b}
    for dimension in CROWDRAG_DIMENSIONS:
        record[f"{dimension}_p_a"] = p_a
        record[f"{dimension}_p_b"] = p_b
        if dimension != "quality_overall":
            record[f"{dimension}_p_n"] = p_n
        record[f"{dimension}_gold"] = "a" if p_a > max(p_b, p_n) else "b" if p_b > max(p_a, p_n) else "n"
    return record


def _crowd_response(qid: str, docno: str, text: str) -> dict[str, object]:
    return {
        "topic": qid, "query": f"query {qid}", "response": docno, "raw_text": text,
        "references_ids": ["p0", "p1"], "references_texts": [f"passage zero of {qid}", f"passage one of {qid}"],
    }


# ------------------------------------------------------------------------------------------ nugget assignments


def test_nugget_assignments_are_a_response_frame_with_run_ids_as_docnos():
    frame = load_nugget_assignments(NUGGETS)
    assert list(frame[["qid", "docno"]].itertuples(index=False, name=None)) == [
        ("t1", "runA"), ("t1", "runB"), ("t1", "runC"), ("t2", "runA"),
    ]
    assert frame["query"].tolist() == ["what is rain"] * 3 + ["what is snow"]
    assert frame["response"].iloc[0] == "Rain is water falling from clouds."
    assert frame["context"].isna().all()
    assert frame["nuggets"].iloc[0][1] == {"text": "clouds", "importance": "vital", "assignment": "partial_support"}


@pytest.mark.parametrize(
    ("score_type", "strict", "expected"),
    [
        ("all", False, [0.625, 0.375, 0.5, 0.5]),
        ("all", True, [0.5, 0.25, 0.5, 0.5]),
        ("vital", False, [0.75, 0.5, 1.0, math.nan]),
        ("vital", True, [0.5, 0.5, 1.0, math.nan]),
        ("weighted", False, [2 / 3, 1.25 / 3, 2 / 3, 0.5]),
        ("weighted", True, [1.5 / 3, 1 / 3, 2 / 3, 0.5]),
    ],
)
def test_nugget_scores_follow_the_track_definitions(score_type, strict, expected):
    scores = nugget_scores(NUGGETS, score_type=score_type, strict=strict)
    assert list(scores.columns) == ["qid", "docno", "score"]
    np.testing.assert_allclose(scores["score"].to_numpy(), expected)


def test_nugget_qrels_are_integer_labels_scaled_from_the_score():
    qrels = nugget_qrels(load_nugget_assignments(NUGGETS))
    assert list(qrels.columns) == ["qid", "docno", "label"]
    assert qrels["label"].tolist() == [63, 38, 50, 50]
    assert qrels["label"].dtype.kind == "i"
    vital = nugget_qrels(NUGGETS, score_type="vital", scale=10)
    assert vital["label"].tolist() == [8, 5, 10]  # t2 has no vital nugget: left out
    with pytest.raises(ValueError, match="score_type"):
        nugget_scores(NUGGETS, score_type="important")
    # 11.5 of 20 nuggets: 0.575, stored just below it, still rounds half up to 58
    halves = ([{"text": "", "importance": "vital", "assignment": "support"}] * 11
              + [{"text": "", "importance": "vital", "assignment": "partial_support"}]
              + [{"text": "", "importance": "vital", "assignment": "not_support"}] * 8)
    assert nugget_qrels(pd.DataFrame({"qid": ["1"], "docno": ["r"], "nuggets": [halves]}))["label"].tolist() == [58]


def test_gzip_is_recognised_by_content_not_suffix(tmp_path):
    compressed = tmp_path / "assignments.data"
    compressed.write_bytes(gzip.compress(NUGGETS.read_bytes()))
    pd.testing.assert_frame_equal(load_nugget_assignments(compressed), load_nugget_assignments(NUGGETS))


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("nuggets-bad-json.jsonl", r"nuggets-bad-json\.jsonl:2: not valid JSON"),
        ("nuggets-bad-assignment.jsonl", r"nuggets-bad-assignment\.jsonl:3: field 'assignment' of nugget 1 must be"),
    ],
)
def test_malformed_nugget_files_name_file_and_line(name, message):
    with pytest.raises(ValueError, match=message):
        load_nugget_assignments(DATA / name)


def test_missing_fields_wrong_types_and_repeated_runs_name_file_and_line(tmp_path):
    good = json.loads(NUGGETS.read_text().splitlines()[0])
    no_answer = {key: value for key, value in good.items() if key != "answer_text"} | {"run_id": "runZ"}
    missing = _write_lines(tmp_path / "missing.jsonl", [good, no_answer])
    with pytest.raises(ValueError, match=r"missing\.jsonl:2: field 'answer_text' is missing"):
        load_nugget_assignments(missing)
    wrong = _write_lines(tmp_path / "wrong.jsonl", [{**good, "nuggets": "none"}])
    with pytest.raises(ValueError, match=r"wrong\.jsonl:1: field 'nuggets' must be a list"):
        load_nugget_assignments(wrong)
    repeated = _write_lines(tmp_path / "repeated.jsonl", [good, good])
    with pytest.raises(ValueError, match=r"repeated\.jsonl:2: run 'runA' of topic 't1' occurs again \(first on line 1"):
        load_nugget_assignments(repeated)
    not_object = _write_lines(tmp_path / "list.jsonl", ["[1, 2]"])
    with pytest.raises(ValueError, match=r"list\.jsonl:1: expected a JSON object"):
        load_nugget_assignments(not_object)
    broken_gzip = tmp_path / "broken.jsonl.gz"
    broken_gzip.write_bytes(gzip.compress(NUGGETS.read_bytes())[:40])
    with pytest.raises(ValueError, match=r"broken\.jsonl\.gz"):
        load_nugget_assignments(broken_gzip)


# ------------------------------------------------------------------------------------------ topics and run files


def test_topics_file_and_its_errors(tmp_path):
    topics = load_topics(_write_lines(tmp_path / "topics.txt", ["t1\twhat is rain", "", "t2\twhat is snow\t"]))
    assert topics.to_dict("list") == {"qid": ["t1", "t2"], "query": ["what is rain", "what is snow"]}
    with pytest.raises(ValueError, match=r"topics-bad\.txt:2: expected 'qid<TAB>query'"):
        load_topics(DATA / "topics-bad.txt")
    with pytest.raises(ValueError, match=r"dup\.txt:2: qid 't1' occurs again"):
        load_topics(_write_lines(tmp_path / "dup.txt", ["t1\ta", "t1\tb"]))


def test_answers_render_citations_before_final_punctuation():
    answer = [
        {"text": "Rain is water.", "citations": [0, 2]},
        {"text": "It forms in clouds", "citations": [1]},
        {"text": "Nobody knows why!", "citations": []},
    ]
    assert render_answer(answer) == "Rain is water [0,2]. It forms in clouds [1] Nobody knows why!"


def test_run_files_become_response_frames_that_corr1_reads():
    runs = load_run_file(DATA / "run.jsonl", topics=pd.DataFrame({"qid": ["t2"], "query": ["what is snow"]}))
    assert runs[["qid", "docno", "query"]].values.tolist() == [
        ["t1", "myrun", "what is rain"], ["t2", "myrun", "what is snow"],
    ]
    expected = "Rain is water falling from clouds [0,2]. It forms in the sky [1] Nobody knows why."
    assert runs["response"].iloc[0] == expected
    assert runs["references"].iloc[0] == ["d1", "d2", "d3"]
    citing = CORR1().values(runs)["CORR1_value"].to_numpy()
    assert citing[0] > 0 and citing[1] == 1.0


def test_run_file_errors_name_file_and_line():
    with pytest.raises(ValueError, match=r"run\.jsonl:2: no field 'topic' \(the query text of topic 't2'\), and no "
                                         r"topics were given"):
        load_run_file(DATA / "run.jsonl")
    with pytest.raises(ValueError, match=r"run-bad-citation\.jsonl:1: citations of answer sentence 1 must be indices"):
        load_run_file(DATA / "run-bad-citation.jsonl")


# ------------------------------------------------------------------------------------------ CrowdRAG-25


def test_repeated_judgments_of_a_pair_are_averaged_in_the_first_orientation(tmp_path):
    ratings = _write_lines(
        tmp_path / "ratings.jsonl",
        [
            _rating("t1", "r1", "r2", 0.6, 0.3, 0.1),
            _rating("t1", "r3", "r1", 0.2, 0.2, 0.6),
            _rating("t1", "r2", "r1", 0.9, 0.1, 0.0),  # the first pair again, swapped
        ],
    )
    judgments = load_crowdrag_judgments(ratings)
    assert judgments[["qid", "docno_a", "docno_b", "judgments"]].values.tolist() == [
        ["t1", "r1", "r2", 2], ["t1", "r3", "r1", 1],
    ]
    first = judgments.iloc[0]
    assert first["coverage_deep_p_a"] == pytest.approx((0.6 + 0.1) / 2)
    assert first["coverage_deep_p_b"] == pytest.approx((0.3 + 0.9) / 2)
    assert first["quality_overall_p_n"] == 0.0
    assert judgments["coverage_deep"].tolist() == [-1.0, 0.0]
    assert "response_a" not in judgments.columns


def test_judgments_with_responses_are_a_preference_frame(tmp_path):
    responses = _write_lines(
        tmp_path / "responses.jsonl",
        [
            _crowd_response("t1", "r1", "First."),
            _crowd_response("t1", "r2", "Second."),
            _crowd_response("t2", "r9", "Other."),
        ],
    )
    ratings = _write_lines(tmp_path / "ratings.jsonl", [_rating("t1", "r2", "r1", 0.1, 0.8, 0.1)])
    judgments = load_crowdrag_judgments(ratings, responses)
    assert list(judgments.columns[: len(PAIR_COLUMNS)]) == PAIR_COLUMNS
    row = judgments.iloc[0]
    assert (row["query"], row["response_a"], row["response_b"]) == ("query t1", "Second.", "First.")
    assert row["context_a"] == row["context_b"] == ["passage zero of t1", "passage one of t1"]
    assert judgments[list(CROWDRAG_DIMENSIONS)].iloc[0].tolist() == [-1.0] * len(CROWDRAG_DIMENSIONS)


def test_malformed_crowd_files_name_file_and_line(tmp_path):
    with pytest.raises(ValueError, match=r"crowd-ratings-bad\.jsonl:3: field 'coverage_deep_p_b' is missing"):
        load_crowdrag_judgments(DATA / "crowd-ratings-bad.jsonl")
    responses = _write_lines(
        tmp_path / "responses.jsonl", [_crowd_response("t1", "r1", "A."), _crowd_response("t1", "r2", "B.")]
    )
    with pytest.raises(ValueError, match=r"crowd-ratings-bad\.jsonl:2: response 'r3' of topic 't1' is not in"):
        load_crowdrag_judgments(DATA / "crowd-ratings-bad.jsonl", responses)
    same = _write_lines(tmp_path / "same.jsonl", [_rating("t1", "r1", "r1", 0.5, 0.5)])
    with pytest.raises(ValueError, match=r"same\.jsonl:1: response_a and response_b are the same"):
        load_crowdrag_judgments(same)
    bad_gold = {**_rating("t1", "r1", "r2", 0.5, 0.5), "coherence_logical_gold": "x"}
    gold = _write_lines(tmp_path / "gold.jsonl", [bad_gold])
    with pytest.raises(ValueError, match=r"gold\.jsonl:1: field 'coherence_logical_gold' must be one of"):
        load_crowdrag_judgments(gold)
    bad_passages = {**_crowd_response("t1", "r1", "A."), "references_texts": [1]}
    passages = _write_lines(tmp_path / "passages.jsonl", [bad_passages])
    with pytest.raises(ValueError, match=r"passages\.jsonl:1: field 'references_texts' must be a list of strings"):
        load_crowdrag_responses(passages)
    ratings = _write_lines(tmp_path / "llm.jsonl", [{"topic": "t1", "query": "q", "response": "r1", "raw_text": "A."}])
    with pytest.raises(ValueError, match=r"llm\.jsonl:1: field 'probability' is missing"):
        load_llm_ratings(ratings)


# ------------------------------------------------------------------------------------------ shared development data


def test_shared_nugget_slice(shared_data):
    frame = load_nugget_assignments(shared_data / "trec-rag-2024" / "nugget_assignment.dev.jsonl")
    assert frame["qid"].nunique() == 6
    assert not frame.duplicated(["qid", "docno"]).any()
    scores = nugget_scores(frame, score_type="weighted")
    assert scores["score"].between(0, 1).all()
    topics = load_topics(shared_data / "trec-rag-2024" / "topics.rag24.test.txt")
    assert len(topics) == 301
    assert set(frame["qid"]) <= set(topics["qid"])


def test_shared_crowd_slice(shared_data):
    folder = shared_data / "crowdrag-25"
    responses = load_crowdrag_responses(folder / "responses.dev.jsonl.gz")
    assert responses["context"].map(len).eq(20).all()
    judgments = load_crowdrag_judgments(folder / "ratings.dev.jsonl.gz", folder / "responses.dev.jsonl.gz")
    with gzip.open(folder / "ratings.dev.jsonl.gz", "rt") as lines:
        raw = [json.loads(line) for line in lines]
    assert judgments["judgments"].sum() == len(raw)
    assert not judgments.duplicated(["qid", "docno_a", "docno_b"]).any()
    # A pair judged once keeps the file's gold label.
    once = judgments[judgments["judgments"] == 1].set_index(["qid", "docno_a", "docno_b"])
    gold = {"a": 1.0, "b": -1.0, "n": 0.0}
    for record in raw:
        key = (record["query_id"], record["response_a"], record["response_b"])
        if key in once.index:
            for dimension in CROWDRAG_DIMENSIONS:
                assert once.loc[key, dimension] == gold[record[f"{dimension}_gold"]]
    for path in sorted((folder / "llm-ratings").glob("*.jsonl")):
        ratings = load_llm_ratings(path)
        assert len(ratings) == len(responses)
        assert ratings["probability"].between(0, 1).all()


# ------------------------------------------------------------------------------------------ PyTerrier dataset


def _ndcg(gains_in_rank_order: list[float], all_gains: list[float]) -> float:
    def dcg(gains):
        return sum(gain / math.log2(rank + 2) for rank, gain in enumerate(gains))

    return dcg(gains_in_rank_order) / dcg(sorted(all_gains, reverse=True))


def test_dataset_provider_feeds_pt_experiment():
    dataset = pt.get_dataset("rag-axioms:trec-rag-2024", nuggets_path=str(NUGGETS))
    assert isinstance(dataset, TrecRag2024Dataset)
    topics, qrels = dataset.get_topics(), dataset.get_qrels()
    assert topics.to_dict("list") == {"qid": ["t1", "t2"], "query": ["what is rain", "what is snow"]}
    results = dataset.get_results()
    assert results[["docno", "rank"]].values.tolist() == [["runA", 0], ["runB", 1], ["runC", 2], ["runA", 0]]
    as_given = pt.Transformer.from_df(results)
    reversed_order = pt.apply.by_query(lambda frame: frame.assign(score=frame["rank"].astype(float)), add_ranks=True)
    outcome = pt.Experiment(
        [as_given, as_given >> reversed_order], topics, qrels, eval_metrics=["ndcg"], names=["file", "reversed"],
        perquery=True,
    )
    ndcg = outcome.set_index(["name", "qid"])["value"]
    # labels: t1 runA 63, runB 38, runC 50; t2 runA 50
    assert ndcg[("file", "t1")] == pytest.approx(_ndcg([63, 38, 50], [63, 38, 50]))
    assert ndcg[("reversed", "t1")] == pytest.approx(_ndcg([50, 38, 63], [63, 38, 50]))
    assert ndcg[("file", "t2")] == pytest.approx(1.0)


def test_dataset_options_variants_and_missing_files(tmp_path, monkeypatch):
    dataset = trec_rag_2024_dataset(NUGGETS, score_type="vital")
    assert dataset.get_qrels()["label"].tolist() == [75, 50, 100]
    assert dataset.get_qrels("all")["label"].tolist() == [63, 38, 50, 50]
    corpus = list(dataset.get_corpus_iter(verbose=False))
    assert corpus[1] == {"qid": "t1", "docno": "runB", "text": "Rain is weather."}
    with pytest.raises(ValueError, match="needs a topics file"):
        dataset.get_topics("all")
    with pytest.raises(KeyError):
        pt.get_dataset("rag-axioms:no-such-dataset")
    folder = tmp_path / "trec-rag-2024"
    folder.mkdir()
    shutil.copy(NUGGETS, folder / "nugget_assignment.small.jsonl")
    _write_lines(folder / "topics.small.txt", ["t1\tWhat is rain?", "t2\tWhat is snow?", "t3\tWhat is hail?"])
    monkeypatch.setenv("RAG_AXIOMS_DATA", str(tmp_path))
    found = pt.get_dataset("rag-axioms:trec-rag-2024")
    assert found.get_topics()["query"].tolist() == ["What is rain?", "What is snow?"]
    assert len(found.get_topics("all")) == 3
