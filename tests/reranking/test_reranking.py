"""KwikSort, the counting reranker and AxiomaticReranker: orders, ties, determinism, pt.Experiment."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pyterrier as pt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyterrier_rag_axioms import CORR1, COV1
from pyterrier_rag_axioms.aggregation import Cascade, MajorityVote
from pyterrier_rag_axioms.axioms._base import FeatureAxiom
from pyterrier_rag_axioms.frames import ResponseTable
from pyterrier_rag_axioms.reranking import (
    PIVOTS,
    RESULT_COLUMNS,
    AxiomaticReranker,
    KwikSort,
    PreferenceCountReranker,
)


def _responses(sizes: dict[str, int]) -> pd.DataFrame:
    rows = [
        {"qid": qid, "query": f"query {qid}", "docno": f"d{i}", "response": f"Response {i} of {qid}."}
        for qid, size in sizes.items()
        for i in range(size)
    ]
    return pd.DataFrame(rows, columns=["qid", "query", "docno", "response"])


def _preferences(qid: str, order: list[str], listed: list[tuple[str, str]]) -> pd.DataFrame:
    """A preference frame of the listed pairs, preferring by position in ``order`` (earlier is better)."""
    position = {docno: i for i, docno in enumerate(order)}
    return pd.DataFrame(
        {
            "qid": qid,
            "query": f"query {qid}",
            "docno_a": [a for a, _ in listed],
            "docno_b": [b for _, b in listed],
            "response_a": [f"text of {a}" for a, _ in listed],
            "response_b": [f"text of {b}" for _, b in listed],
            "pref": [float(np.sign(position[b] - position[a])) for a, b in listed],
        }
    )


@st.composite
def total_orders(draw):
    """A hidden total order of n responses and its preference frame, with pairs listed in any order and orientation."""
    n = draw(st.integers(2, 9))
    docnos = [f"r{i}" for i in range(n)]
    order = draw(st.permutations(docnos))
    pairs = [(docnos[i], docnos[j]) for i in range(n) for j in range(i + 1, n)]
    flips = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    listed = draw(st.permutations([(b, a) if flip else (a, b) for (a, b), flip in zip(pairs, flips)]))
    return order, _preferences("q", order, listed)


@settings(max_examples=60, deadline=None)
@given(total_orders(), st.sampled_from(PIVOTS), st.integers(0, 2**16))
def test_kwiksort_returns_a_consistent_total_order(case, pivot, seed):
    order, frame = case
    result = KwikSort("pref", pivot=pivot, seed=seed)(frame)
    assert result["docno"].tolist() == order
    assert result["rank"].tolist() == list(range(len(order)))
    assert result["score"].is_monotonic_decreasing and result["score"].is_unique


@settings(max_examples=30, deadline=None)
@given(total_orders())
def test_count_reranker_returns_a_consistent_total_order(case):
    order, frame = case
    result = PreferenceCountReranker("pref")(frame)
    assert result["docno"].tolist() == order
    n = len(order)
    assert result["score"].tolist() == [n - 1 - 2 * rank for rank in range(n)]
    assert (result["wins"] + result["losses"] == n - 1).all()


def _cyclic() -> pd.DataFrame:
    """Preferences with cycles (a > b > c > a, and more), where the pivot choice matters."""
    rng = np.random.default_rng(7)
    docnos = [f"r{i}" for i in range(8)]
    listed = [(docnos[i], docnos[j]) for i in range(8) for j in range(i + 1, 8)]
    frame = _preferences("q", docnos, listed)
    frame["pref"] = rng.choice([-1.0, 0.0, 1.0], size=len(frame))
    return frame


def test_kwiksort_is_deterministic_for_a_seed():
    frame = _cyclic()
    orders = {
        seed: [KwikSort("pref", pivot="random", seed=seed)(frame)["docno"].tolist() for _ in range(3)]
        for seed in range(6)
    }
    for runs in orders.values():
        assert runs[0] == runs[1] == runs[2]
    assert len({tuple(runs[0]) for runs in orders.values()}) > 1  # the seed does change the pivots


def test_other_queries_never_change_a_ranking():
    frame = _cyclic()
    other = _cyclic().assign(qid="other", pref=lambda f: -f["pref"])
    alone = KwikSort("pref", seed=3)(frame)
    together = KwikSort("pref", seed=3)(pd.concat([other, frame], ignore_index=True))
    assert together["qid"].drop_duplicates().tolist() == ["other", "q"]
    assert together[together["qid"] == "q"]["docno"].tolist() == alone["docno"].tolist()


def test_ties_and_missing_pairs_fall_back_to_input_order():
    listed = [("r0", "r1"), ("r0", "r2"), ("r1", "r2"), ("r2", "r3")]
    frame = _preferences("q", ["r0", "r1", "r2", "r3"], listed).assign(pref=0.0)
    for pivot in PIVOTS:
        assert KwikSort("pref", pivot=pivot)(frame)["docno"].tolist() == ["r0", "r1", "r2", "r3"]
    # one decisive pair (r3 over r0 via a swapped row); r3 never meets r1, r2 elsewhere
    frame = pd.concat([frame, _preferences("q", ["r3", "r0"], [("r3", "r0")])], ignore_index=True)
    result = KwikSort("pref", pivot="first")(frame)
    assert result["docno"].tolist() == ["r3", "r0", "r1", "r2"]
    counted = PreferenceCountReranker("pref")(frame)
    assert counted["docno"].tolist() == ["r3", "r1", "r2", "r0"]
    assert counted["score"].tolist() == [1.0, 0.0, -0.5, -1.0]  # r1, r2 tie at 0: r2 sits just below


def test_input_rank_or_score_is_the_original_order():
    responses = _responses({"q": 4})
    tie = CORR1()  # no response cites: all ties
    ranked = responses.assign(rank=[3, 1, 0, 2])
    assert KwikSort(tie)(ranked)["docno"].tolist() == ["d2", "d1", "d3", "d0"]
    scored = responses.assign(score=[0.1, 0.7, 0.7, 0.9])
    assert KwikSort(tie)(scored)["docno"].tolist() == ["d3", "d1", "d2", "d0"]
    assert PreferenceCountReranker(tie)(scored)["docno"].tolist() == ["d3", "d1", "d2", "d0"]
    assert KwikSort(tie)(responses)["docno"].tolist() == ["d0", "d1", "d2", "d3"]
    with pytest.raises(TypeError, match=r"KwikSort\(CORR1.*column 'rank' must hold numbers, but row 1"):
        KwikSort(tie)(responses.assign(rank=["1", "x", "2", "3"]))


@pytest.mark.parametrize("source", ["COV1", MajorityVote("COV1", "CORR1")], ids=["column", "combinator"])
def test_column_sources_need_a_preference_frame_also_when_it_is_empty(source):
    responses = _responses({"pair": 2})
    for reranker in (KwikSort(source), PreferenceCountReranker(source), AxiomaticReranker(source)):
        for frame in (responses, responses.iloc[:0]):  # validation comes first, however many rows
            with pytest.raises(pt.validate.InputValidationError, match=f"{type(reranker).__name__}.*COV1"):
                reranker(frame)  # named as called, also where AxiomaticReranker delegates to KwikSort
        inputs = pt.inspect.transformer_inputs(reranker)
        assert all({"docno_a", "docno_b", "COV1"} <= set(columns) for columns in inputs), inputs
    with pytest.raises(pt.validate.InputValidationError, match="COV1"):
        MajorityVote("COV1", "CORR1")(responses.iloc[:0])


def test_zero_and_one_response_per_query():
    responses = _responses({"single": 1, "pair": 2})
    for reranker in (KwikSort(CORR1()), PreferenceCountReranker(CORR1()), AxiomaticReranker(COV1())):
        result = reranker(responses)
        assert result["qid"].tolist() == ["single", "pair", "pair"]
        assert result["rank"].tolist() == [0, 0, 1]
        empty = reranker(responses.iloc[:0])
        assert len(empty) == 0
        assert list(empty.columns)[:6] == RESULT_COLUMNS
    empty_pairs = KwikSort("pref")(_preferences("q", ["a"], []))
    assert list(empty_pairs.columns) == RESULT_COLUMNS


class RecordingLength(FeatureAxiom):
    """Prefer longer responses, and record every pair asked for."""

    short_name = "LEN"

    def __init__(self):
        super().__init__()
        self.asked: list[tuple[str, str]] = []
        self.valued: list[str] = []

    def response_values(self, table: ResponseTable) -> np.ndarray:
        self.valued.extend(table.responses["docno"])
        return table.responses["response"].str.len().to_numpy(dtype=float)

    def preferences(self, table: ResponseTable) -> np.ndarray:
        docnos = table.responses["docno"].to_numpy()
        self.asked.extend(zip(docnos[table.a], docnos[table.b]))
        return super().preferences(table)


@pytest.mark.parametrize("pivot", PIVOTS)
def test_kwiksort_asks_each_pair_at_most_once_and_only_what_it_compares(pivot):
    n = 16
    docnos = [f"d{i:02}" for i in range(n)]
    texts = ["x" * (i + 1) for i in range(n)]
    responses = pd.DataFrame({"qid": "q", "query": "query", "docno": docnos, "response": texts})
    if pivot == "random":
        responses = responses.iloc[::-1]
    position = {docno: i for i, docno in enumerate(responses["docno"])}
    axiom = RecordingLength()
    result = KwikSort(axiom, pivot=pivot, seed=1)(responses)
    assert result["docno"].tolist() == [f"d{i:02}" for i in reversed(range(n))]
    unordered = [frozenset(pair) for pair in axiom.asked]
    assert len(unordered) == len(set(unordered))
    # asked in input order, as a preference frame lists the pair
    assert all(position[a] < position[b] for a, b in axiom.asked)
    if pivot == "middle":
        assert len(unordered) < n * (n - 1) // 2
    assert sorted(axiom.valued) == sorted(docnos)  # each response's value computed once, for all rounds


def test_kwiksort_over_an_axiom_sorts_by_its_values(sample_responses):
    """COV1 (margin 0) is a weak order: KwikSort gives the stable sort by value, ties in input order."""
    values = COV1().values(sample_responses)
    expected = values.assign(position=range(len(values))).sort_values(
        ["COV1_value", "position"], ascending=[False, True], kind="mergesort"
    )
    result = KwikSort(COV1(), pivot="random", seed=5)(sample_responses)
    for qid, group in result.groupby("qid", sort=False):
        assert group["docno"].tolist() == expected[expected["qid"] == qid]["docno"].tolist()


def test_response_frame_and_preference_frame_give_the_same_ranking(sample_responses):
    vote = MajorityVote(COV1(), CORR1(), Cascade(CORR1(name="C"), COV1(name="V")))
    before = sample_responses.copy()
    direct = KwikSort(vote, seed=2)(sample_responses)
    pd.testing.assert_frame_equal(sample_responses, before)
    from_pairs = KwikSort(vote.name, seed=2)(vote(sample_responses))
    computed = KwikSort(vote, seed=2)(COV1()(sample_responses))  # the vote's column is computed first
    assert direct["docno"].tolist() == from_pairs["docno"].tolist() == computed["docno"].tolist()
    assert list(direct.columns) == [*RESULT_COLUMNS, "context"]
    assert direct["context"].iloc[0] == tuple(sample_responses["context"].iloc[0])
    counted = AxiomaticReranker(vote, method="count")(sample_responses)
    assert counted["docno"].tolist() == PreferenceCountReranker(vote.name)(vote(sample_responses))["docno"].tolist()


def test_axiomatic_reranker_delegates():
    responses = _responses({"q": 3}).assign(response=["A [1].", "B. C.", "D [2]. E."])
    assert AxiomaticReranker(CORR1())(responses).equals(KwikSort(CORR1())(responses))
    assert AxiomaticReranker(CORR1(), method="count")(responses).equals(PreferenceCountReranker(CORR1())(responses))
    assert AxiomaticReranker(CORR1())(responses)["docno"].tolist() == ["d0", "d2", "d1"]
    counting = AxiomaticReranker(CORR1(), method="count")
    assert repr(counting) == "AxiomaticReranker(CORR1(margin_fraction=0.1), method='count')"
    assert repr(KwikSort("pref", pivot="first")) == "KwikSort('pref', pivot='first')"


def test_errors_name_the_reranker():
    responses = _responses({"q": 2})
    with pytest.raises(ValueError, match="KwikSort: pivot must be one of 'first', 'middle', 'last', 'random'"):
        KwikSort("pref", pivot="best")
    with pytest.raises(ValueError, match="AxiomaticReranker: method must be"):
        AxiomaticReranker(CORR1(), method="borda")
    with pytest.raises(TypeError, match="PreferenceCountReranker: the source of preferences must be"):
        PreferenceCountReranker(42)
    with pytest.raises(pt.validate.InputValidationError, match=r"KwikSort\('pref'.*'docno_a', 'docno_b', 'pref'"):
        KwikSort("pref")(responses)
    with pytest.raises(pt.validate.InputValidationError, match=r"KwikSort\('other'.*missing_columns=\['other'\]"):
        KwikSort("other")(_preferences("q", ["a", "b"], [("a", "b")]))
    reads = r"MajorityVote\(pref,CORR1\) reads preference columns \['pref'\]"
    with pytest.raises(pt.validate.InputValidationError, match=reads):
        KwikSort(MajorityVote("pref", CORR1()))(responses)
    with pytest.raises(ValueError, match="docno 'd0' occurs more than once"):
        KwikSort(CORR1())(pd.concat([responses, responses]))


# --- evaluation -----------------------------------------------------------------------------------


def test_output_is_evaluated_by_pt_experiment_with_graded_qrels():
    responses = _responses({"q1": 5, "q2": 4})
    rng = np.random.default_rng(0)
    qrels = responses[["qid", "docno"]].assign(label=rng.permutation([0, 1, 2, 3, 4, 0, 1, 2, 3]))
    # preferences that follow the labels, and the reverse
    pairs = []
    for qid, group in qrels.groupby("qid"):
        order = group.sort_values("label", ascending=False, kind="mergesort")["docno"].tolist()
        listed = [(a, b) for i, a in enumerate(order) for b in order[i + 1 :]]
        pairs.append(_preferences(qid, order, listed))
    frame = pd.concat(pairs, ignore_index=True)
    reversed_frame = frame.assign(pref=-frame["pref"])
    results = pt.Experiment(
        [KwikSort("pref")(frame), KwikSort("pref")(reversed_frame), PreferenceCountReranker("pref")(frame)],
        responses[["qid", "query"]].drop_duplicates(),
        qrels,
        eval_metrics=["ndcg_cut_10", "ndcg"],
        names=["kwiksort", "reversed", "count"],
    ).set_index("name")
    assert results.loc["kwiksort", "ndcg_cut_10"] == pytest.approx(1.0)
    assert results.loc["count", "ndcg"] == pytest.approx(1.0)
    assert results.loc["reversed", "ndcg_cut_10"] < 0.9


def test_pt_experiment_runs_an_axiomatic_pipeline(sample_responses):
    qrels = sample_responses[["qid", "docno"]].assign(label=[i % 3 for i in range(len(sample_responses))])
    pipeline = COV1() >> CORR1() >> KwikSort(MajorityVote("COV1", "CORR1", min_decisive_share=0.0))
    results = pt.Experiment(
        [pipeline, AxiomaticReranker(COV1(), method="count")],
        sample_responses,
        qrels,
        eval_metrics=["ndcg_cut_10"],
        names=["pipeline", "count"],
    )
    assert results["ndcg_cut_10"].between(0.0, 1.0).all()
    # the ranking keeps the responses' context, which the preference frame carried
    assert pt.inspect.transformer_outputs(pipeline, list(sample_responses.columns)) == [*RESULT_COLUMNS, "context"]


def test_real_trec_rag_topic_is_reranked(shared_data):
    path = shared_data / "trec-rag-2024" / "nugget_assignment.dev.jsonl"
    with path.open() as lines:
        records = [json.loads(line) for line in lines]
    qid = records[0]["qid"]
    rows = [record for record in records if record["qid"] == qid][:8]
    responses = pd.DataFrame(
        {
            "qid": qid,
            "query": [row["query"] for row in rows],
            "docno": [row["run_id"] for row in rows],
            "response": [row["answer_text"] for row in rows],
        }
    )
    support = {"support": 1.0, "partial_support": 0.5, "not_support": 0.0}
    qrels = responses[["qid", "docno"]].assign(
        label=[round(4 * np.mean([support[n["assignment"]] for n in row["nuggets"]])) for row in rows]
    )
    result = AxiomaticReranker(MajorityVote(CORR1(), COV1(), min_decisive_share=0.0))(responses)
    assert sorted(result["docno"]) == sorted(responses["docno"])
    evaluation = pt.Experiment([result], responses[["qid", "query"]].iloc[:1], qrels, eval_metrics=["ndcg_cut_10"])
    assert 0.0 < evaluation["ndcg_cut_10"].iloc[0] <= 1.0


# --- the command line -----------------------------------------------------------------------------


def test_cli_rerank_writes_a_trec_run_and_jsonl(tmp_path, capsys):
    from pyterrier_rag_axioms.cli import main

    responses = _responses({"q1": 3, "q2": 2}).assign(
        response=["One. Two [1].", "One [1]. Two [2].", "None here.", "Plain.", "Cited [1]."]
    )
    path = tmp_path / "responses.jsonl"
    responses.to_json(path, orient="records", lines=True)
    run = tmp_path / "out" / "ranking.run"
    run.parent.mkdir()  # an output's folder must exist (the command refuses to guess one)
    assert main(["rerank", str(path), "--axioms", "CORR1", "--method", "count", "--output", str(run)]) == 0
    printed = capsys.readouterr().out
    assert "[q1] query q1" in printed and "Ranking written to" in printed
    lines = [line.split() for line in run.read_text().splitlines()]
    assert [(qid, docno, rank) for qid, _, docno, rank, _, _ in lines] == [
        ("q1", "d1", "0"), ("q1", "d0", "1"), ("q1", "d2", "2"), ("q2", "d1", "0"), ("q2", "d0", "1"),
    ]
    assert {line[1] for line in lines} == {"Q0"} and {line[5] for line in lines} == {"rag-axioms"}
    assert pt.io.read_results(str(run))["docno"].tolist() == ["d1", "d0", "d2", "d1", "d0"]

    jsonl = tmp_path / "ranking.jsonl"
    arguments = ["rerank", str(path), "--axioms", "CORR1,COH1", "--combine", "weighted", "--weights", "3,1"]
    assert main([*arguments, "--pivot", "first", "--output", str(jsonl)]) == 0
    ranking = pd.read_json(jsonl, lines=True, dtype={"qid": str, "docno": str})
    assert list(ranking.columns) == RESULT_COLUMNS
    assert ranking["docno"].tolist()[:3] == ["d1", "d0", "d2"]


def test_cli_rerank_rejects_bad_options(tmp_path, capsys):
    from pyterrier_rag_axioms.cli import main

    assert main(["rerank", "--weights", "1"]) == 2
    assert "rag-axioms rerank: error: --weights needs --combine weighted" in capsys.readouterr().err
    assert main(["rerank", "--axioms", "CORR1", "--combine", "weighted", "--weights", "1,2"]) == 2
    assert "2 weights for 1 members" in capsys.readouterr().err


def test_cli_ranks_and_judges_by_a_preference_model(tmp_path, capsys):
    from pyterrier_rag_axioms.cli import main
    from pyterrier_rag_axioms.preference import PreferenceModel

    responses = _responses({"q1": 3}).assign(
        query="why is the sky blue",
        response=["The sky is blue because air scatters blue sunlight [0].", "Paris is in France.",
                  "I cannot say."],
    )
    path = tmp_path / "responses.jsonl"
    responses.to_json(path, orient="records", lines=True)
    saved = tmp_path / "model.json"
    PreferenceModel(axioms=["LEN1"], coefficients=[1.0]).save(saved)
    ranking = tmp_path / "ranking.jsonl"
    assert main(["rerank", str(path), "--model", str(saved), "--method", "count", "--output", str(ranking)]) == 0
    ranked = pd.read_json(ranking, lines=True, dtype={"docno": str})["docno"].tolist()
    assert ranked == ["d0", "d1", "d2"]  # the longest first
    assert f"Ranked by count over the preferences of the preference model {saved}" in capsys.readouterr().out
    assert main(["rerank", str(path), "--model", "nuggets", "--output", str(ranking)]) == 0
    assert pd.read_json(ranking, lines=True, dtype={"docno": str})["docno"].iloc[0] == "d0"  # the answer first

    judged = tmp_path / "pairs.jsonl"
    assert main([str(path), "--model", "nuggets", "--output", str(judged)]) == 0
    pairs = pd.read_json(judged, lines=True)
    assert list(pairs.columns[-2:]) == ["PreferenceModel", "PreferenceModel_probability"]
    assert pairs["PreferenceModel_probability"].between(0, 1).all()
    assert main(["rerank", str(path), "--model", "nuggets", "--axioms", "LEN1"]) == 2
    assert "leave out --axioms, --combine, --weights and --min-decisive-share" in capsys.readouterr().err
    assert main(["rerank", str(path), "--model", "nowhere.json"]) == 2
    assert "neither a shipped model (crowd, nuggets) nor a file" in capsys.readouterr().err


def test_verbose_shows_progress_of_the_comparisons(capsys):
    frame = _cyclic()
    KwikSort("pref", verbose=True)(frame)
    PreferenceCountReranker("pref", verbose=True)(frame)
    err = capsys.readouterr().err
    assert "KwikSort('pref'" in err and "PreferenceCountReranker('pref')" in err and "pair" in err
    KwikSort("pref")(frame)
    assert capsys.readouterr().err == ""
