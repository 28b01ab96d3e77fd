"""Axioms inside pyterrier-rag pipelines: several responses per query, each with its context, and best-of-n.

pyterrier-rag's readers return one answer per query (``qid, query_0, prompt, qanswer``), without
a ``docno`` and without the passages they were given. The axioms compare responses of one query
and some read the context, so a pipeline needs

- several responses per query: from several systems (:class:`MultiGenerator` with one generator
  per system; each answer's ``docno`` is its system's name) or several samples of one generator
  (:class:`SamplingReader`: pyterrier-rag's prompt and backend, ``num_responses`` answers per
  prompt);
- each response's context: :class:`MultiGenerator` runs a generator pipeline stage by stage and
  keeps, for each answer, the retrieved passages it was given (see :class:`MultiGenerator`);
- one answer per query at the end: :class:`BestOfN` keeps each query's best response of an
  axiomatic ranking as ``qanswer``, so that ``pyterrier_rag.measures`` and ``pt.Experiment``
  evaluate it like any reader's answer.

``retriever >> MultiGenerator({...}) >> COV1() >> CONS2() >> KwikSort(...) >> BestOfN()`` is a
PyTerrier pipeline like any other. This module imports pyterrier-rag only in
:class:`SamplingReader` (``pip install "pyterrier-rag-axioms[rag]"``).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping

import numpy as np
import pandas as pd
import pyterrier as pt

from pyterrier_rag_axioms.declaration import PRESENTATION, REQUIRED, declared_repr, parameter, parameters
from pyterrier_rag_axioms.frames import normalize_context
from pyterrier_rag_axioms.runtime.by_topic import ByTopic

#: Columns a generator's answers may be in, in order of preference (pyterrier-rag's first).
ANSWER_COLUMNS: tuple[str, ...] = ("qanswer", "response")

Passages = tuple[str, ...]


def _stages(transformer: pt.Transformer) -> list[pt.Transformer]:
    """The stages of a (possibly nested) ``>>`` composition, in order; a single transformer otherwise."""
    if isinstance(transformer, pt.Compose):
        return [stage for part in transformer for stage in _stages(part)]
    return [transformer]


def _as_passages(value: object) -> Passages | str | None:
    """A context cell: a tuple of passages (the context rule of :func:`normalize_context`), a string
    (a prompt's context), or None. What is no text (a record without one) is left out here; an
    axiom reading the answers' contexts reports it."""
    if isinstance(value, str):
        return value if value.strip() else None
    return normalize_context(value, strict=False)


class _ContextTracker:
    """The passages each query's generation is given, from the frames a pipeline passes along.

    A result frame (``docno`` and ``text``) gives the passages of each of its queries, in ranking
    order; a ``qcontext`` (or ``context``) column gives the context a prompt is built from. Later
    frames replace earlier ones. Where the last context is a string (pyterrier-rag's
    ``Concatenator`` joins passages into one), the passages are those of the last result frame
    that occur in it (a ``max_elements`` cut drops the others); where none do, the string itself
    is the one passage.
    """

    def __init__(self) -> None:
        self.passages: dict[str, Passages] = {}
        self.prompt_context: dict[str, str] = {}
        #: Queries whose context is the prompt's context string as one passage: no retrieved
        #: passage is in it whole (cut to a token budget), or no result frame came through.
        self.whole_prompt: set[str] = set()

    def record(self, frame: pd.DataFrame) -> None:
        if len(frame) == 0 or "qid" not in frame.columns:
            return
        qids = frame["qid"].astype(str)
        column = next((c for c in ("qcontext", "context") if c in frame.columns), None)
        if column is not None:
            for qid, value in zip(qids, frame[column]):
                cell = _as_passages(value)
                if isinstance(cell, str):
                    self.prompt_context[qid] = cell
                elif cell is not None:
                    self.passages[qid] = cell
                    self.prompt_context.pop(qid, None)
        elif "docno" in frame.columns and "text" in frame.columns:
            ranked = frame.assign(_qid=qids, _position=np.arange(len(frame)))
            if "rank" in frame.columns:
                ranked = ranked.sort_values(["_qid", "rank", "_position"], kind="mergesort")
            elif "score" in frame.columns:
                ranked = ranked.sort_values(["_qid", "score", "_position"], ascending=[True, False, True])
            for qid, texts in ranked.groupby("_qid", sort=False)["text"]:
                self.passages[qid] = normalize_context(texts.tolist(), strict=False) or ()
                self.prompt_context.pop(qid, None)

    def context(self, qid: str) -> Passages | None:
        passages = self.passages.get(qid)
        prompt_context = self.prompt_context.get(qid)
        if prompt_context is None:
            return passages or None
        given = tuple(passage for passage in passages or () if passage in prompt_context)
        if not given:
            self.whole_prompt.add(qid)
        return given or (prompt_context,)


def _check_generators(owner: MultiGenerator, generators: object) -> None:
    """A non-empty mapping from system names to transformers, or one transformer."""
    if isinstance(generators, Mapping):
        if not generators:
            raise ValueError("MultiGenerator: needs at least one generator")
        for name, generator in generators.items():
            if not isinstance(name, str) or not name:
                raise TypeError(f"MultiGenerator: system names must be non-empty strings, not {name!r}")
            if not isinstance(generator, pt.Transformer):
                raise TypeError(
                    f"MultiGenerator: the generator of {name!r} must be a pt.Transformer, "
                    f"not {type(generator).__name__}"
                )
    elif not isinstance(generators, pt.Transformer):
        raise TypeError(
            "MultiGenerator: generators must be a mapping from system name to pt.Transformer or one "
            f"pt.Transformer, not {type(generators).__name__}"
        )


def _shown_generators(generators: Mapping[str, pt.Transformer] | pt.Transformer) -> object:
    """How the generators show in ``repr``: a mapping as a dict, one generator as itself."""
    return dict(generators) if isinstance(generators, Mapping) else generators


@parameters
class MultiGenerator(ByTopic, pt.Transformer):
    """Run one or several generators on the same input: one row per answer, each with its context.

    ``MultiGenerator({"flan": Concatenator() >> flan, "llama": Concatenator() >> llama})`` gives,
    per query, one answer of each system, with the system's name as ``docno`` (``name-0``,
    ``name-1``, ... where a system gives several answers per query, e.g. a
    :class:`SamplingReader`). ``MultiGenerator(sampler)`` numbers the answers of one generator
    per query: ``"0"``, ``"1"``, ...

    Each generator runs stage by stage (the parts of its ``>>`` composition), so that each answer
    keeps the passages it was given, whether the retriever runs before this transformer (its
    results are the input) or inside each system (``bm25 % 3 >> Concatenator() >> reader``):
    the ``text`` of the last result frame before the answers, in ranking order, cut to those in
    the prompt's ``qcontext`` where pyterrier-rag's ``Concatenator`` built one; or the
    ``qcontext`` itself where no result frame came first.

    Output: ``qid, query, docno``, the answer column (``qanswer`` for pyterrier-rag's readers, or
    ``response``), the context as a list of passages (``qcontext`` beside ``qanswer``, else
    ``context``; ``None`` where no passages came through), then the generator's other columns
    (e.g. ``prompt``). Rows are grouped by qid in input order, then by system, then by answer.
    """

    #: A mapping from system name to generator (any transformer or pipeline that returns answers in
    #: ``qanswer`` or ``response``), or a single generator.
    generators: Mapping[str, pt.Transformer] | pt.Transformer = parameter(
        REQUIRED, positional=True, check=_check_generators, shown=_shown_generators
    )
    #: Show progress over the systems.
    verbose: bool = parameter(False, role=PRESENTATION, hidden=True)

    __repr__ = declared_repr

    def _systems(self) -> list[tuple[str | None, pt.Transformer]]:
        if isinstance(self.generators, Mapping):
            return list(self.generators.items())
        return [(None, self.generators)]

    def _run(self, name: str | None, generator: pt.Transformer, inp: pd.DataFrame) -> pd.DataFrame:
        system = "generator" if name is None else f"generator {name!r}"
        tracker = _ContextTracker()
        tracker.record(inp)
        frame = inp
        stages = _stages(generator)
        for number, stage in enumerate(stages, start=1):
            try:
                frame = stage(frame)
            except Exception as error:
                error.add_note(f"{self}: in the {system}, stage {number} of {len(stages)}: {stage!r}")
                raise
            tracker.record(frame)
        output = frame
        answer = next((column for column in ANSWER_COLUMNS if column in output.columns), None)
        if answer is None:
            raise ValueError(
                f"{self}: the {system} returned no answers: it needs a column 'qanswer' or 'response', "
                f"but returned {list(output.columns)}"
            )
        pt.validate.columns(output, includes=["qid"], context=f"{self}: the {system}")
        output = output.reset_index(drop=True)
        qids = output["qid"].astype(str)
        number = output.groupby(qids, sort=False).cumcount().astype(str)
        if name is None:
            docno = number
        else:
            several = qids.map(qids.value_counts()) > 1
            docno = pd.Series(np.where(several, name + "-" + number, name), index=output.index)
        queries = _queries(inp, output)
        context_column = "qcontext" if answer == "qanswer" else "context"
        contexts = [tracker.context(qid) for qid in qids]
        self._warn_about_contexts(system, qids, contexts, tracker.whole_prompt)
        result = pd.DataFrame(
            {
                "qid": qids,
                "query": qids.map(queries),
                "docno": docno,
                answer: output[answer],
                context_column: contexts,
            }
        )
        rest = [c for c in output.columns if c not in result.columns and c not in ("qcontext", "context", "docno")]
        return pd.concat([result, output[rest]], axis=1)

    def _warn_about_contexts(
        self, system: str, qids: pd.Series, contexts: list[Passages | None], whole_prompt: set[str]
    ) -> None:
        """Say where an answer's passages could not be followed, naming the system and queries."""
        follow = (
            "Passages are followed from a result frame (docno, text) or a qcontext column passed between "
            "the stages of a >> composition; a generator wrapped as one transformer (e.g. by .parallel or "
            "a cache) is one stage: wrap its parts instead, or retrieve before the MultiGenerator"
        )
        for cases, what in (
            (
                [qid for qid, context in zip(qids, contexts) if context is None],
                "no passages came through to the answers of the {system} for {count} (e.g. qid {example!r}), so "
                "axioms that read the context give no preference there. " + follow,
            ),
            (
                [qid for qid in qids if qid in whole_prompt],
                "the context of the answers of the {system} for {count} (e.g. qid {example!r}) is the prompt's "
                "context string as one passage, since it holds none of the retrieved passages whole (cut to a "
                "length, or rewritten) or none came through, so a citation [k] cannot name a passage",
            ),
        ):
            queries = list(dict.fromkeys(cases))
            if queries:
                count = f"{len(queries)} quer{'y' if len(queries) == 1 else 'ies'}"
                warnings.warn(
                    f"{self}: " + what.format(system=system, count=count, example=queries[0]), stacklevel=6
                )  # past _run, the list of systems, transform and __call__

    def subtransformers(self) -> dict[str, pt.Transformer]:
        """The generators, by system name (``"generator"`` for a single one): for ``pt.inspect``."""
        return dict(self._systems()) if isinstance(self.generators, Mapping) else {"generator": self.generators}

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """Run every generator on ``inp`` and return their answers, one row each."""
        pt.validate.columns(inp, includes=["qid"], context=self)
        if len(inp) == 0:  # the answer column the generators would return: pyterrier-rag's qanswer, or response
            outputs = [pt.inspect.transformer_outputs(g, list(inp.columns), strict=False) for _, g in self._systems()]
            answer = "response" if all(o is not None and "response" in o for o in outputs) else "qanswer"
            context = "context" if answer == "response" else "qcontext"
            columns = ["qid", "query", "docno", answer, context]
            rest = [c for o in outputs for c in o or () if c not in columns and c not in ("qcontext", "context")]
            return pd.DataFrame(columns=[*columns, *dict.fromkeys(rest)])
        systems = self._systems()
        parts = [
            self._run(name, generator, inp)
            for name, generator in pt.tqdm(systems, desc=repr(self), unit="system", disable=not self.verbose)
        ]
        frame = pd.concat(parts, ignore_index=True)
        order = {qid: i for i, qid in enumerate(dict.fromkeys(inp["qid"].astype(str)))}
        position = frame["qid"].map(order).fillna(len(order))
        return frame.iloc[np.argsort(position.to_numpy(), kind="stable")].reset_index(drop=True)


def _original_query_column(frame: pd.DataFrame) -> str | None:
    """The column of the user's own query: ``query_<n>`` with the largest n (where rewriting stages
    pushed the query aside, PyTerrier's convention), else ``query``."""
    pushed = [
        (int(column[6:]), column)
        for column in frame.columns
        if isinstance(column, str) and column.startswith("query_") and column[6:].isdigit()
    ]
    if pushed:
        return max(pushed)[1]
    return "query" if "query" in frame.columns else None


def _queries(inp: pd.DataFrame, output: pd.DataFrame) -> dict[str, str]:
    """The user's query of each qid: the input's original query (a rewrite inside a system, or
    before this transformer, does not change what the answers are judged against); the answers'
    own query only for a qid the input does not name."""
    queries: dict[str, str] = {}
    for frame in (output, inp):  # later wins: the input over the answers
        column = _original_query_column(frame)
        if column is not None:
            queries.update(zip(frame["qid"].astype(str), frame[column]))
    return queries


def _check_samples(reader: SamplingReader, num_responses: int) -> None:
    """Several responses per prompt need a backend that gives them."""
    if num_responses > 1 and not getattr(reader.backend, "supports_num_responses", False):
        raise ValueError(f"SamplingReader: {reader.backend!r} cannot return several responses per prompt")


def _reader_prompt(reader: SamplingReader, prompt: object) -> object:
    """The prompt transformer pyterrier-rag's ``Reader`` makes of ``prompt`` (``None``: its default)."""
    from pyterrier_rag.readers import Reader

    given = {} if prompt is None else {"prompt": prompt}
    return Reader(reader.backend, output_field=reader.output_field, **given).prompt


@parameters
class SamplingReader(ByTopic, pt.Transformer):
    """pyterrier-rag's reader with ``num_responses`` answers per query (best-of-n sampling).

    Builds each query's prompt like ``pyterrier_rag.readers.Reader`` (same prompt, same answer
    extraction) and asks the backend for ``num_responses`` answers to it, e.g. the ``n`` of an
    OpenAI-compatible API. Returns ``num_responses`` rows per query: ``prompt, qid, query_0,
    qanswer``. pyterrier-rag's ``Reader`` itself returns one answer per query.
    """

    #: A ``pyterrier_rag.backend.Backend`` that supports several responses per prompt (``OpenAIBackend``,
    #: ``VLLMBackend``, ...).
    backend: object = parameter(REQUIRED, positional=True)
    #: Answers per query.
    num_responses: int = parameter(4, whole=True, at_least=1, always_shown=True, check=_check_samples)
    #: A ``PromptTransformer`` or instruction template (default: the ``Reader``'s); stored as the prompt
    #: transformer the ``Reader`` makes of it.
    prompt: object = parameter(None, in_repr=False, resolve=_reader_prompt)
    #: The answer column.
    output_field: str = parameter("qanswer", in_repr=False)
    #: Overrides the backend's ``max_new_tokens``.
    max_new_tokens: int | None = parameter(None, in_repr=False)

    def __post_init__(self) -> None:
        make = self.backend.logprobs_generator if self.prompt.expects_logprobs else self.backend.text_generator
        self.generator = make(
            output_field=self.output_field, num_responses=self.num_responses, max_new_tokens=self.max_new_tokens
        )

    __repr__ = declared_repr

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """``num_responses`` answers per query of ``inp`` (the columns the prompt reads)."""
        pt.validate.columns(inp, includes=["qid", *self.prompt.input_fields], context=self)
        if len(inp) == 0:
            return pd.DataFrame(columns=[self.prompt.output_field, "qid", "query_0", self.output_field])
        outputs = self.generator(self.prompt(inp)).reset_index(drop=True)
        answers = self.prompt.answer_extraction(outputs)
        outputs[self.output_field] = answers[self.output_field].to_numpy()
        return outputs
