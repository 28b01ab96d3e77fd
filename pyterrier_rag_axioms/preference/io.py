"""Saved preference models: the JSON file of a :class:`~pyterrier_rag_axioms.preference.model.PreferenceModel`
(format tag, axioms with their parameters, scales, weights) and the shipped models."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pyterrier_rag_axioms.preference.features import _saved_parameters, axiom_classes

if TYPE_CHECKING:
    from pyterrier_rag_axioms.preference.model import PreferenceModel

#: The format tag of saved models.
FORMAT = "pyterrier-rag-axioms/preference-model"

#: The shipped models of :meth:`PreferenceModel.default`, by kind.
DEFAULT_MODELS: dict[str, str] = {"crowd": "preference-crowd.json", "nuggets": "preference-nuggets.json"}


def save_model(model: PreferenceModel, path: str | Path, *, metadata: dict[str, Any] | None = None) -> None:
    """Write a fitted model as a small JSON file (see :meth:`PreferenceModel.save`)."""
    document = {
        "format": FORMAT,
        "version": 1,
        "name": model.name,
        "truth": model.truth,
        "value_transform": model.value_transform,
        "regularization": model.regularization,
        "follow_directions": model.follow_directions,
        "min_confidence": model.min_confidence,
        "features": [
            {
                "axiom": axiom.short_name,
                "name": axiom.name,
                "parameters": _saved_parameters(axiom),
                "scale": scale,
                "weight": weight,
            }
            for axiom, scale, weight in zip(model.axioms, model.scales, model._require_fitted())
        ],
        "metadata": metadata or {},
    }
    path = Path(path)
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    temporary.replace(path)


def load_model(cls: type[PreferenceModel], path: str | Path, **overrides: Any) -> PreferenceModel:
    """Read a model saved by :func:`save_model` (see :meth:`PreferenceModel.load`)."""
    path = Path(path)
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}:{error.lineno}: not a JSON file of a PreferenceModel ({error.msg})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValueError(f"{path}: not a saved PreferenceModel (expected 'format': {FORMAT!r})")
    classes = axiom_classes()
    axioms, scales, weights = [], [], []
    for position, feature in enumerate(document.get("features", [])):
        short_name = feature.get("axiom")
        if short_name not in classes:
            raise ValueError(
                f"{path}: feature {position} names the unknown feature axiom {short_name!r}; "
                f"known: {', '.join(sorted(classes))}"
            )
        axioms.append(classes[short_name](name=feature.get("name"), **feature.get("parameters", {})))
        scales.append(feature["scale"])
        weights.append(feature["weight"])
    arguments = {
        "axioms": axioms,
        "coefficients": weights,
        "scales": scales,
        "value_transform": document.get("value_transform", "signed_log1p"),
        "regularization": document.get("regularization", 1.0),
        "follow_directions": document.get("follow_directions", False),
        "min_confidence": document.get("min_confidence", 0.0),
        "truth": document.get("truth"),
        "name": document.get("name"),
    }
    return cls(**{**arguments, **overrides})


def default_model(cls: type[PreferenceModel], kind: str = "crowd", **overrides: Any) -> PreferenceModel:
    """A shipped model (see :meth:`PreferenceModel.default`)."""
    if kind not in DEFAULT_MODELS:
        raise ValueError(f"PreferenceModel.default: kind must be one of {', '.join(DEFAULT_MODELS)}, not {kind!r}")
    shipped = resources.files("pyterrier_rag_axioms.preference") / "models" / DEFAULT_MODELS[kind]
    with resources.as_file(shipped) as path:
        return cls.load(path, **overrides)
