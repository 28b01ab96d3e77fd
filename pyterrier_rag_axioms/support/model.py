"""The support model: the probability that evidence text(s) support a statement.

A logistic regression over the features of :mod:`~pyterrier_rag_axioms.support.features`, fitted
by ``benchmarks/fit_support_model.py`` on the development data (RAGTruth QA claims against their
passages, TREC 2024 RAG nuggets against answers) and shipped as ``support-model.json``, with the
document frequencies of its IDF weights (``support-idf.json``, lemmas of the development
passages). Both files carry the model's version. The aligned recall reads term vectors from the
package's static encoder (:func:`term_vectors`), a table look-up; no transformer runs.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path

import numpy as np
import pyterrier as pt

from pyterrier_rag_axioms.declaration import TOOL, declared_repr, parameter, parameters
from pyterrier_rag_axioms.support.features import (
    FEATURES,
    aligned_recall,
    evidence_text,
    pair_features,
    statement_of,
)
from pyterrier_rag_axioms.tools.embeddings.similarity import SentenceSimilarity, batch_independent_similarity
from pyterrier_rag_axioms.tools.terms import term_extractor
from pyterrier_rag_axioms.tools.text import TextAnalyzer, resolve_text_analyzer

#: The shipped model and its IDF table.
MODEL_PATH = Path(__file__).with_name("support-model.json")
IDF_PATH = Path(__file__).with_name("support-idf.json")


@functools.cache
def _read_json(path: Path) -> dict:
    """A fitted file's content, read once per process."""
    return json.loads(path.read_text(encoding="utf-8"))


@functools.cache
def _idf_of(path: Path) -> tuple[dict[str, float], float]:
    table = _read_json(path)
    return idf_weights(table["df"], table["documents"])


def idf_weights(frequencies: dict[str, int], documents: int) -> tuple[dict[str, float], float]:
    """IDF ``log((N + 1) / (df + 0.5))`` of each lemma, and the IDF of a lemma not in the table (df 1)."""
    weights = {term: math.log((documents + 1) / (df + 0.5)) for term, df in frequencies.items()}
    return weights, math.log((documents + 1) / 1.5)


def support_features(
    statements: Sequence[str],
    evidence: Sequence[str | Sequence[str]],
    *,
    idf: dict[str, float],
    default_idf: float,
    text_analyzer: TextAnalyzer,
    verbose: bool = False,
) -> np.ndarray:
    """The features (one row per statement, :data:`FEATURES` in order) of each statement against its
    evidence (one text, or its passages), with the given IDF weights."""
    if len(statements) != len(evidence):
        raise ValueError(f"SupportModel: {len(statements)} statements but {len(evidence)} evidence entries")
    passages_of = [(item,) if isinstance(item, str) else tuple(item) for item in evidence]
    for position, (statement, passages) in enumerate(zip(statements, passages_of)):
        if not isinstance(statement, str) or not all(isinstance(passage, str) for passage in passages):
            raise TypeError(f"SupportModel: statement {position} and its evidence must be strings")
    if not statements:
        return np.zeros((0, len(FEATURES)))
    extractor = term_extractor(text_analyzer)
    texts = list(dict.fromkeys([*statements, *(passage for passages in passages_of for passage in passages)]))
    analyses = dict(zip(texts, text_analyzer.analyse(texts, verbose=verbose)))
    views = {}
    for passage in dict.fromkeys(passage for passages in passages_of for passage in passages):
        views[passage] = evidence_text(analyses[passage], extractor)
    statement_views = {
        statement: statement_of(analyses[statement], extractor) for statement in dict.fromkeys(statements)
    }
    terms = sorted(
        {term for view in statement_views.values() for term in view.terms}
        | {term for view in views.values() for term in view.terms}
    )
    vectors = dict(zip(terms, term_vectors().embed(terms))) if terms else {}
    rows = []
    pairs = zip(statements, passages_of)
    if verbose:
        pairs = pt.tqdm(pairs, total=len(statements), desc="support", unit="pair")
    aligned = FEATURES.index("aligned_idf_recall")
    for statement, passages in pairs:
        view, evidence = statement_views[statement], [views[passage] for passage in passages]
        row = pair_features(view, evidence, idf, default_idf)
        row[aligned] = aligned_recall(view, evidence, idf, default_idf, vectors)
        rows.append(row)
    return np.round(np.array(rows, dtype=float), 9)


def term_vectors() -> SentenceSimilarity:
    """The encoder of the terms' vectors: the package's static encoder (all-MiniLM-L6-v2 distilled to
    one vector per token, a table look-up; built on first use, see
    :mod:`~pyterrier_rag_axioms.tools.embeddings.static_encoder`)."""
    return batch_independent_similarity(backend="static")


def _model_path(model: SupportModel, path: str | Path | None) -> Path:
    return Path(path) if path is not None else MODEL_PATH


def _check_model_file(model: SupportModel, path: str | Path | None) -> None:
    if not _model_path(model, path).is_file():
        raise FileNotFoundError(f"SupportModel: no model file at {_model_path(model, path)}")


@parameters
class SupportModel:
    """Does this evidence support this statement? A calibrated probability per (statement, evidence) pair.

    ``SupportModel.default()`` is the shipped model. :meth:`probabilities` takes statements and,
    for each, its evidence: one text or a sequence of passages; :meth:`features` gives what the
    model reads. The evidence is matched as a whole and in its best window of up to three
    consecutive sentences of one passage.
    """

    #: A model file written by ``benchmarks/fit_support_model.py`` (default: the shipped one); shown as its text.
    path: str | Path | None = parameter(None, check=_check_model_file, resolve=_model_path, shown=str)
    #: The spaCy analyzer (default: the shared one).
    text_analyzer: TextAnalyzer | str | None = parameter(
        None, role=TOOL, in_repr=False, resolve=lambda model, analyzer: resolve_text_analyzer(analyzer)
    )

    @classmethod
    def default(cls) -> SupportModel:
        """The shipped model."""
        return cls()

    @cached_property
    def _fitted(self) -> dict:
        fitted = _read_json(self.path.resolve())
        unknown = [name for name in fitted["features"] if name not in FEATURES]
        if unknown:
            raise ValueError(f"SupportModel: {self.path} was fitted on features this version lacks: {unknown}")
        return fitted

    @property
    def inputs(self) -> tuple[str, ...]:
        """The features the fitted model reads (of :data:`FEATURES`), in its order."""
        return tuple(self._fitted["features"])

    @property
    def version(self) -> str:
        """The version of the fitted model (saved with what uses it)."""
        return self._fitted["version"]

    @property
    def claim_threshold(self) -> float:
        """The probability under which a claim counts as unsupported by its passages (fitted)."""
        return float(self._fitted["claim_threshold"])

    @property
    def nugget_thresholds(self) -> dict[str, float]:
        """The probabilities from which a long nugget is ``partial_support`` and ``support`` (fitted on
        TREC's three-way labels; equal where partial support is too rare to predict)."""
        fitted = self._fitted
        if "nugget_thresholds" not in fitted:
            raise ValueError(
                f"SupportModel: {self.path} (version {fitted['version']!r}) has no nugget_thresholds; "
                "fit it again with benchmarks/fit_support_model.py"
            )
        return dict(fitted["nugget_thresholds"])

    def assign(self, probabilities: np.ndarray) -> np.ndarray:
        """The nugget assignment (``support``, ``partial_support``, ``not_support``) of each probability."""
        thresholds = self.nugget_thresholds
        return np.where(
            probabilities >= thresholds["support"],
            "support",
            np.where(probabilities >= thresholds["partial_support"], "partial_support", "not_support"),
        ).astype(object)

    @property
    def idf_table(self) -> tuple[dict[str, float], float]:
        """The IDF weight of each lemma in the table, and that of a lemma not in it."""
        return self._idf

    @cached_property
    def _idf(self) -> tuple[dict[str, float], float]:
        return _idf_of(self.path.resolve().with_name(self._fitted["idf_file"]))

    def features(
        self, statements: Sequence[str], evidence: Sequence[str | Sequence[str]], *, verbose: bool = False
    ) -> np.ndarray:
        """The features (one row per statement, :data:`FEATURES` in order) of each statement against its evidence."""
        idf, default_idf = self._idf
        return support_features(
            statements, evidence, idf=idf, default_idf=default_idf, text_analyzer=self.text_analyzer, verbose=verbose
        )

    def probabilities_of(self, features: np.ndarray) -> np.ndarray:
        """The probabilities of support for rows of :meth:`features` (all of :data:`FEATURES`)."""
        fitted = self._fitted
        columns = features[:, [FEATURES.index(name) for name in fitted["features"]]]
        scaled = (columns - np.array(fitted["mean"])) / np.array(fitted["scale"])
        return 1.0 / (1.0 + np.exp(-(scaled @ np.array(fitted["coefficients"]) + fitted["intercept"])))

    def probabilities(
        self, statements: Sequence[str], evidence: Sequence[str | Sequence[str]], *, verbose: bool = False
    ) -> np.ndarray:
        """The probability that each statement's evidence (one text, or its passages) supports it."""
        return self.probabilities_of(self.features(statements, evidence, verbose=verbose))

    def __reduce__(self):
        """Pickled as its file and analyzer (the fitted values are read again where it is unpickled)."""
        return _rebuilt, (None if self.path == MODEL_PATH else str(self.path), self.text_analyzer)

    __repr__ = declared_repr


def _rebuilt(path: str | None, text_analyzer: TextAnalyzer) -> SupportModel:
    return SupportModel(path=path, text_analyzer=text_analyzer)


def resolve_support_model(owner: object, model: SupportModel | str | Path | None) -> SupportModel:
    """A support model from itself, the path of a fitted file, or ``None`` for the shipped one (with
    the ``owner``'s text analyzer, where it has one)."""
    if isinstance(model, SupportModel):
        return model
    return SupportModel(path=model, text_analyzer=getattr(owner, "text_analyzer", None))
