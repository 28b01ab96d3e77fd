"""Axioms inside pyterrier-rag pipelines, end to end.

Real pyterrier-rag (its OpenAIBackend, Concatenator, Reader and measures), real BM25 (pyterrier-pisa,
no Java) over the shipped sample's passages, the real axioms. The language model is the only part
replaced: a local HTTP server on 127.0.0.1 that answers the chat-completions API
(``notebooks/local_chat_server.py``), deterministically.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("pyterrier_rag")
pyterrier_pisa = pytest.importorskip("pyterrier_pisa")

import pyterrier as pt  # noqa: E402
import pyterrier_rag.measures as rag_measures  # noqa: E402
from pyterrier_rag._measures import f1_score  # noqa: E402
from pyterrier_rag.backend import OpenAIBackend  # noqa: E402
from pyterrier_rag.prompt import Concatenator  # noqa: E402
from pyterrier_rag.readers import Reader  # noqa: E402

from pyterrier_rag_axioms import CONS2, CORR1, COV1, KwikSort, MajorityVote  # noqa: E402
from pyterrier_rag_axioms.pipelines import BestOfN, MultiGenerator, SamplingReader  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _load_server_module():
    spec = importlib.util.spec_from_file_location("local_chat_server", ROOT / "notebooks" / "local_chat_server.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


chat_server = _load_server_module()


@pytest.fixture(scope="module")
def server():
    with chat_server.serve() as running:
        yield running


@pytest.fixture(scope="module")
def backend(server):
    return OpenAIBackend("local-model", base_url=server.base_url, api_key="unused", max_retries=0, parallel=2)


@pytest.fixture(scope="module")
def sample():
    return pd.read_json(ROOT / "data" / "sample" / "responses.jsonl", lines=True, dtype={"qid": str})


@pytest.fixture(scope="module")
def topics(sample):
    return sample[["qid", "query"]].drop_duplicates().reset_index(drop=True)


@pytest.fixture(scope="module")
def answers():
    return pd.read_json(ROOT / "data" / "sample" / "answers.jsonl", lines=True, dtype={"qid": str})


@pytest.fixture(scope="module")
def bm25(sample, tmp_path_factory):
    passages = list(dict.fromkeys(passage for context in sample["context"] for passage in context))
    corpus = pd.DataFrame({"docno": [f"p{i}" for i in range(len(passages))], "text": passages})
    index = pyterrier_pisa.PisaIndex(str(tmp_path_factory.mktemp("pisa") / "sample.pisa"))
    index.indexer().index(corpus.to_dict("records"))
    text = dict(zip(corpus["docno"], corpus["text"]))
    return index.bm25() >> pt.apply.generic(lambda results: results.assign(text=results["docno"].map(text)))


def test_several_systems_each_answer_with_its_own_passages(bm25, backend, topics):
    reader = Reader(backend)
    systems = MultiGenerator(
        {"top1": bm25 % 1 >> Concatenator() >> reader, "top3": bm25 % 3 >> Concatenator() >> reader}
    )
    responses = systems(topics)
    retrieved = bm25(topics)
    assert list(responses.columns[:5]) == ["qid", "query", "docno", "qanswer", "qcontext"]
    assert len(responses) == 2 * len(topics)
    assert responses.groupby("qid")["docno"].apply(list).tolist() == [["top1", "top3"]] * len(topics)
    assert responses["query"].tolist() == topics["query"].repeat(2).tolist()
    for row in responses.itertuples():
        ranked = retrieved[retrieved["qid"] == row.qid].sort_values("rank")["text"].tolist()
        assert row.qcontext == tuple(ranked[: 1 if row.docno == "top1" else 3])
        assert isinstance(row.qanswer, str) and row.qanswer
        assert row.query_0 == row.query and "Question:" in str(row.prompt)


def test_retrieval_before_the_systems_keeps_the_passages_in_each_prompt(bm25, backend, topics):
    reader = Reader(backend)
    pipeline = bm25 % 3 >> MultiGenerator(
        {"all": Concatenator() >> reader, "first": Concatenator(max_elements=1) >> reader}
    )
    responses = pipeline(topics.head(3))
    lengths = responses.groupby("docno")["qcontext"].apply(lambda cells: sorted({len(c) for c in cells}))
    assert lengths.to_dict() == {"all": [3], "first": [1]}


def test_best_of_n_samples_of_one_generator(bm25, backend, topics, server):
    before = len(server.requests)
    sampler = bm25 % 3 >> MultiGenerator(Concatenator() >> SamplingReader(backend, num_responses=4))
    responses = sampler(topics.head(2))
    assert responses["docno"].tolist() == ["0", "1", "2", "3"] * 2
    assert [request["n"] for request in server.requests[before:]] == [4, 4]
    # the answers are the server's four styles, each with the query's three passages as context
    assert responses.groupby("qid")["qanswer"].nunique().tolist() == [4, 4]
    assert responses["qcontext"].map(len).tolist() == [3] * 8


def test_pipeline_judges_ranks_selects_and_is_evaluated(bm25, backend, topics, answers):
    reader = Reader(backend)
    systems = MultiGenerator(
        {
            "top1": bm25 % 1 >> Concatenator() >> SamplingReader(backend, num_responses=2),
            "top3": bm25 % 3 >> Concatenator() >> SamplingReader(backend, num_responses=2),
        }
    )
    judged = systems >> COV1() >> CONS2() >> CORR1()
    preferences = judged(topics)
    assert len(preferences) == len(topics) * 6  # 4 responses per query: 6 pairs
    different = [
        a != b
        for a, b in zip(
            preferences["docno_a"].str.split("-").str[0], preferences["docno_b"].str.split("-").str[0]
        )
    ]
    assert (preferences.loc[different, "CONS2"] != 0).mean() > 0.5  # CONS2 decides across contexts
    assert {"prompt_a", "prompt_b"} <= set(preferences.columns)

    ranking = (judged >> KwikSort(MajorityVote("COV1", "CONS2", "CORR1")))(topics)
    assert {"qanswer", "qcontext", "prompt", "query_0"} <= set(ranking.columns)
    assert "response" not in ranking.columns and "context" not in ranking.columns
    assert ranking.groupby("qid")["rank"].apply(list).tolist() == [[0, 1, 2, 3]] * len(topics)

    best_of_n = judged >> KwikSort(MajorityVote("COV1", "CONS2", "CORR1")) >> BestOfN()
    best = best_of_n(topics)
    top = ranking[ranking["rank"] == 0].reset_index(drop=True)
    assert best["qid"].tolist() == topics["qid"].tolist()
    assert best["qanswer"].tolist() == top["qanswer"].tolist()
    assert best["docno"].tolist() == top["docno"].tolist()
    assert "rank" not in best.columns and best["qcontext"].map(len).isin([1, 3]).all()

    plain = bm25 % 3 >> Concatenator() >> reader
    qrels = answers[["qid", "gold_answer"]]
    results = pt.Experiment(
        [plain, best_of_n], topics, qrels, [rag_measures.F1, rag_measures.EM], names=["plain", "best-of-n"]
    ).set_index("name")
    gold = dict(zip(answers["qid"], answers["gold_answer"]))
    expected = np.mean([f1_score(row.qanswer, gold[row.qid]) for row in best.itertuples()])
    assert results.loc["best-of-n", "F1"] == pytest.approx(expected)
    assert 0.0 < results.loc["plain", "F1"] <= 1.0


def test_cons2_judges_equal_answers_against_their_own_contexts(bm25, backend, topics):
    reader = Reader(backend)
    systems = MultiGenerator(
        {"top1": bm25 % 1 >> Concatenator() >> reader, "top3": bm25 % 3 >> Concatenator() >> reader}
    )
    responses = systems(topics)
    preferences = CONS2()(responses)
    # both systems quote the top passage: one answer, judged against one passage (top1, listed first)
    # and against three (top3); its ROUGE overlap with the one passage it quotes is higher
    quoting = (preferences["response_a"] == preferences["response_b"]) & preferences["response_a"].str.endswith("[0].")
    assert quoting.sum() >= 2
    assert (preferences.loc[quoting, "CONS2"] == 1.0).all()


def test_one_answer_per_query_warns_naming_the_queries(bm25, backend, topics):
    plain = bm25 % 3 >> Concatenator() >> Reader(backend)
    with pytest.warns(UserWarning, match=r"8 of 8 queries have fewer than two responses.*'q1', 'q2'"):
        preferences = (plain >> COV1())(topics)
    assert len(preferences) == 0


def test_context_axiom_without_context_warns_naming_the_queries(backend, topics):
    no_passages = pt.apply.generic(lambda topics: topics.assign(qcontext=""))
    sampler = MultiGenerator(no_passages >> SamplingReader(backend, num_responses=2))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        preferences = (sampler >> CONS2() >> COV1())(topics.head(2))
    messages = [str(w.message) for w in caught if issubclass(w.category, UserWarning)]
    context_warnings = [m for m in messages if "read the retrieved context" in m]
    assert len(context_warnings) == 1 and "'q1', 'q2'" in context_warnings[0] and "CONS2" in context_warnings[0]
    assert (preferences["CONS2"] == 0).all()


def test_best_of_n_ranks_a_response_frame_itself(bm25, backend, topics):
    sampler = bm25 % 3 >> MultiGenerator(Concatenator() >> SamplingReader(backend, num_responses=3))
    responses = sampler(topics.head(3))
    best = BestOfN(MajorityVote(COV1(), CONS2(), CORR1()))(responses)
    ranked = KwikSort(MajorityVote(COV1(), CONS2(), CORR1()))(responses)
    assert best["qanswer"].tolist() == ranked.loc[ranked["rank"] == 0, "qanswer"].tolist()
    assert repr(BestOfN()) == "BestOfN()"
    assert repr(BestOfN(COV1(), method="count")) == "BestOfN(source=COV1(margin_fraction=0.0), method='count')"
    with pytest.raises(ValueError, match="BestOfN.*'rank' or 'score'"):
        BestOfN()(responses)
    with pytest.raises(pt.validate.InputValidationError, match=r"BestOfN\(source='COV1'\)"):
        BestOfN("COV1")(responses)  # a column name needs a preference frame; the error names BestOfN
    for options, problem in [({"method": "bogus"}, "method must be"), ({"seed": -3}, "seed must be a whole number"),
                             ({"seed": "x"}, "seed must be"), ({"pivot": "p"}, "pivot must be one of")]:
        with pytest.raises(ValueError, match=f"BestOfN: {problem}"):
            BestOfN(None, **options)


def test_empty_input_and_bad_generators(backend):
    system = MultiGenerator({"a": Concatenator() >> Reader(backend)})
    empty = system(pd.DataFrame(columns=["qid", "query", "docno", "text"]))
    full = system(pd.DataFrame({"qid": ["1"], "query": ["q"], "docno": ["d1"], "text": ["A passage."]}))
    assert list(empty.columns[:5]) == ["qid", "query", "docno", "qanswer", "qcontext"] and len(empty) == 0
    assert "prompt" in empty.columns and set(empty.columns) <= set(full.columns)  # as far as pt.inspect tells
    assert list(pt.inspect.subtransformers(system)) == ["a"]
    writes_response = MultiGenerator(pt.apply.generic(lambda frame: frame.assign(response="An answer.")))
    topics = pd.DataFrame({"qid": ["1"], "query": ["q"]})
    assert list(writes_response(topics.iloc[:0]).columns) == list(writes_response(topics).columns)
    named = MultiGenerator({"top1": Reader(backend)})
    assert repr(named) == f"MultiGenerator({{'top1': {named.generators['top1']!r}}})"
    with pytest.raises(TypeError, match="MultiGenerator: the generator of 'a' must be a pt.Transformer"):
        MultiGenerator({"a": "not a transformer"})
    with pytest.raises(ValueError, match="MultiGenerator: needs at least one generator"):
        MultiGenerator({})
    no_answers = MultiGenerator({"echo": pt.apply.generic(lambda t: t)})
    with pytest.raises(ValueError, match=r"the generator 'echo' returned no answers"):
        no_answers(pd.DataFrame({"qid": ["1"], "query": ["q"]}))
    with pytest.raises(ValueError, match="^SamplingReader: num_responses must be a whole number >= 1, not 0$"):
        SamplingReader(backend, num_responses=0)


def test_rag_module_imports_cheaply_and_inspects():
    script = (
        "import sys\n"
        "import pyterrier_rag_axioms.pipelines as rag\n"
        "heavy = [m for m in ('pyterrier_rag', 'spacy', 'torch', 'transformers') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
        "print('ok')\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr
    ranking_columns = ["qid", "query", "docno", "qanswer", "score", "rank", "qcontext", "prompt"]
    assert pt.inspect.transformer_outputs(BestOfN(), ranking_columns) == [
        "qid", "query", "docno", "qanswer", "qcontext", "prompt",
    ]
    with pytest.raises(pt.validate.InputValidationError):
        pt.inspect.transformer_outputs(BestOfN(), ["qid", "query"])


def test_answers_are_judged_against_the_users_query_not_a_rewrite(bm25, backend, topics):
    rewrite = pt.apply.generic(
        lambda frame: pt.model.push_queries(frame, keep_original=True).assign(query=lambda f: f["query_0"] + " facts")
    )
    reader = Reader(backend)
    inside = MultiGenerator({"plain": bm25 % 2 >> Concatenator() >> reader,
                             "rewritten": rewrite >> bm25 % 2 >> Concatenator() >> reader})(topics.head(2))
    before = (rewrite >> bm25 % 2 >> MultiGenerator({"a": Concatenator() >> reader}))(topics.head(2))
    expected = dict(zip(topics["qid"], topics["query"]))
    for answers in (inside, before):
        assert answers["query"].tolist() == answers["qid"].map(expected).tolist()
    assert len(COV1()(inside)) == 2  # one query text per qid: the systems' answers are compared


def test_multigenerator_reads_passage_records_and_says_where_it_cannot_follow_passages(bm25, backend, topics):
    passages = [{"docno": "d1", "text": "First."}, {"docno": "d2", "text": "Second."}]
    records = topics.head(2).assign(qcontext=[passages] * 2)
    assert MultiGenerator({"r": Reader(backend)})(records)["qcontext"].tolist() == [("First.", "Second.")] * 2
    inner = bm25 % 2 >> Concatenator() >> Reader(backend)
    wrapped = pt.apply.generic(lambda frame: inner(frame))  # one stage, as a cache or .parallel makes it
    with pytest.warns(UserWarning, match=r"no passages came through to the answers of the generator 'w' for 2 "):
        assert MultiGenerator({"w": wrapped})(topics.head(2))["qcontext"].isna().all()
    rewritten = pt.apply.generic(lambda frame: frame.assign(qcontext=frame["qcontext"].str.upper()))
    cut = MultiGenerator({"cut": bm25 % 2 >> Concatenator() >> rewritten >> Reader(backend)})
    with pytest.warns(UserWarning, match=r"the context of the answers of the generator 'cut' for 2 queries .* is "
                                         r"the prompt's context string as one passage"):
        contexts = cut(topics.head(2))["qcontext"]
    assert [len(context) for context in contexts] == [1, 1] and contexts[0][0].isupper()
    failing = MultiGenerator({"broken": bm25 % 2 >> Reader(backend)})  # a Reader needs a qcontext
    with pytest.raises(Exception) as raised:
        failing(topics.head(1))
    assert any(re.search(r"in the generator 'broken', stage (\d) of \1: .*Reader", note)
               for note in raised.value.__notes__), raised.value.__notes__
