"""Saved preference models: the JSON file of a :class:`~pyterrier_rag_axioms.preference.model.PreferenceModel`
(format tag, axioms with their parameters, scales, weights) and the shipped models."""

from __future__ import annotations

import json
import math
import warnings
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pyterrier_rag_axioms.declaration import TOOL, declared, declares, saved_arguments
from pyterrier_rag_axioms.io import strict_json
from pyterrier_rag_axioms.io.atomic import atomic_write_text
from pyterrier_rag_axioms.preference._view import ModelView
from pyterrier_rag_axioms.preference.features import axiom_classes
from pyterrier_rag_axioms.tools.embeddings.naming import RENAMED

#: The format tag of saved models.
FORMAT = "pyterrier-rag-axioms/preference-model"

#: The shipped models of :meth:`PreferenceModel.default`, by kind.
DEFAULT_MODELS: dict[str, str] = {"crowd": "preference-crowd.json", "nuggets": "preference-nuggets.json"}


#: The model's parameters kept per feature in a file (the others are kept by name at the top).
PER_FEATURE = ("axioms", "coefficients", "scales")


def support_version(model: ModelView) -> str:
    """The version of the support model behind a model's grounding term (CONS4's), which a file saves
    beside ``grounding_weight``: the weight was chosen on that model's probabilities."""
    return model.grounding_axiom().support_model.version


def _check_support_version(model: ModelView, saved: object, path: Path) -> None:
    """Warn where a file's grounding weight was chosen with another support model than this package's."""
    if model.grounding_weight == 0 or saved is None:
        return
    current = support_version(model)
    if saved != current:
        warnings.warn(
            f"{path}: its grounding_weight was chosen with the support model {saved!r}, and this package's is "
            f"{current!r}: the weight may no longer fit its probabilities (choose it again, as "
            "benchmarks/grounding_weight.py does)",
            stacklevel=3,
        )


def save_model(model: ModelView, path: str | Path, *, metadata: dict[str, Any] | None = None) -> None:
    """Write a fitted model as a small JSON file (see :meth:`PreferenceModel.save`).

    Every declared parameter is written (:mod:`~pyterrier_rag_axioms.declaration`), each feature
    axiom's with the arguments that differ from their defaults, tools by name or path.

    Raises:
        ValueError: a feature axiom has an argument that cannot be written (a tool built in
            memory, a frame), named in the message.
    """
    try:
        features = [
            {
                "axiom": axiom.short_name,
                "name": axiom.name,
                "parameters": saved_arguments(axiom, leave_out=("name",)),
                "scale": scale,
                "weight": weight,
            }
            for axiom, scale, weight in zip(model.axioms, model.scales, model.fitted_coefficients())
        ]
    except ValueError as error:
        raise ValueError(f"{path}: cannot save {model.name}: {error}") from None
    top = {
        field.name: getattr(model, field.name)
        for field in declared(model)
        if not field.metadata.get("hidden") and field.name not in PER_FEATURE
    }
    document = {
        "format": FORMAT,
        "version": 1,
        **top,
        **({"support_model": support_version(model)} if model.grounding_weight > 0 else {}),
        "features": features,
        "metadata": metadata or {},
    }
    atomic_write_text(Path(path), json.dumps(document, indent=2) + "\n")


#: Host names of this machine: a saved model may name a server there.
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def _remote(url: object) -> bool:
    """Whether a tool's argument is the URL of a server on another machine than this one (a model
    name or path is no server)."""
    if not isinstance(url, str) or "://" not in url:
        return False
    try:
        host = urlsplit(str(url)).hostname
    except ValueError:
        return True
    return host not in LOCAL_HOSTS and not (host or "").startswith("127.")


def _read_document(path: Path) -> dict[str, Any]:
    """The JSON object of a saved model file, read strictly (see :mod:`pyterrier_rag_axioms.io.strict_json`)."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}: not a PreferenceModel file: not UTF-8 text (byte {error.start + 1})") from None
    except OSError as error:
        raise ValueError(f"{path}: cannot read the PreferenceModel file: {error.strerror or error}") from None
    try:
        document = strict_json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}:{error.lineno}: not a JSON file of a PreferenceModel ({error.msg})") from None
    except ValueError as error:
        raise ValueError(f"{path}: not a JSON file of a PreferenceModel: {error}") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValueError(f"{path}: not a saved PreferenceModel (expected 'format': {FORMAT!r})")
    return document


def _number(value: object, what: str, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{where}: {what} must be a finite number, not {value!r}")
    return float(value)


def _feature(feature: object, position: int, path: Path, allow_remote: bool) -> tuple[Any, float, float]:
    """The axiom, scale and weight of one saved feature, checked."""
    where = f"{path}: feature {position}"
    if not isinstance(feature, dict):
        raise ValueError(f"{where} must be an object with 'axiom', 'scale' and 'weight', not {feature!r}")
    classes = axiom_classes()
    short_name = feature.get("axiom")
    if short_name not in classes:
        raise ValueError(
            f"{where} names the unknown feature axiom {short_name!r}; known: {', '.join(sorted(classes))}"
        )
    parameters = feature.get("parameters", {})
    if not isinstance(parameters, dict):
        raise ValueError(f"{where}: 'parameters' must be an object of argument names and values, not {parameters!r}")
    if declares(classes[short_name], "encoder"):  # files of earlier versions: the encoder by its old names
        for old in RENAMED:
            if old in parameters and "encoder" not in parameters:
                parameters = {"encoder" if key == old else key: value for key, value in parameters.items()}
    tools = [field.name for field in declared(classes[short_name]) if field.metadata.get("role") == TOOL]
    for name in tools:  # the servers an axiom sends texts to (LanguageTool, TARGER) are tools
        server = parameters.get(name)
        if _remote(server) and not allow_remote:
            raise ValueError(
                f"{where} ({short_name}) sends texts to the server {server!r}, which is not on this machine; "
                "load a model that names another server only if you trust its file: allow_remote=True"
            )
    name = feature.get("name")
    if name is not None and not isinstance(name, str):
        raise ValueError(f"{where}: 'name' must be a string, not {name!r}")
    for key in ("scale", "weight"):
        if key not in feature:
            raise ValueError(f"{where} has no {key!r}")
    try:
        axiom = classes[short_name](name=name, **parameters)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{where} ({short_name}): {error}") from None
    return axiom, _number(feature["scale"], "'scale'", where), _number(feature["weight"], "'weight'", where)


def load_model(cls: type[ModelView], path: str | Path, *, allow_remote: bool = False, **overrides: Any):
    """Read a model saved by :func:`save_model` (see :meth:`PreferenceModel.load`)."""
    path = Path(path)
    document = _read_document(path)
    features = document.get("features", [])
    if not isinstance(features, list):
        raise ValueError(f"{path}: 'features' must be a list of features, not {features!r}")
    axioms, scales, weights = [], [], []
    for position, feature in enumerate(features):
        axiom, scale, weight = _feature(feature, position, path, allow_remote)
        axioms.append(axiom)
        scales.append(scale)
        weights.append(weight)
    name = document.get("name")
    if name is not None and not isinstance(name, str):
        raise ValueError(f"{path}: 'name' must be a string, not {name!r}")
    arguments = {
        field.name: document[field.name]
        for field in declared(cls)
        if not field.metadata.get("hidden") and field.name not in PER_FEATURE and field.name in document
    }
    arguments.update(axioms=axioms, coefficients=weights, scales=scales)
    try:
        model = cls(**{**arguments, **overrides})
    except (TypeError, ValueError) as error:
        raise ValueError(f"{path}: not a usable PreferenceModel: {error}") from None
    _check_support_version(model, document.get("support_model"), path)
    return model


def default_model(cls: type[ModelView], kind: str = "crowd", **overrides: Any) -> ModelView:
    """A shipped model (see :meth:`PreferenceModel.default`)."""
    if kind not in DEFAULT_MODELS:
        raise ValueError(f"PreferenceModel.default: kind must be one of {', '.join(DEFAULT_MODELS)}, not {kind!r}")
    shipped = resources.files("pyterrier_rag_axioms.preference") / "models" / DEFAULT_MODELS[kind]
    with resources.as_file(shipped) as path:
        return cls.load(path, **overrides)
