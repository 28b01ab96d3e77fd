"""Nugget files, frames and models refuse what they cannot hold, in one line naming the file and line
(or row); models are saved atomically and never hold a non-finite number."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest
from conftest import write_records

from pyterrier_rag_axioms.nuggets import NuggetModel, fit_nugget_model, load_nuggets
from pyterrier_rag_axioms.nuggets._features import FEATURES


def test_a_repeated_nugget_id_names_its_file_and_line(tmp_path):
    flat = write_records(
        tmp_path / "flat.jsonl",
        [
            {"qid": "1", "nugget_id": "a", "nugget": "One", "importance": "vital"},
            {"qid": "1", "nugget_id": "b", "nugget": "Two", "importance": "okay"},
            {"qid": "1", "nugget_id": "a", "nugget": "Three", "importance": "okay"},
        ],
    )
    with pytest.raises(ValueError, match=rf"^{flat}:3: nugget_id 'a' occurs twice for qid '1' \(first at {flat}:1\)"):
        load_nuggets(flat)
    topics = write_records(
        tmp_path / "topics.jsonl",
        [
            {"qid": "1", "nuggets": [{"text": "One", "importance": "vital"}]},
            {
                "qid": "2",
                "nuggets": [
                    {"text": "One", "importance": "vital", "nugget_id": "x"},
                    {"text": "Two", "importance": "vital", "nugget_id": "x"},
                ],
            },
        ],
    )
    with pytest.raises(ValueError, match=rf"^{topics}:2: nugget 1: nugget_id 'x' occurs twice"):
        load_nuggets(topics)


def test_float_qids_in_a_nugget_frame_are_refused_not_turned_into_text():
    frame = pd.DataFrame({"qid": [1.0, 2.0], "nugget": ["One", "Two"], "importance": ["vital", "okay"]})
    with pytest.raises(ValueError, match=r"nugget frame, row 0: qid must be .* not float 1.0; .*dtype=\{'qid': str\}"):
        load_nuggets(frame)
    whole = load_nuggets(frame.astype({"qid": int}))
    assert list(whole["qid"]) == ["1", "2"]
    with pytest.raises(ValueError, match=r"row 1: qid must be .* not missing"):
        load_nuggets(pd.DataFrame({"qid": ["1", None], "nugget": ["One", "Two"], "importance": ["vital", "okay"]}))


def test_save_replaces_a_planted_link_and_never_writes_through_it(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n", encoding="utf-8")
    target = tmp_path / "model.json"
    target.symlink_to(victim)
    model = NuggetModel.default()
    model.save(target)
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert not target.is_symlink() and NuggetModel.load(target) == model
    assert not [path.name for path in tmp_path.iterdir() if ".partial" in path.name]


@pytest.mark.parametrize("field", ["intercept", "means", "partial_threshold"])
def test_a_model_never_holds_a_non_finite_number(field, tmp_path):
    model = NuggetModel.default()
    value = (float("nan"),) * len(model.features) if field == "means" else float("nan")
    with pytest.raises(ValueError, match=r"NuggetModel: .* must be a finite number"):
        dataclasses.replace(model, **{field: value})
    with pytest.raises(ValueError, match=r"scales\[1\] must be > 0"):
        dataclasses.replace(model, scales=(1.0, 0.0, 1.0, 1.0, 1.0))
    saved = tmp_path / "model.json"
    model.save(saved)
    assert "NaN" not in saved.read_text() and json.loads(saved.read_text())["features"] == list(model.features)


def test_fit_refuses_unknown_labels_and_lengths_that_differ():
    rng = np.random.default_rng(0)
    features = pd.DataFrame(rng.random((8, len(FEATURES))), columns=list(FEATURES))
    labels = ["support", "not_support"] * 4
    topics = ["a"] * 4 + ["b"] * 4
    with pytest.raises(ValueError, match=r"fit_nugget_model: label 'yes' \(position 2\) is none of 'support'"):
        fit_nugget_model(features, [*labels[:2], "yes", *labels[3:]], topics)
    with pytest.raises(ValueError, match=r"8 rows of features, 7 labels and 8 topics"):
        fit_nugget_model(features, labels[:7], topics)
    with pytest.raises(ValueError, match=r"8 rows of features, 8 labels and 9 topics"):
        fit_nugget_model(features, labels, [*topics, "c"])
    model = fit_nugget_model(features, labels, topics, encoder="my-model")
    assert model.encoder == "my-model" and len(model.weights) == len(FEATURES)
