"""Automatic nugget assignment: numbers and entities, polarity, TREC scores, determinism, inputs (real models)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from pyterrier_rag_axioms.judgments import nugget_score, nugget_scores
from pyterrier_rag_axioms.nuggets import ASSIGNMENT_COLUMNS, NuggetAssigner, NuggetModel, load_nuggets

NUGGETS = pd.DataFrame(
    {
        "qid": ["moon", "moon", "moon", "tests", "tests"],
        "nugget": [
            "Apollo 11 landed on the Moon in 1969",
            "Neil Armstrong was the first person to walk on the Moon",
            "The mission carried three astronauts",
            "Animal testing is required by law for new drugs",
            "Cosmetics can be tested on cell cultures instead of animals",
        ],
        "importance": ["vital", "vital", "okay", "vital", "okay"],
    }
)
MOON = "When did people first land on the Moon?"
TESTS = "Is animal testing required?"
RESPONSES = pd.DataFrame(
    {
        "qid": ["moon"] * 4 + ["tests"] * 3,
        "query": [MOON] * 4 + [TESTS] * 3,
        "docno": ["right", "wrong", "spelled", "offtopic", "positive", "negated", "cosmetics"],
        "response": [
            "Apollo 11 landed on the Moon in 1969. Neil Armstrong was the first person to walk on the Moon. "
            "The mission carried three astronauts.",
            "Apollo 11 landed on the Moon in 1968. Buzz Aldrin was the first person to walk on the Moon. "
            "The mission carried two astronauts.",
            "The Apollo 11 mission carried 3 astronauts, and it landed on the Moon in nineteen sixty-nine.",
            "The weather in Lisbon is mild in spring.",
            "Animal testing is required by law for new drugs.",
            "Animal testing is not required by law for new drugs.",
            "Many cosmetics companies test their products on cell cultures instead of animals.",
        ],
    }
)


def assignment(frame: pd.DataFrame, docno: str, nugget_id: str) -> str:
    row = frame[(frame["docno"] == docno) & (frame["nugget_id"] == nugget_id)]
    assert len(row) == 1
    return row["assignment"].iloc[0]


@pytest.fixture(scope="module")
def assigned() -> pd.DataFrame:
    return NuggetAssigner(nuggets=NUGGETS)(RESPONSES)


def test_output_has_one_row_per_response_and_nugget(assigned):
    assert list(assigned.columns) == ASSIGNMENT_COLUMNS
    assert len(assigned) == 4 * 3 + 3 * 2
    assert list(assigned["docno"].drop_duplicates()) == list(RESPONSES["docno"])
    assert set(assigned["assignment"]) <= {"support", "partial_support", "not_support"}
    assert assigned["confidence"].between(0, 1).all()
    right = assigned[assigned["docno"] == "right"]
    assert (right["assignment"] == "support").all()
    assert right["spans"].iloc[0][0] == "Apollo 11 landed on the Moon in 1969."


def test_numbers_must_match_after_normalising(assigned):
    assert assignment(assigned, "wrong", "0") == "not_support"  # 1968 does not support 1969
    assert assignment(assigned, "wrong", "2") == "not_support"  # two astronauts are not three
    assert assignment(assigned, "spelled", "0") == "support"  # nineteen sixty-nine is 1969
    assert assignment(assigned, "spelled", "2") == "support"  # 3 is three


def test_named_entities_must_match(assigned):
    assert assignment(assigned, "right", "1") == "support"
    assert assignment(assigned, "wrong", "1") == "not_support"  # Buzz Aldrin is not Neil Armstrong


def test_a_negated_statement_does_not_support(assigned):
    assert assignment(assigned, "positive", "0") == "support"
    assert assignment(assigned, "negated", "0") == "not_support"


def test_off_topic_answer_supports_nothing(assigned):
    assert (assigned.loc[assigned["docno"] == "offtopic", "assignment"] == "not_support").all()


def test_same_result_whatever_row_order_and_batch_size(assigned):
    assigner = NuggetAssigner(nuggets=NUGGETS.sample(frac=1.0, random_state=3).sort_values("qid", kind="stable"))
    shuffled = RESPONSES.sample(frac=1.0, random_state=7).reset_index(drop=True)
    batches = [assigner(shuffled.iloc[start : start + 2]) for start in range(0, len(shuffled), 2)]
    singles = [assigner(shuffled.iloc[[position]]) for position in range(len(shuffled))]
    keys = ["qid", "docno", "nugget"]
    expected = assigned.drop(columns=["nugget_id"]).sort_values(keys).reset_index(drop=True)
    for parts in (batches, singles):
        got = pd.concat(parts).drop(columns=["nugget_id"]).sort_values(keys).reset_index(drop=True)
        pd.testing.assert_frame_equal(got, expected)


def test_scores_follow_trec_definitions():
    # a hand-made case: three vital nuggets, two okay ones
    rows = pd.DataFrame(
        {
            "qid": ["q"] * 5,
            "docno": ["run"] * 5,
            "nugget_id": list("01234"),
            "importance": ["vital", "vital", "vital", "okay", "okay"],
            "assignment": ["support", "partial_support", "not_support", "support", "partial_support"],
        }
    )
    def score(score_type, strict=False):
        return float(nugget_scores(rows, score_type=score_type, strict=strict)["score"].iloc[0])
    assert score("all") == pytest.approx((1 + 0.5 + 0 + 1 + 0.5) / 5)
    assert score("all", strict=True) == pytest.approx(2 / 5)
    assert score("vital") == pytest.approx(1.5 / 3)
    assert score("vital", strict=True) == pytest.approx(1 / 3)
    assert score("weighted") == pytest.approx((1 + 0.5 + 0 + 0.5 * 1 + 0.5 * 0.5) / (3 + 0.5 * 2))
    assert score("weighted", strict=True) == pytest.approx((1 + 0.5) / 4)
    nested = [{"importance": i, "assignment": a} for i, a in zip(rows["importance"], rows["assignment"])]
    assert score("weighted") == pytest.approx(nugget_score(nested, score_type="weighted"))


def test_automatic_assignments_score_like_human_ones(assigned):
    scores = nugget_scores(assigned).set_index("docno")["score"]
    assert scores["right"] == pytest.approx(1.0)
    assert scores["offtopic"] == pytest.approx(0.0)
    assert scores["spelled"] == pytest.approx(2 / 3)


def test_missing_qid_is_an_error_naming_it():
    with pytest.raises(ValueError, match=r"no nuggets for qid 'tests'"):
        NuggetAssigner(nuggets=NUGGETS[NUGGETS["qid"] == "moon"])(RESPONSES)


def test_empty_input_gives_empty_frame():
    out = NuggetAssigner(nuggets=NUGGETS)(RESPONSES.iloc[:0])
    assert list(out.columns) == ASSIGNMENT_COLUMNS and len(out) == 0


def test_nugget_files(tmp_path):
    topic = tmp_path / "nuggets.jsonl"
    topic.write_text(
        json.dumps({"qid": "1", "query": "q", "nuggets": [{"text": "A", "importance": "vital"},
                                                            {"text": "B", "importance": "okay"}]}) + "\n",
        encoding="utf-8",
    )
    frame = load_nuggets(topic)
    assert frame.to_dict("list") == {"qid": ["1", "1"], "nugget_id": ["0", "1"], "nugget": ["A", "B"],
                                     "importance": ["vital", "okay"]}
    flat = tmp_path / "flat.jsonl"
    flat.write_text(
        json.dumps({"qid": 2, "nugget": "C", "importance": "okay", "nugget_id": "n7"}) + "\n"
        + json.dumps({"qid": 2, "nugget": "D", "importance": "important"}) + "\n",
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match=r"flat.jsonl:2: importance must be 'vital' or 'okay'"):
        load_nuggets(flat)
    with pytest.raises(ValueError, match=r"column 'importance' is missing"):
        load_nuggets(pd.DataFrame({"qid": ["1"], "nugget": ["A"]}))


def test_reads_the_development_assignment_file(shared_data):
    path = shared_data / "trec-rag-2024" / "nugget_assignment.dev.jsonl"
    frame = load_nuggets(path)
    first = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    mine = frame[frame["qid"] == first["qid"]]
    assert list(mine["nugget"]) == [nugget["text"] for nugget in first["nuggets"]]
    assert list(mine["nugget_id"]) == [str(position) for position in range(len(first["nuggets"]))]


def test_shipped_model_round_trips(tmp_path):
    model = NuggetModel.default()
    model.save(tmp_path / "model.json")
    again = NuggetModel.load(tmp_path / "model.json")
    assert again == model
    probability = model.probability(np.array([[1.0, 0.9, 0.9, 0.4, 2.0], [0.0, 0.3, 0.1, -0.2, 2.0]]))
    assert list(model.assign(probability)) == ["support", "not_support"]


def test_the_features_are_one_table_in_the_shipped_models_order(assigned):
    from pyterrier_rag_axioms.nuggets._features import FEATURE_FUNCTIONS, FEATURES

    assert FEATURES == tuple(name for name, _ in FEATURE_FUNCTIONS) == NuggetModel.default().features
    features = NuggetAssigner(nuggets=NUGGETS).features(RESPONSES)
    assert list(features.columns[-len(FEATURES):]) == list(FEATURES)


def test_model_and_assigner_are_declared_once(tmp_path):
    from pyterrier_rag_axioms.declaration import declared, replaced

    model = NuggetModel.default()
    assert eval(repr(model)) == model and hash(eval(repr(model))) == hash(model)
    model.save(tmp_path / "model.json")
    saved = json.loads((tmp_path / "model.json").read_text())
    assert list(saved) == [field.name for field in declared(NuggetModel)]
    stricter = replaced(model, support_threshold=0.9)
    assert stricter.support_threshold == 0.9 and stricter.weights == model.weights and stricter != model
    with pytest.raises(TypeError):
        NuggetModel(*[saved[name] for name in saved])  # keyword-only, as every declared object
    path = tmp_path / "nuggets.jsonl"
    nugget = {"text": "1969", "importance": "vital"}
    path.write_text(json.dumps({"qid": "moon", "query": MOON, "nuggets": [nugget]}) + "\n")
    assigner = NuggetAssigner(nuggets=str(path), model=model, text_analyzer="en_core_web_sm")
    again = eval(repr(assigner))
    assert repr(again) == repr(assigner) and again.decision == assigner.decision
    assert repr(NuggetAssigner(nuggets=NUGGETS)) == "NuggetAssigner(nuggets='<frame>')"
    copy = replaced(assigner, verbose=True)
    assert copy.verbose and copy.encoder is assigner.encoder and copy.decision == model


def test_nugget_coverage_axiom_prefers_the_response_with_more_nuggets(assigned):
    from pyterrier_rag_axioms import COV1, KwikSort, PreferenceModel
    from pyterrier_rag_axioms.axioms.coverage import COV8, NuggetCoverageAxiom

    axiom = NuggetCoverageAxiom(nuggets=NUGGETS)
    assert axiom.name == "COV8" and COV8 is NuggetCoverageAxiom
    assert repr(axiom) == "COV8(margin_fraction=0.0, nuggets='<frame>')"
    moon = RESPONSES[RESPONSES["qid"] == "moon"]
    values = axiom.values(moon).set_index("docno")["COV8_value"]
    expected = nugget_scores(assigned).set_index("docno")["score"]
    assert values.to_dict() == pytest.approx(expected[values.index].to_dict())
    pairs = (COV1() >> axiom)(moon)
    right_vs_offtopic = pairs[(pairs["docno_a"] == "right") & (pairs["docno_b"] == "offtopic")]
    assert list(right_vs_offtopic["COV8"]) == [1.0]
    ranking = KwikSort(axiom)(moon)
    assert ranking.sort_values("rank")["docno"].iloc[0] == "right"
    model = PreferenceModel(axioms=[axiom, COV1()], coefficients=[1.0, 0.0], scales=[1.0, 1.0])
    assert list(model(moon.iloc[[3, 0]])[model.name]) == [-1.0]
    vital = NuggetCoverageAxiom(nuggets=NUGGETS, score_type="vital", strict=True)
    assert vital.name == "COV8_VITAL_STRICT"
    with pytest.raises(ValueError, match="score_type must be one of"):
        NuggetCoverageAxiom(nuggets=NUGGETS, score_type="most")


def write_run(path, run_id: str, answers: dict[str, str]) -> None:
    lines = [
        json.dumps({"run_id": run_id, "topic_id": qid, "topic": MOON if qid == "moon" else TESTS,
                    "references": ["d0"], "answer": [{"text": text, "citations": [0]}]})
        for qid, text in answers.items()
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_assign_command_scores_runs(tmp_path, capsys):
    from pyterrier_rag_axioms.cli import main

    nuggets = tmp_path / "nuggets.jsonl"
    topics = [
        {"qid": qid, "nuggets": [{"text": text, "importance": importance}
                                 for text, importance in zip(group["nugget"], group["importance"])]}
        for qid, group in NUGGETS.groupby("qid", sort=False)
    ]
    nuggets.write_text("\n".join(map(json.dumps, topics)) + "\n", encoding="utf-8")
    response = RESPONSES.set_index("docno")["response"]
    write_run(tmp_path / "good.jsonl", "good", {"moon": response["right"], "tests": response["positive"]})
    write_run(tmp_path / "bad.jsonl", "bad", {"moon": response["offtopic"], "tests": response["negated"]})
    output = tmp_path / "runs.tsv"
    status = main(["assign", str(tmp_path / "bad.jsonl"), str(tmp_path / "good.jsonl"), "--nuggets", str(nuggets),
                   "--output", str(output), "--assignments", str(tmp_path / "assigned.jsonl")])
    assert status == 0
    table = pd.read_csv(output, sep="\t")
    assert list(table.columns) == ["run", "topics", "all", "vital", "weighted", "all_strict", "vital_strict",
                                   "weighted_strict", "rank"]
    assert list(table["run"]) == ["good", "bad"] and list(table["rank"]) == [1, 2]
    assert table.loc[0, "vital"] == pytest.approx(1.0) and table.loc[1, "all"] == pytest.approx(0.0)
    assert "good" in capsys.readouterr().out

    missing = tmp_path / "moon-only.jsonl"
    missing.write_text(nuggets.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    status = main(["assign", str(tmp_path / "good.jsonl"), "--nuggets", str(missing)])
    err = capsys.readouterr().err
    assert status == 0 and "1 of the 2 topics" in err and "qid 'tests'" in err and "moon-only.jsonl" in err


def test_cross_validate_decides_each_topic_by_a_model_of_the_others(assigned):
    human = pd.DataFrame(
        [(qid, docno, [{"importance": i, "assignment": a} for i, a in zip(group["importance"], group["assignment"])])
         for (qid, docno), group in assigned.groupby(["qid", "docno"], sort=False)],
        columns=["qid", "docno", "nuggets"],
    )
    crossed = NuggetAssigner(nuggets=NUGGETS).cross_validate(RESPONSES, human)
    assert list(crossed.columns) == ASSIGNMENT_COLUMNS
    pd.testing.assert_frame_equal(crossed[["qid", "docno", "nugget_id"]], assigned[["qid", "docno", "nugget_id"]])
    assert set(crossed["assignment"]) <= {"support", "partial_support", "not_support"}
    with pytest.raises(ValueError, match="no human assignment for qid 'tests'"):
        NuggetAssigner(nuggets=NUGGETS).cross_validate(RESPONSES, human[human["qid"] == "moon"])


def test_nuggets_from_an_assignment_frame(shared_data):
    from pyterrier_rag_axioms.judgments import load_nugget_assignments

    path = shared_data / "trec-rag-2024" / "nugget_assignment.dev.jsonl"
    pd.testing.assert_frame_equal(load_nuggets(load_nugget_assignments(path)), load_nuggets(path))
