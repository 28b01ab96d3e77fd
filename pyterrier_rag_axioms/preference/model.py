"""PreferenceModel: a fitted, antisymmetric and transparent combination of feature axioms' values.

Where a combinator counts the *votes* of axioms, a preference model weighs the per-response
*values* behind them. For a pair (a, b), each chosen feature axiom gives the difference of its
(transformed) values, ``d_i = t(x_i(a)) - t(x_i(b))``, divided by a scale fitted on the training
pairs; the probability that a is better is ``sigmoid(sum_i w_i d_i / s_i)``. Without an
intercept, swapping a and b negates every difference, so the probability becomes its complement
and the preference its negation. A value that cannot be computed (NaN) contributes 0.

The weights are those of an L2-regularised logistic regression without intercept, trained on
both orientations of every judged pair (scikit-learn's objective, minimised by scipy's L-BFGS-B,
imported when fitting). A fitted model is saved as a small JSON file (axioms, scales, weights), and
every decision can be explained as the sum of one named contribution per feature
(:meth:`PreferenceModel.explain`); :meth:`PreferenceModel.scores` gives the pointwise path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.axioms import Axiom, FeatureAxiom
from pyterrier_rag_axioms.declaration import DECISION, PRESENTATION, REQUIRED, parameter, parameters, replaced
from pyterrier_rag_axioms.frames import ResponseTable, is_preference_frame, preference_frame
from pyterrier_rag_axioms.preference import parameters as resolvers
from pyterrier_rag_axioms.preference.features import (
    TRANSFORMS,
    Transform,
    encoded_with,
    model_encoder,
    transformed_values,
)
from pyterrier_rag_axioms.preference.fitting import fit_logistic
from pyterrier_rag_axioms.preference.grounding import grounding_logits
from pyterrier_rag_axioms.preference.io import default_model, load_model, save_model
from pyterrier_rag_axioms.preference.reference import reference_logits
from pyterrier_rag_axioms.preference.scores import prepare_models, response_scores
from pyterrier_rag_axioms.registry import MODELS


@parameters
class PreferenceModel(Axiom):
    """Prefer by a fitted logistic model over the per-response values of feature axioms.

    Writes column ``name`` (``+1.0`` prefers a, ``-1.0`` prefers b, ``0.0`` where the probability is
    within ``min_confidence`` of 1/2) and ``<name>_probability`` (the probability that a is
    better). Works like every axiom: on response and preference frames, as a member of a
    combinator, in :class:`~pyterrier_rag_axioms.KwikSort`, with ``agreement``, and under
    ``.parallel``. Use :meth:`fit` on judged pairs, :meth:`load` a saved model, or
    :meth:`default` for the shipped ones. Its parameters are declared once
    (:mod:`~pyterrier_rag_axioms.declaration`): ``repr``, copies, saved files and equality read them.
    """

    short_name: ClassVar[str] = "PreferenceModel"

    #: Fixed: a model decides by its probabilities (``min_confidence``), not by a margin.
    margin_fraction: float = parameter(0.0, role=DECISION, init=False)
    #: The feature axioms whose per-response values the model weighs (instances, or short names
    #: such as ``"LEN1"`` for their defaults); their preference columns are not needed.
    axioms: tuple[FeatureAxiom, ...] = parameter(REQUIRED, resolve=resolvers.features, shown=list)
    #: One weight per axiom, for a model fitted elsewhere (default: unfitted); :meth:`weights`
    #: shows them by feature.
    coefficients: tuple[float, ...] | None = parameter(
        None, resolve=resolvers.per_feature("coefficients", positive=False), shown=resolvers.listed
    )
    #: One positive scale per axiom that divides the value difference (default 1).
    scales: tuple[float, ...] | None = parameter(
        None, resolve=resolvers.per_feature("scales", positive=True, default=1.0), shown=list
    )
    #: Applied to each value before the difference: ``"signed_log1p"`` (``sign(x) log(1 + |x|)``,
    #: default; tames counts) or ``"identity"``.
    value_transform: Transform = parameter("signed_log1p", choices=TRANSFORMS)
    #: The inverse strength ``C`` of the L2 penalty when fitting (default 1).
    regularization: float = parameter(1.0, resolve=resolvers.regularization)
    #: Fit each weight only in its axiom's direction, so that a feature can only favour the
    #: response its axiom prefers (the higher value where the axiom prefers higher, else the lower
    #: one); a feature whose fitted influence would run against its axiom's intuition gets weight 0
    #: (default False: any sign).
    follow_directions: bool = parameter(False, resolve=lambda model, follow: bool(follow))
    #: What the model was fitted to predict (set by :meth:`fit`; shown by ``repr``).
    truth: str | None = parameter(None, role=PRESENTATION)
    #: Abstain (``0.0``) where the probability lies within this distance of 1/2, in [0, 0.5)
    #: (default 0: decide except for exact ties).
    min_confidence: float = parameter(0.0, role=DECISION, resolve=resolvers.min_confidence)
    #: How the features that use the default sentence encoder encode, a backend: ``"torch"`` (in
    #: batches), an ONNX backend, each text alone, or ``"static"`` (the run judge); ``":BACKEND"``
    #: is the same. See :meth:`computed_axioms`.
    encoder: str = parameter("torch", check=lambda model, encoder: model_encoder(model, encoder), resolve=model_encoder)
    #: Where the frame carries pyterrier-rag's reference answers (``gold_answer``), the log-odds gain
    #: this weight times the difference of the responses' reference scores
    #: (:mod:`~pyterrier_rag_axioms.preference.reference`); 0 (default) or no such column: no reference.
    reference_weight: float = parameter(0.0, at_least=0.0, resolve=resolvers.reference_weight)
    #: Where the frame carries each response's passages (``context``), the log-odds gain this weight
    #: times how much less the response states without support in its own passages than the other
    #: (CONS4's values; :mod:`~pyterrier_rag_axioms.preference.grounding`; nothing in a pair where an
    #: answer copies its passages); 0 (default; ``PreferenceModel.default()`` ships 4) or no such
    #: column: no grounding, and the model decides as without it.
    grounding_weight: float = parameter(0.0, at_least=0.0, resolve=resolvers.term_weight("grounding_weight"))
    #: Worker processes of :meth:`scores`, each on whole topics, with the same scores (default: the cores, at most 4).
    processes: int | None = parameter(None, role=PRESENTATION, hidden=True, whole=True, at_least=1)

    def __iter__(self):
        """The feature axioms, as PyTerrier's operators expose their parts."""
        return iter(self.axioms)

    def subtransformers(self) -> dict[str, list[pt.Transformer]]:
        """The feature axioms, for ``pt.inspect`` and schematics."""
        return {"axioms": list(self.axioms)}

    @property
    def feature_names(self) -> list[str]:
        """The names of the feature axioms, in order."""
        return [axiom.name for axiom in self.axioms]

    def computed_axioms(self) -> tuple[FeatureAxiom, ...]:
        """The feature axioms as the model computes their values: with :attr:`encoder`
        (:func:`~pyterrier_rag_axioms.preference.features.encoded_with`); ``axioms`` as declared."""
        computed = getattr(self, "_computed", None)
        if computed is None or computed[0] is not self.axioms or computed[1] != self.encoder:
            self._computed = (self.axioms, self.encoder, encoded_with(self.axioms, self.encoder))
        return self._computed[2]

    def grounding_axiom(self) -> FeatureAxiom:
        """The axiom whose values the grounding term reads (CONS4), one per model, so that a table's
        values are computed once (:mod:`~pyterrier_rag_axioms.preference.grounding`)."""
        if getattr(self, "_grounding", None) is None:
            from pyterrier_rag_axioms.axioms.consistency import CONS4

            self._grounding = CONS4()
        return self._grounding

    @property
    def probability_column(self) -> str:
        """The name of the probability column, ``<name>_probability``."""
        return f"{self.name}_probability"

    # --- the model ----------------------------------------------------------------------------

    def differences(self, table: ResponseTable, *, every: bool = False) -> np.ndarray:
        """The unscaled feature differences of each pair (pairs x features); NaN and infinite ones are 0.

        A fitted model computes only its features of non-zero weight (the others' columns are 0)
        unless ``every`` (as fitting does)."""
        columns = []
        axioms = self.computed_axioms()
        for position, axiom in enumerate(pt.tqdm(axioms, desc=self.name, unit="axiom", disable=not self.verbose)):
            if not every and self.coefficients is not None and self.coefficients[position] == 0.0:
                columns.append(np.zeros(len(table.a)))
                continue
            values = transformed_values(axiom.cached_values(table), self.value_transform)
            columns.append(values[table.a] - values[table.b])
        matrix = np.column_stack(columns) if columns else np.empty((len(table.a), 0))
        return np.where(np.isfinite(matrix), matrix, 0.0)

    def fitted_coefficients(self) -> tuple[float, ...]:
        """The weights, one per feature axiom (``ValueError`` saying how to get them where the model has none yet)."""
        if self.coefficients is None:
            raise ValueError(
                f"{self.name}: the model has no weights yet; call fit(judged_pairs, truth=...), "
                "PreferenceModel.load(path) or PreferenceModel.default()"
            )
        return self.coefficients

    def probabilities(self, table: ResponseTable) -> np.ndarray:
        """The probability that response a is better, for each pair of ``table``."""
        self.fitted_coefficients()
        return self.probabilities_of(self.differences(table), self.term_logits(table))

    def term_logits(self, table: ResponseTable) -> np.ndarray | None:
        """Each pair's log-odds from the reference answers and the passages, where the frame carries
        them and the model weighs them; ``None`` where neither term applies."""
        terms = [term for term in (reference_logits(self, table), grounding_logits(self, table)) if term is not None]
        return sum(terms[1:], terms[0]) if terms else None

    def probabilities_of(self, differences: np.ndarray, terms: np.ndarray | None = None) -> np.ndarray:
        """The probability that response a is better from the unscaled feature differences of
        :meth:`differences` and, where given, each pair's log-odds of :meth:`term_logits`."""
        scores = (differences / np.asarray(self.scales)) @ np.asarray(self.fitted_coefficients())
        if terms is not None:
            scores = scores + terms
        return 1.0 / (1.0 + np.exp(-scores))

    def decide(self, probabilities: np.ndarray) -> np.ndarray:
        """Preferences from probabilities: +1 above ``1/2 + min_confidence``, -1 below ``1/2 - min_confidence``."""
        probabilities = np.asarray(probabilities, dtype=float)
        upper, lower = 0.5 + self.min_confidence, 0.5 - self.min_confidence
        if self.min_confidence == 0.0:
            return np.where(probabilities > 0.5, 1.0, np.where(probabilities < 0.5, -1.0, 0.0))
        return np.where(probabilities >= upper, 1.0, np.where(probabilities <= lower, -1.0, 0.0))

    def preferences(self, table: ResponseTable) -> np.ndarray:
        return self.decide(self.probabilities(table))

    # --- the transformer ----------------------------------------------------------------------

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """Add ``name`` (the preference) and ``<name>_probability`` to the (built or given) preference
        frame, as every axiom does (:meth:`Axiom.transform`: context warnings, cache flush)."""
        self.fitted_coefficients()
        return super().transform(inp)

    def output_columns(self) -> list[str]:
        """The preference column ``name`` and the probability column ``<name>_probability``."""
        return [self.name, self.probability_column]

    def output_values(self, table: ResponseTable) -> dict[str, np.ndarray]:
        probabilities = self.probabilities(table)
        return {self.name: self.decide(probabilities), self.probability_column: probabilities}

    def context_sources(self) -> list[object]:
        """The feature axioms: the model warns where they read a context that is missing."""
        return list(self.axioms)

    def explain(self, inp: pd.DataFrame) -> pd.DataFrame:
        """The preference frame with each feature's contribution ``w_i d_i / s_i`` to the log-odds.

        Adds ``<feature>_contribution`` per feature axiom (and ``reference_contribution`` and
        ``grounding_contribution`` where the reference answers and the passages count),
        ``<name>_logit`` (their sum), and the columns of :meth:`transform`. A positive contribution
        speaks for response a.
        """
        weights = np.asarray(self.fitted_coefficients())
        pairs = preference_frame(inp, self)
        table = ResponseTable.from_pairs(pairs)
        contributions = self.differences(table) / np.asarray(self.scales) * weights
        for feature, column in zip(self.feature_names, contributions.T):
            pairs[f"{feature}_contribution"] = column
        logits = contributions.sum(axis=1)
        for term, name in ((reference_logits(self, table), "reference"), (grounding_logits(self, table), "grounding")):
            if term is not None:
                pairs[f"{name}_contribution"] = term
                logits = logits + term
        probabilities = 1.0 / (1.0 + np.exp(-logits))
        pairs[f"{self.name}_logit"] = logits
        pairs[self.name] = self.decide(probabilities)
        pairs[self.probability_column] = probabilities
        return pairs

    def prepare(self) -> None:
        """Load the features' spaCy models and build their encoders' model files: before worker processes fork."""
        prepare_models(self)

    def scores(self, inp: pd.DataFrame) -> pd.DataFrame:
        """The pointwise path: each response's score ``sum_i w_i t(x_i) / s_i`` as column ``<name>_score``.

        The score of a over b is the log-odds of the pairwise model, so scores rank each query's
        responses as the pairs' probabilities do, in time linear in the number of responses (no
        pairs). A NaN value counts as the mean of its query's other values (see :func:`response_scores`).
        """
        return response_scores(self, inp)

    # --- fitting ------------------------------------------------------------------------------

    def _judged(
        self, judged: pd.DataFrame, truth: str, weight: str | None, where: str
    ) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
        """The validated judged pairs, the sign of their truth (0 where undecided or NaN), and sample weights."""
        if not isinstance(judged, pd.DataFrame):
            raise TypeError(f"{where}: judged pairs must be a preference frame, not {type(judged).__name__}")
        if weight is not None and not isinstance(weight, str):
            raise TypeError(
                f"{where}: weight names a column of the judged pairs that holds the sample weights, "
                f"not {type(weight).__name__}; add the weights as a column and pass its name"
            )
        for column, role in ((truth, "truth"), (weight, "weight")):
            if column is not None and column not in judged.columns:
                raise ValueError(
                    f"{where}: the {role} column {column!r} is not in the judged pairs "
                    f"(their columns: {', '.join(map(str, judged.columns))})"
                )
        if not is_preference_frame(judged):
            raise ValueError(f"{where}: judged pairs must be a preference frame with docno_a and docno_b")
        pairs = preference_frame(judged, self).reset_index(drop=True)
        values = pd.to_numeric(pairs[truth], errors="coerce").to_numpy(dtype=float)
        if (~np.isnan(values)).sum() != pairs[truth].notna().sum():
            raise TypeError(f"{where}: the truth column {truth!r} must hold numbers (+ prefers a, - prefers b)")
        signs = np.nan_to_num(np.sign(values), nan=0.0)
        if not signs.any():
            raise ValueError(f"{where}: no pair in the truth column {truth!r} prefers a response; nothing to fit")
        sample = np.ones(len(pairs)) if weight is None else pd.to_numeric(pairs[weight]).to_numpy(dtype=float)
        signs = np.where(np.isfinite(sample), signs, 0.0)
        return pairs, signs, sample

    def fit(
        self, judged: pd.DataFrame, *, truth: str = "quality_overall", weight: str | None = None
    ) -> PreferenceModel:
        """Fit scales and weights to judged pairs; returns the model itself.

        Args:
            judged: a preference frame of judged pairs (e.g. :func:`load_crowdrag_judgments`, or an
                oracle axiom's output) with a truth column.
            truth: the truth column: positive where a is better, negative where b is; pairs with 0
                or NaN are left out.
            weight: the name of an optional column of sample weights (e.g. the judges' confidence).

        Raises:
            ValueError: the truth (or weight) column is missing, or no pair prefers a response.
            TypeError: the truth column does not hold numbers.
        """
        pairs, signs, sample = self._judged(judged, truth, weight, f"{self.name}.fit")
        decisive = signs != 0
        table = ResponseTable.from_pairs(pairs[decisive].reset_index(drop=True))
        self.fit_differences(self.differences(table, every=True), signs[decisive], sample[decisive])
        self.truth = truth
        return self

    def fit_differences(self, differences: np.ndarray, signs: np.ndarray, sample: np.ndarray) -> None:
        """Fit scales and weights to difference rows and truth signs (see :func:`fit_logistic`)."""
        bounds = None
        if self.follow_directions:
            bounds = [(0.0, None) if axiom.prefer_higher else (None, 0.0) for axiom in self.axioms]
        scales, coefficients = fit_logistic(
            differences, signs, sample, regularization=self.regularization, bounds=bounds
        )
        self.scales = tuple(float(scale) for scale in scales)
        self.coefficients = tuple(float(weight) for weight in coefficients)

    def cross_validate(
        self, judged: pd.DataFrame, *, truth: str = "quality_overall", weight: str | None = None, groups: str = "qid"
    ) -> pd.DataFrame:
        """Leave-one-group-out predictions: each pair judged by a copy fitted on the other groups (topics).

        Returns the judged pairs with ``name`` and ``<name>_probability`` from the copy that did not
        see their group (every pair is predicted; pairs whose truth is 0 or NaN are only left out of
        fitting), ready for :func:`~pyterrier_rag_axioms.evaluation`. The features are computed
        once; the model itself stays as it is.
        """
        where = f"{self.name}.cross_validate"
        pairs, signs, sample = self._judged(judged, truth, weight, where)
        if groups not in pairs.columns:
            raise ValueError(f"{where}: the group column {groups!r} is not in the judged pairs")
        differences = self.differences(ResponseTable.from_pairs(pairs), every=True)
        probabilities = np.full(len(pairs), np.nan)
        labels = pairs[groups].astype(str).to_numpy()
        fold = replaced(self)
        for group in pd.unique(labels):
            train = (labels != group) & (signs != 0)
            if not train.any():
                raise ValueError(f"{where}: leaving out {groups} {group!r} leaves no judged pair to fit")
            fold.fit_differences(differences[train], signs[train], sample[train])
            held_out = labels == group
            probabilities[held_out] = fold.probabilities_of(differences[held_out])
        pairs[self.name] = self.decide(probabilities)
        pairs[self.probability_column] = probabilities
        return pairs

    def with_min_confidence(self, min_confidence: float) -> PreferenceModel:
        """The same model abstaining within ``min_confidence`` of 1/2."""
        return replaced(self, min_confidence=min_confidence)

    # --- transparency and files ---------------------------------------------------------------

    def weights(self) -> pd.DataFrame:
        """Each feature's weight: ``feature``, ``axiom``, ``weight`` (per scaled difference), ``scale``, ``prefers``.

        ``prefers`` says which value the feature favours: ``"higher"`` (positive weight), ``"lower"``
        (negative weight) or ``"-"`` (weight 0).
        """
        weights = self.fitted_coefficients()
        axioms = [axiom.short_name for axiom in self.axioms]
        frame = pd.DataFrame({"feature": self.feature_names, "axiom": axioms, "weight": weights, "scale": self.scales})
        frame["prefers"] = np.where(frame["weight"] > 0, "higher", np.where(frame["weight"] < 0, "lower", "-"))
        return frame

    def save(self, path: str | Path, *, metadata: dict[str, Any] | None = None) -> None:
        """Write the model as a small JSON file, atomically (:func:`pyterrier_rag_axioms.io.atomic_write`)."""
        save_model(self, path, metadata=metadata)

    @classmethod
    def load(cls, path: str | Path, *, allow_remote: bool = False, **overrides: Any) -> PreferenceModel:
        """Read a model saved by :meth:`save`; keyword arguments (e.g. ``min_confidence``) override the file's.

        A server on another machine named in the file (CLAR1's ``remote_server``) is refused unless
        ``allow_remote=True``. Raises a ``ValueError`` starting with the path for a malformed file.
        """
        return load_model(cls, path, allow_remote=allow_remote, **overrides)

    @classmethod
    def default(cls, kind: str = "crowd", **overrides: Any) -> PreferenceModel:
        """A shipped model: ``"crowd"`` (CrowdRAG-25 overall quality) or ``"nuggets"`` (TREC 2024 RAG nugget scores).

        Both are chosen on the development judgments by ``benchmarks/fit_preference_models.py``
        among candidates over axioms that run offline; only the weights ship. ``"nuggets"`` is the
        run judge: it weighs pool axioms (values that depend on each query's other responses). For
        ``"crowd"`` the nugget model before the pool axioms was chosen (``truth`` TREC_RAG_NUGGET; its
        metadata holds the figures on CrowdRAG-25). ``"crowd"`` also weighs pyterrier-rag's reference
        answers where the frame carries ``gold_answer`` (``reference_weight`` 50, chosen on RAGChecker
        by ``benchmarks/ragchecker_agreement.py``), and each answer's own passages where the frame
        carries ``context`` (``grounding_weight`` 4, chosen on CrowdRAG-25 by
        ``benchmarks/grounding_weight.py``); without them, both decide by their features alone.
        Keyword arguments override the file's.
        """
        return default_model(cls, kind, **overrides)

MODELS["preference"] = PreferenceModel
