"""Oracle axioms: nugget scores, crowd judgments and LLM ratings as preferences."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pyterrier as pt
import pytest

from pyterrier_rag_axioms.axioms.oracles import (
    CROWD_UTILITY_TYPES,
    TrecRagCrowdAxiom,
    TrecRagLlmOrigAxiom,
    TrecRagNuggetAxiom,
)
from pyterrier_rag_axioms.frames import PAIR_COLUMNS
from pyterrier_rag_axioms.judgments import (
    CROWDRAG_DIMENSIONS,
    NUGGET_SCORE_TYPES,
    load_crowdrag_judgments,
    load_crowdrag_responses,
    load_llm_ratings,
    load_nugget_assignments,
    nugget_scores,
)

NUGGETS = Path(__file__).parents[1] / "data" / "nuggets.jsonl"


def _write_lines(path: Path, records: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


def _pairs(frame: pd.DataFrame, column: str) -> dict[tuple[str, str], float]:
    return {(a, b): value for a, b, value in zip(frame["docno_a"], frame["docno_b"], frame[column])}


# ------------------------------------------------------------------------------------------ nugget oracle


def _rain(docnos: list[str] | None = None) -> pd.DataFrame:
    frame = pd.DataFrame(
        {
            "qid": ["t1", "t1", "t1", "t1"],
            "query": ["what is rain"] * 4,
            "docno": ["runA", "runB", "runC", "unjudged"],
            "response": ["Rain is water falling from clouds.", "Rain is weather.", "Rain is weather.", "Rain."],
        }
    )
    if docnos is not None:
        frame["docno"] = docnos
    return frame


def test_nugget_oracle_prefers_the_higher_nugget_score():
    oracle = TrecRagNuggetAxiom(assignments_path=NUGGETS)
    assert oracle.name == "TREC_RAG_NUGGET"
    frame = _rain()
    before = frame.copy()
    values = oracle.values(frame)["TREC_RAG_NUGGET_value"].to_numpy()
    np.testing.assert_allclose(values, [0.625, 0.375, 0.5, np.nan])
    out = oracle(frame)
    pd.testing.assert_frame_equal(frame, before)
    assert _pairs(out, "TREC_RAG_NUGGET") == {
        ("runA", "runB"): 1.0, ("runA", "runC"): 1.0, ("runA", "unjudged"): 0.0,
        ("runB", "runC"): -1.0, ("runB", "unjudged"): 0.0, ("runC", "unjudged"): 0.0,
    }


def test_nugget_oracle_falls_back_to_text_and_averages_shared_texts():
    oracle = TrecRagNuggetAxiom(assignments_path=NUGGETS)
    by_text = _rain(["x", "y", "z", "w"])
    np.testing.assert_allclose(
        oracle.values(by_text)["TREC_RAG_NUGGET_value"], [0.625, (0.375 + 0.5) / 2, (0.375 + 0.5) / 2, np.nan]
    )
    # Another topic id, but the same query and answer text.
    renamed = _rain(["x", "y", "z", "w"]).assign(qid="rain-topic")
    np.testing.assert_allclose(oracle.values(renamed)["TREC_RAG_NUGGET_value"].iloc[:1], [0.625])
    # Ids win over text: runB's own score, not the mean over the shared text.
    assert oracle.values(_rain())["TREC_RAG_NUGGET_value"].iloc[1] == 0.375


@pytest.mark.parametrize(
    ("score_type", "strict", "name", "expected"),
    [
        ("vital", False, "TREC_RAG_NUGGET_VITAL", [0.75, 0.5, 1.0]),
        ("weighted", True, "TREC_RAG_NUGGET_WEIGHTED_STRICT", [0.5, 1 / 3, 2 / 3]),
        ("all", True, "TREC_RAG_NUGGET_STRICT", [0.5, 0.25, 0.5]),
    ],
)
def test_nugget_score_types_and_names(score_type, strict, name, expected):
    oracle = TrecRagNuggetAxiom(assignments_path=NUGGETS, score_type=score_type, strict=strict)
    assert oracle.name == name
    # repr shows the parameters that differ from their defaults ("all" is the default score type)
    assert (f"score_type={score_type!r}" in repr(oracle)) == (score_type != "all")
    assert ("strict=True" in repr(oracle)) == strict
    np.testing.assert_allclose(oracle.values(_rain().iloc[:3])[f"{name}_value"], expected)


def test_nugget_oracle_margin_antisymmetry_and_given_pairs():
    oracle = TrecRagNuggetAxiom(assignments_path=load_nugget_assignments(NUGGETS), margin_fraction=0.25)
    assert "assignments_path='<frame>'" in repr(oracle)
    pairs = TrecRagNuggetAxiom(assignments_path=NUGGETS)(_rain()).iloc[[1, 3]].drop(columns="TREC_RAG_NUGGET")
    out = oracle(pairs)
    # runA 0.625 vs runC 0.5: difference 0.125 <= 0.25 * 0.625 ties; runB 0.375 vs runC 0.5: 0.125 <= 0.125 ties.
    assert out["TREC_RAG_NUGGET"].tolist() == [0.0, 0.0]
    assert out.index.tolist() == pairs.index.tolist()
    swapped = TrecRagNuggetAxiom(assignments_path=NUGGETS)(
        pairs.rename(columns={"docno_a": "docno_b", "docno_b": "docno_a", "response_a": "response_b",
                              "response_b": "response_a"})
    )
    assert swapped["TREC_RAG_NUGGET"].tolist() == [-1.0, 1.0]


def test_oracles_keep_the_transformer_contract():
    oracle = TrecRagNuggetAxiom(assignments_path=NUGGETS)
    empty = oracle(_rain().iloc[:0])
    assert list(empty.columns) == [*PAIR_COLUMNS, "TREC_RAG_NUGGET"] and len(empty) == 0
    with pytest.raises(pt.validate.InputValidationError):
        oracle(pd.DataFrame({"qid": ["t1"], "docno": ["runA"]}))
    with pytest.raises(ValueError, match="score_type"):
        TrecRagNuggetAxiom(assignments_path=NUGGETS, score_type="most")
    with pytest.raises(ValueError, match="margin_fraction"):
        TrecRagNuggetAxiom(assignments_path=NUGGETS, margin_fraction=-1)
    with pytest.raises(FileNotFoundError):
        TrecRagNuggetAxiom(assignments_path=NUGGETS.with_name("absent.jsonl"))


# ------------------------------------------------------------------------------------------ crowd oracle


def _rating(a: str, b: str, p_a: float, p_b: float, **dimensions: tuple[float, float]) -> dict[str, object]:
    record: dict[str, object] = {"submission_id": "s", "query_id": "t1", "response_a": a, "response_b": b}
    for dimension in CROWDRAG_DIMENSIONS:
        dim_a, dim_b = dimensions.get(dimension, (p_a, p_b))
        record |= {f"{dimension}_p_a": dim_a, f"{dimension}_p_b": dim_b, f"{dimension}_gold": "n"}
        if dimension != "quality_overall":
            record[f"{dimension}_p_n"] = max(0.0, 1 - dim_a - dim_b)
    return record


@pytest.fixture
def crowd_files(tmp_path) -> tuple[Path, Path]:
    responses = _write_lines(
        tmp_path / "responses.jsonl",
        [
            {"topic": "t1", "query": "what is rain", "response": docno, "raw_text": text,
             "references_ids": ["p"], "references_texts": ["Rain is liquid water."]}
            for docno, text in [("r1", "Rain is water."), ("r2", "Rain falls."), ("r3", "Rain."), ("r4", "Wet.")]
        ],
    )
    ratings = _write_lines(
        tmp_path / "ratings.jsonl",
        [
            _rating("r1", "r2", 0.7, 0.3, coherence_logical=(0.9, 0.1), coherence_stylistic=(0.1, 0.5)),
            _rating("r3", "r1", 0.52, 0.48),  # within a margin of 10 %
            _rating("r2", "r3", 0.2, 0.6),
            _rating("r3", "r2", 0.1, 0.3),  # r2-r3 again, swapped: r2 0.25, r3 0.35 on average
        ],
    )
    return ratings, responses


def _rain_responses(docnos: list[str]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "qid": "t1", "query": "what is rain", "docno": docnos,
            "response": ["Rain is water.", "Rain falls.", "Rain.", "Wet."],
        }
    )


def test_crowd_oracle_compares_the_judged_probabilities(crowd_files):
    ratings, responses = crowd_files
    oracle = TrecRagCrowdAxiom(ratings_path=ratings, responses_path=responses)
    assert oracle.name == "TREC_RAG_CROWD_QUALITY_OVERALL"
    out = oracle(_rain_responses(["r1", "r2", "r3", "r4"]))
    assert _pairs(out, oracle.name) == {
        ("r1", "r2"): 1.0, ("r1", "r3"): 0.0, ("r1", "r4"): 0.0,
        ("r2", "r3"): -1.0, ("r2", "r4"): 0.0, ("r3", "r4"): 0.0,
    }
    without_margin = TrecRagCrowdAxiom(ratings_path=ratings, responses_path=responses, margin_fraction=0.0)
    assert _pairs(without_margin(_rain_responses(["r1", "r2", "r3", "r4"])), oracle.name)[("r1", "r3")] == -1.0


def test_crowd_oracle_matches_by_text_and_without_responses_by_ids_only(crowd_files):
    ratings, responses = crowd_files
    by_text = TrecRagCrowdAxiom(ratings_path=ratings, responses_path=responses)(_rain_responses(["a", "b", "c", "d"]))
    assert _pairs(by_text, "TREC_RAG_CROWD_QUALITY_OVERALL")[("a", "b")] == 1.0
    ids_only = TrecRagCrowdAxiom(ratings_path=load_crowdrag_judgments(ratings))
    assert ids_only(_rain_responses(["a", "b", "c", "d"]))["TREC_RAG_CROWD_QUALITY_OVERALL"].eq(0.0).all()
    assert _pairs(ids_only(_rain_responses(["r1", "r2", "r3", "r4"])), ids_only.name)[("r2", "r3")] == -1.0


def test_crowd_utility_types_average_their_dimensions(crowd_files):
    ratings, responses = crowd_files
    frame = _rain_responses(["r1", "r2", "r3", "r4"]).iloc[:2]
    logical = TrecRagCrowdAxiom(ratings_path=ratings, responses_path=responses, utility_type="logical coherence")
    stylistic = TrecRagCrowdAxiom(ratings_path=ratings, responses_path=responses, utility_type="coherence_stylistic")
    coherence = TrecRagCrowdAxiom(ratings_path=ratings, responses_path=responses, utility_type="coherence")
    assert logical.name == "TREC_RAG_CROWD_LOGICAL_COHERENCE"
    assert logical(frame)[logical.name].tolist() == [1.0]
    assert stylistic(frame)[stylistic.name].tolist() == [-1.0]
    # (0.9 + 0.1) / 2 = 0.5 against (0.1 + 0.5) / 2 = 0.3
    assert coherence(frame)[coherence.name].tolist() == [1.0]
    assert set(CROWDRAG_DIMENSIONS) <= set(CROWD_UTILITY_TYPES)
    with pytest.raises(ValueError, match="utility_type"):
        TrecRagCrowdAxiom(ratings_path=ratings, utility_type="helpfulness")
    with pytest.raises(pt.validate.InputValidationError):
        TrecRagCrowdAxiom(ratings_path=pd.DataFrame({"qid": ["t1"]}))


def test_the_oracles_choices_are_declared_and_checked_before_any_work():
    from pyterrier_rag_axioms.declaration import choices_of

    assert choices_of(TrecRagCrowdAxiom, "utility_type") == tuple(CROWD_UTILITY_TYPES)
    assert choices_of(TrecRagNuggetAxiom, "score_type") == NUGGET_SCORE_TYPES
    for score_type in ("most", 3):  # checked before the default name reads it, and before the file is read
        with pytest.raises(ValueError, match=r"TREC_RAG_NUGGET: score_type must be one of 'all', 'vital'"):
            TrecRagNuggetAxiom(assignments_path="no such file", score_type=score_type)


# ------------------------------------------------------------------------------------------ LLM oracle


def test_llm_oracle_prefers_the_more_likely_response(tmp_path):
    path = _write_lines(
        tmp_path / "ratings.jsonl",
        [
            {"topic": "t1", "query": "what is rain", "response": docno, "raw_text": text, "probability": probability}
            for docno, text, probability in (("r1", "Rain is water.", 0.2), ("r2", "Rain falls.", 0.4),
                                             ("r3", "Rain.", 0.4))
        ],
    )
    oracle = TrecRagLlmOrigAxiom(ratings_path=path)
    assert repr(oracle) == f"TREC_RAG_LLM_ORIG(margin_fraction=0.0, ratings_path={str(path)!r})"
    out = oracle(_rain_responses(["x", "y", "z", "w"]))
    assert _pairs(out, "TREC_RAG_LLM_ORIG") == {
        ("x", "y"): -1.0, ("x", "z"): -1.0, ("x", "w"): 0.0, ("y", "z"): 0.0, ("y", "w"): 0.0, ("z", "w"): 0.0,
    }
    loose = TrecRagLlmOrigAxiom(ratings_path=path, margin_fraction=0.6, name="LLM")
    assert loose(_rain_responses(["x", "y", "z", "w"]))["LLM"].eq(0.0).all()


# ------------------------------------------------------------------------------------------ shared development data


def test_oracles_on_the_shared_crowd_slice(shared_data):
    folder = shared_data / "crowdrag-25"
    ratings, responses = folder / "ratings.dev.jsonl.gz", folder / "responses.dev.jsonl.gz"
    judgments = load_crowdrag_judgments(ratings, responses)
    oracle = TrecRagCrowdAxiom(ratings_path=ratings, responses_path=responses, margin_fraction=0.0)
    out = oracle(judgments)
    # Overall quality has no "neither" option, so its truth is the sign of p_a - p_b.
    np.testing.assert_array_equal(out[oracle.name].to_numpy(), judgments["quality_overall"].to_numpy())
    # Text-only responses (no ids) find the same judged pairs.
    texts = load_crowdrag_responses(responses).drop(columns=["docno", "references"])
    assert (oracle(texts)[oracle.name] != 0).sum() == (out[oracle.name] != 0).sum()
    llm_path = next(iter(sorted((folder / "llm-ratings").glob("*.jsonl"))))
    llm = TrecRagLlmOrigAxiom(ratings_path=llm_path)
    ratings_by_text = load_llm_ratings(llm_path).set_index("response")["probability"]
    expected = ratings_by_text.loc[texts["response"]].to_numpy()
    np.testing.assert_allclose(llm.values(texts)["TREC_RAG_LLM_ORIG_value"].to_numpy(), expected)


def test_nugget_oracle_on_the_shared_slice(shared_data):
    path = shared_data / "trec-rag-2024" / "nugget_assignment.dev.jsonl"
    assignments = load_nugget_assignments(path)
    oracle = TrecRagNuggetAxiom(assignments_path=path, score_type="weighted")
    values = oracle.values(assignments)["TREC_RAG_NUGGET_WEIGHTED_value"].to_numpy()
    np.testing.assert_allclose(values, nugget_scores(assignments, score_type="weighted")["score"].to_numpy())
    one_topic = assignments[assignments["qid"] == assignments["qid"].iloc[0]]
    out = oracle(one_topic)
    assert len(out) == len(one_topic) * (len(one_topic) - 1) // 2
    assert set(out[oracle.name].unique()) <= {-1.0, 0.0, 1.0}
