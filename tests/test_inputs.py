"""Each response is judged on its own inputs, and no bad input passes silently.

- Preference frames carry each response's own context (``context_a``, ``context_b``): CONS1 and
  CONS2 judge every response against its own passages, so row order and other responses never
  change a preference, and ``values()``, the preference frame and KwikSort agree.
- Bad input (missing ids, two query texts for one qid, one docno with two texts, malformed
  contexts, malformed files) is an error that names the row, or the file and line.
- Files: ids stay as written, TSV cells are text, writes are atomic, TREC run files refuse ids
  with whitespace; the command line reports bad input on one line with exit status 2.
"""

from __future__ import annotations

import gzip
import json
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyterrier_rag_axioms as pra
from pyterrier_rag_axioms.cli import main
from pyterrier_rag_axioms.cli.rerank import write_ranking
from pyterrier_rag_axioms.frames import FrameError, preference_frame
from pyterrier_rag_axioms.io import read_responses, write_frame
from pyterrier_rag_axioms.judgments import load_crowdrag_judgments, load_nugget_assignments, load_topics
from pyterrier_rag_axioms.reranking import AxiomaticReranker, KwikSort
from pyterrier_rag_axioms.tools.text import TextAnalysis, TextAnalyzer
from pyterrier_rag_axioms.tools.text.long_texts import PIECE_LENGTH, split_text

SKY = "Rayleigh scattering makes the sky blue."
OCEAN = "The ocean is deep and salty."


def _two_systems() -> pd.DataFrame:
    """Two responses to one query, each with the passages its own system retrieved (the issue's example)."""
    return pd.DataFrame(
        {
            "qid": ["1", "1"],
            "query": ["q", "q"],
            "docno": ["A", "B"],
            "response": [SKY, OCEAN],
            "context": [
                ["Rayleigh scattering makes the sky blue because short wavelengths scatter more."],
                ["The ocean is deep and salty. Fish live in the ocean."],
            ],
        }
    )


def _preference_of(frame: pd.DataFrame, column: str, a: str, b: str) -> float:
    """The preference for ``a`` over ``b`` in a preference frame, whichever orientation it lists."""
    forward = frame[(frame["docno_a"] == a) & (frame["docno_b"] == b)]
    if len(forward):
        return float(forward[column].iloc[0])
    return -float(frame[(frame["docno_a"] == b) & (frame["docno_b"] == a)][column].iloc[0])


# --- per-response context -------------------------------------------------------------------------


def test_pairs_carry_each_responses_own_context():
    pairs = preference_frame(_two_systems())
    assert pairs["context_a"].iloc[0] == _two_systems()["context"].iloc[0]
    assert pairs["context_b"].iloc[0] == _two_systems()["context"].iloc[1]
    assert "context" not in pairs.columns


@pytest.mark.parametrize("axiom", [pra.CONS1, pra.CONS2], ids=["CONS1", "CONS2"])
def test_context_axioms_do_not_depend_on_row_order(axiom):
    frame = _two_systems()
    forward = axiom()(frame)
    backward = axiom()(frame.iloc[::-1])
    assert _preference_of(forward, axiom.short_name, "A", "B") == _preference_of(backward, axiom.short_name, "A", "B")
    values = axiom().values(frame)[f"{axiom.short_name}_value"].to_numpy()
    expected = pra.compare_with_margin(values[:1], values[1:], margin_fraction=axiom.default_margin_fraction)[0]
    assert _preference_of(forward, axiom.short_name, "A", "B") == expected


def test_cons2_judges_each_response_against_its_own_passages():
    # each response copies its own passages: both overlap fully, so neither is preferred
    frame = _two_systems().assign(context=[[SKY], [OCEAN]])
    assert pra.CONS2()(frame)["CONS2"].tolist() == [0.0]
    assert pra.CONS2().values(frame)["CONS2_value"].tolist() == pytest.approx([1.0, 1.0])


def test_kwiksort_reads_each_responses_own_context():
    # A repeats its one passage; B repeats one of its three passages: A overlaps more with its own
    frame = _two_systems()
    frame["context"] = [[SKY], [OCEAN, "Fish live in the ocean.", "Whales too."]]
    for order in (frame, frame.iloc[::-1]):
        assert KwikSort(pra.CONS2(), pivot="first")(order)["docno"].tolist() == ["A", "B"]
        pairs = pra.CONS2()(order)
        assert KwikSort("CONS2", pivot="first")(pairs)["docno"].tolist() == ["A", "B"]


def test_crowdrag_judgments_carry_both_contexts(shared_data):
    crowd = shared_data / "crowdrag-25"
    judgments = load_crowdrag_judgments(crowd / "ratings.dev.jsonl.gz", crowd / "responses.dev.jsonl.gz")
    assert {"context_a", "context_b"} <= set(judgments.columns) and "context" not in judgments.columns
    assert judgments["context_b"].map(len).eq(20).all()


# Small vocabulary, so that the shared analyzer parses each text once across examples.
_SENTENCES = (
    "The aurora glows green.",
    "Charged particles from the Sun hit the atmosphere.",
    "Oxygen emits green light at night.",
    "The Moon has no aurora.",
    "Solar wind carries charged particles.",
    "Nitrogen gives a purple glow.",
)
_texts = st.lists(st.sampled_from(_SENTENCES), min_size=1, max_size=2, unique=True).map(" ".join)
_responses = st.tuples(_texts, st.lists(_texts, min_size=1, max_size=2, unique=True))


def _frame(responses: list[tuple[str, list[str]]], docnos: list[str]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "qid": "q",
            "query": "Why does the aurora glow?",
            "docno": docnos,
            "response": [response for response, _ in responses],
            "context": [context for _, context in responses],
        }
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(_responses, min_size=2, max_size=5),
    st.lists(_responses, min_size=0, max_size=2),
    st.randoms(use_true_random=False),
    st.integers(0, 1000),
)
def test_preferences_depend_only_on_the_pair(responses, added, random, seed):
    axiom = pra.CONS2(margin_fraction=0.0)
    docnos = [f"d{i}" for i in range(len(responses))]
    frame = _frame(responses, docnos)
    pairs = axiom(frame)
    values = dict(zip(docnos, axiom.values(frame)["CONS2_value"]))

    shuffled = frame.sample(frac=1.0, random_state=random.randint(0, 2**31))
    more = pd.concat([shuffled, _frame(added, [f"e{i}" for i in range(len(added))])], ignore_index=True)
    more = more.sample(frac=1.0, random_state=random.randint(0, 2**31))
    other = axiom(more)
    for a, b in zip(pairs["docno_a"], pairs["docno_b"]):
        preference = _preference_of(pairs, "CONS2", a, b)
        assert _preference_of(other, "CONS2", a, b) == preference
        expected = pra.compare_with_margin(np.array([values[a]]), np.array([values[b]]), margin_fraction=0.0)[0]
        assert preference == expected

    # with margin 0 the values form a weak order, which KwikSort sorts, from responses or from pairs
    ranking = KwikSort(axiom, seed=seed)(frame)
    ranked_values = [values[docno] for docno in ranking["docno"]]
    assert ranked_values == sorted(ranked_values, reverse=True)
    assert KwikSort("CONS2", seed=seed)(pairs)["docno"].tolist() == ranking["docno"].tolist()


# --- one request, one response per docno ----------------------------------------------------------


def test_two_query_texts_for_one_qid_is_an_error():
    frame = _two_systems().assign(query=["Why is the sky blue?", "Why is the sea salty?"])
    with pytest.raises(FrameError, match=r"row 1: qid '1' has two query texts: 'Why is the sky blue\?' and "
                       r"'Why is the sea salty\?'.*\(first in row 0\)"):
        pra.COV3()(frame)
    with pytest.raises(ValueError, match="qid '1' has two query texts"):
        pra.CORR1().values(frame)
    pairs = preference_frame(pd.concat([_two_systems(), _two_systems().assign(docno=["C", "D"])]))
    pairs.loc[3, "query"] = "another question"
    with pytest.raises(FrameError, match="row 3: qid '1' has two query texts: 'q' and 'another question'.*row 0"):
        pra.CORR1()(pairs)


def test_one_docno_with_two_texts_in_a_preference_frame_is_an_error():
    pairs = preference_frame(pd.concat([_two_systems(), _two_systems().assign(docno=["C", "D"])]))
    pairs.loc[pairs["docno_b"] == "B", "response_b"] = "A different text for B."
    with pytest.raises(FrameError, match=r"docno 'B' of qid '1' has two response texts: 'The ocean is deep"):
        pra.CORR1()(pairs)
    pairs = preference_frame(_two_systems())
    extra = pairs.assign(docno_a="B", docno_b="C", response_a=OCEAN)
    extra["context_a"] = pd.Series([["Another passage."]], dtype=object)
    with pytest.raises(FrameError, match="docno 'B' of qid '1' has two contexts"):
        pra.CONS2()(pd.concat([pairs, extra], ignore_index=True))


def test_a_pair_of_a_response_with_itself_is_an_error():
    pairs = preference_frame(_two_systems()).assign(docno_b="A", response_b=SKY)
    with pytest.raises(FrameError, match="docno_a and docno_b are the same response 'A'"):
        pra.CORR1()(pairs)


def test_preference_frame_with_one_context_column_is_an_error():
    pairs = preference_frame(_two_systems()).drop(columns=["context_b"])
    with pytest.raises(FrameError, match="has column 'context_a' but not 'context_b'"):
        pra.CONS2()(pairs)
    old = pairs.drop(columns=["context_a"])
    old["context"] = pd.Series([["passage"]], dtype=object)
    with pytest.raises(FrameError, match="not one column 'context'"):
        pra.CONS2()(old)


@pytest.mark.parametrize("missing", [None, np.nan, pd.NA, ""])
@pytest.mark.parametrize("column", ["qid", "docno"])
def test_missing_ids_are_errors_naming_the_row(column, missing):
    frame = _two_systems().astype({column: object})
    frame.loc[1, column] = missing
    with pytest.raises(FrameError, match=rf"row 1: {column} is (missing|empty)"):
        pra.CORR1()(frame)


def test_missing_ids_in_a_preference_frame_are_errors_naming_the_row():
    pairs = preference_frame(_two_systems()).astype({"docno_b": object})
    pairs.loc[0, "docno_b"] = None
    with pytest.raises(FrameError, match=r"row 0: docno_b is missing \(None\)"):
        pra.CORR1()(pairs)


@pytest.mark.parametrize(
    ("context", "message"),
    [(["ok", None], "context passage 1 must be a string, not NoneType"), (["ok", 3], "passage 1 .* not int 3"),
     ([np.nan], "passage 0 must be a string, not float nan"), ({"a": 1}, "not dict")],
)
def test_context_entries_that_are_not_strings_are_errors(context, message):
    frame = _two_systems()
    frame["context"] = [["fine"], context]
    with pytest.raises(TypeError, match=rf"row 1: column 'context' \(qid '1'\): .*{message}"):
        pra.CONS2()(frame)


def test_passage_records_are_read_by_their_text():
    frame = _two_systems()
    frame["context"] = [["Paris is the capital of France."], ["Paris is the capital of France."]]
    records = frame.assign(context=[[{"docno": "d1", "text": "Paris is the capital of France."}]] * 2)
    assert pra.CONS2()(records)["CONS2"].tolist() == pra.CONS2()(frame)["CONS2"].tolist()
    assert pra.CONS2()(records)["context_a"].iloc[0] == ["Paris is the capital of France."]
    with pytest.raises(TypeError, match="passage 0 must be a string, not dict"):
        pra.CONS2()(frame.assign(context=[[{"docno": "d1"}]] * 2))


def test_citation_axioms_warn_where_a_context_is_one_string_of_several_lines():
    frame = pd.DataFrame({"qid": "1", "query": "capital of France", "docno": ["a", "b"],
                          "response": ["Paris is the capital [1].", "It is Paris [0]."],
                          "context": ["Paris is the capital.\nFrance is in Europe.", "One passage only."]})
    with pytest.warns(UserWarning, match=r"CORR3 read a citation \[k\] as the k-th passage of the context, but 1 "
                                         r"response has a context of one passage of several lines"):
        pra.CORR3()(frame)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pra.CORR3()(frame.assign(context=[["Paris is the capital.", "France is in Europe."], ["One passage only."]]))
        pra.CONS2()(frame)  # CONS2 reads the context as text: one string is fine


def test_na_context_is_no_context():
    frame = _two_systems()
    frame["context"] = pd.array([pd.NA, pd.NA], dtype=object)
    pairs = pra.CONS2()(frame)
    assert pairs["CONS2"].tolist() == [0.0] and pairs["context_a"].iloc[0] is None


# --- files ----------------------------------------------------------------------------------------


def _jsonl(path, lines: list[str]):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_jsonl_ids_stay_as_written(tmp_path):
    path = _jsonl(tmp_path / "r.jsonl", [
        '{"qid": 1, "query": "q", "docno": 1.50, "response": "One."}',
        '{"qid": 1, "query": "q", "docno": 2, "response": "Two."}',
    ])
    frame = read_responses(path)
    assert frame["qid"].tolist() == ["1", "1"] and frame["docno"].tolist() == ["1.50", "2"]


@pytest.mark.parametrize(
    ("line", "message"),
    [('{"query": "q", "docno": "b", "response": "Two."}', r"r\.jsonl:3: qid is missing"),
     ('{"qid": null, "query": "q", "docno": "b", "response": "Two."}', r"r\.jsonl:3: qid is missing"),
     ('{"qid": "1", "query": "q", "response": "Two."}', r"r\.jsonl:3: docno is missing"),
     ('{"qid": "1", "query": "q", "docno": "a", "response": "Two."}', r"r\.jsonl:3: docno 'a' .*first on line 1"),
     ('{"qid": "1", "query": "other", "docno": "b", "response": "Two."}', r"r\.jsonl:3: qid '1' has two query texts"),
     ('{"qid": "1", "query": "q", "docno": "b", "response": 2}', r"r\.jsonl:3: column 'response' must hold text"),
     ('{"qid": "1", "query": "q", "docno": "b", "response": "Two.", "score": NaN}', r"r\.jsonl:3: NaN is not a JSON"),
     ('{"qid": true, "query": "q", "docno": "b", "response": "Two."}', r"r\.jsonl:3: field 'qid' must be a string")],
)
def test_bad_jsonl_lines_name_file_and_line(tmp_path, line, message):
    path = _jsonl(tmp_path / "r.jsonl", ['{"qid": "1", "query": "q", "docno": "a", "response": "One."}', "", line])
    with pytest.raises(ValueError, match=message):
        read_responses(path)


def test_tsv_cells_are_text_and_errors_name_the_line(tmp_path):
    path = tmp_path / "r.tsv"
    path.write_text('qid\tquery\tdocno\tresponse\tscore\n007\t1984\t01\t42\t0.5\n007\t1984\t02\t"Two\nlines."\t1\n')
    frame = read_responses(path)
    assert frame["qid"].tolist() == ["007", "007"] and frame["query"].tolist() == ["1984", "1984"]
    assert frame["docno"].tolist() == ["01", "02"] and frame["response"].tolist() == ["42", "Two\nlines."]
    assert frame["score"].tolist() == [0.5, 1.0]
    path.write_text("qid\tquery\tdocno\tresponse\n1\tq\ta\tOne.\n\tq\tb\tTwo.\n")
    with pytest.raises(ValueError, match=r"r\.tsv:3: qid is empty"):
        read_responses(path)
    path.write_text("qid\tquery\tdocno\tresponse\n1\tq\ta\tOne.\n1\tq\tb\n")
    with pytest.raises(ValueError, match=r"r\.tsv:3: 3 tab-separated fields, but the header has 4"):
        read_responses(path)


def test_parquet_rows_are_named(tmp_path):
    path = tmp_path / "r.parquet"
    _two_systems().assign(query=["q", "other"]).to_parquet(path)
    with pytest.raises(ValueError, match=r"r\.parquet: row 2: qid '1' has two query texts"):
        read_responses(path)


def test_writes_are_atomic(tmp_path):
    path = tmp_path / "out.parquet"
    write_frame(pd.DataFrame({"x": [1, 2]}), path)
    before = path.read_bytes()
    with pytest.raises(ValueError, match=r"out\.parquet: cannot write the frame as Parquet"):
        write_frame(pd.DataFrame({"x": [1, "two"]}), path)  # pyarrow cannot store mixed int and str
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.parquet"]  # no temporary file left
    jsonl = tmp_path / "out.jsonl.gz"
    write_frame(pd.DataFrame({"x": [1]}), jsonl)
    assert json.loads(gzip.decompress(jsonl.read_bytes())) == {"x": 1}  # compression follows the suffix


def test_parquet_output_stores_mixed_contexts_as_lists(tmp_path):
    frame = _two_systems().assign(context=["one passage", ["two", "passages"]])
    path = tmp_path / "r.parquet"
    write_frame(frame, path)
    assert [list(context) for context in pd.read_parquet(path)["context"]] == [["one passage"], ["two", "passages"]]


def test_trec_run_files_refuse_ids_with_whitespace(tmp_path):
    ranking = KwikSort(pra.CORR1())(_two_systems().assign(docno=["run A", "B"]))
    path = tmp_path / "ranking.run"
    with pytest.raises(ValueError, match="docno 'run A' .* cannot go into a TREC run file"):
        write_ranking(ranking, path, run_name="test")
    assert not path.exists()
    with pytest.raises(ValueError, match="run name 'my run' must be one word"):
        write_ranking(ranking.assign(docno=["A", "B"]), path, run_name="my run")


def test_nan_and_infinity_in_judgment_files_name_file_and_line(tmp_path):
    line = {"qid": "1", "query": "q", "run_id": "r", "answer_text": "A.", "nuggets": [], "response_length": 3}
    path = tmp_path / "nuggets.jsonl"
    path.write_text(json.dumps(line) + "\n" + json.dumps({**line, "run_id": "s", "response_length": float("nan")}))
    with pytest.raises(ValueError, match=r"nuggets\.jsonl:2: NaN is not a JSON number"):
        load_nugget_assignments(path)
    path.write_text(json.dumps(line) + "\n" + json.dumps(line | {"run_id": "s"}).replace("3}", "1e400}"))
    with pytest.raises(ValueError, match=r"nuggets\.jsonl:2: field 'response_length' must be a whole number"):
        load_nugget_assignments(path)


def test_non_utf8_topic_file_names_file_and_line(tmp_path):
    path = tmp_path / "topics.txt"
    path.write_bytes("1\tfirst topic\n2\tcaf\u00e9 latte\n".encode() + "3\tcaf\u00e9\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"topics\.txt:3: not UTF-8 text \(byte 0xe9 at column 6\)"):
        load_topics(path)


def test_kwiksort_refuses_a_negative_seed():
    with pytest.raises(ValueError, match="KwikSort: seed must be a whole number >= 0, not -1"):
        KwikSort("pref", seed=-1)
    with pytest.raises(ValueError, match="AxiomaticReranker: seed must be"):
        AxiomaticReranker(pra.CORR1(), seed=-1)


# --- long texts -----------------------------------------------------------------------------------


def test_split_text_cuts_at_paragraphs_then_sentences_then_whitespace():
    text = ("Short sentence here. " * 30 + "\n\n") * 20
    pieces = split_text(text, 1000)
    assert "".join(pieces) == text and max(map(len, pieces)) <= 1000
    assert all(piece.endswith("\n\n") for piece in pieces[:-1])
    pieces = split_text("One two three. Four five six seven eight nine.", 20)
    assert pieces[0] == "One two three. "
    assert split_text("x" * 45, 20) == ["x" * 20, "x" * 20, "x" * 5]


def test_texts_over_spacys_max_length_are_analysed_in_pieces():
    analyzer = TextAnalyzer()  # its own pipeline: max_length is lowered below
    text = "\n\n".join(
        f"Paragraph {i}. The Eiffel Tower is not in Berlin. Berlin is in Germany. Paris has the Louvre."
        for i in range(600)
    )
    assert len(text) > PIECE_LENGTH
    analyzer.nlp.max_length = PIECE_LENGTH + 1  # spaCy refuses a text this long in one piece
    with pytest.raises(ValueError, match="E088"):
        analyzer.nlp(text)
    analysis = analyzer.analyse([text])[0]
    analyzer.nlp.max_length = len(text)
    whole = TextAnalysis(analyzer.nlp(text))
    assert analysis.text == text
    assert analysis.sentence_texts == whole.sentence_texts
    assert analysis.noun_chunks == whole.noun_chunks and analysis.entities == whole.entities
    assert analysis.entity_polarities == whole.entity_polarities
    assert analysis.entity_polarities["berlin"] == {True, False}  # negspaCy's marks survive the joining


# --- the command line -----------------------------------------------------------------------------


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _assert_one_line_error(status: int, err: str, *parts: str) -> None:
    assert status == 2
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for part in parts:
        assert part in err, err


def test_cli_reports_bad_input_on_one_line(tmp_path, capsys):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    _assert_one_line_error(*_run([str(empty)], capsys)[::2], "empty.jsonl:1: no responses")
    _assert_one_line_error(*_run([str(tmp_path / "nope.jsonl")], capsys)[::2], "nope.jsonl: no such file")
    csv = tmp_path / "r.csv"
    csv.write_text("qid,query,response\n")
    _assert_one_line_error(*_run([str(csv)], capsys)[::2], "r.csv: unknown file format (suffix '.csv')")
    _assert_one_line_error(*_run(["--axioms", ","], capsys)[::2], "--axioms ',' names no axiom")
    _assert_one_line_error(*_run(["--axioms", "NOPE"], capsys)[::2], "unknown axiom 'NOPE'")
    bad = _jsonl(tmp_path / "bad.jsonl", [
        '{"qid": "1", "query": "q", "docno": "a", "response": "One."}',
        '{"qid": "1", "query": "q", "docno": "b", "response": "Two.", "context": ["ok", 7]}',
    ])
    _assert_one_line_error(*_run([str(bad), "--axioms", "CORR1"], capsys)[::2], "bad.jsonl:2: column 'context'")
    _assert_one_line_error(*_run(["rerank", str(bad)], capsys)[::2], "rag-axioms rerank: error: ", "bad.jsonl:2:")
    _assert_one_line_error(*_run(["rerank", "--seed", "-1"], capsys)[::2], "seed must be a whole number >= 0")


def test_cli_checks_the_output_format_before_judging(tmp_path, capsys):
    status, out, err = _run(["--axioms", "CORR1", "--output", str(tmp_path / "prefs.csv")], capsys)
    _assert_one_line_error(status, err, "prefs.csv: unknown file format")
    assert out == ""  # nothing was judged
    status, out, err = _run(["rerank", "--output", str(tmp_path / "r.run"), "--run-name", "my run"], capsys)
    _assert_one_line_error(status, err, "run name 'my run' must be one word")
    assert out == ""


def test_cli_rerank_refuses_ids_with_whitespace_for_trec_output(tmp_path, capsys):
    path = _two_systems().assign(docno=["run A", "B"])
    source = tmp_path / "r.jsonl"
    path.to_json(source, orient="records", lines=True)
    status, out, err = _run(["rerank", str(source), "--axioms", "CORR1", "--output", str(tmp_path / "r.run")], capsys)
    _assert_one_line_error(status, err, "docno 'run A'")
    assert out == "" and not (tmp_path / "r.run").exists()


def test_cli_reads_contexts_given_as_strings_and_lists(tmp_path, capsys):
    source = _jsonl(tmp_path / "mixed.jsonl", [
        json.dumps({"qid": "1", "query": "q", "docno": "A", "response": SKY, "context": SKY}),
        json.dumps({"qid": "1", "query": "q", "docno": "B", "response": OCEAN, "context": [OCEAN, "Fish swim."]}),
    ])
    output = tmp_path / "prefs.parquet"
    status, _, err = _run([str(source), "--axioms", "CONS2", "--output", str(output)], capsys)
    assert status == 0, err
    written = pd.read_parquet(output)
    assert list(written["context_a"].iloc[0]) == [SKY] and list(written["context_b"].iloc[0]) == [OCEAN, "Fish swim."]
    ranking = tmp_path / "ranking.parquet"
    assert _run(["rerank", str(source), "--axioms", "CONS2", "--output", str(ranking)], capsys)[0] == 0
    assert [list(context) for context in pd.read_parquet(ranking)["context"]] in (
        [[SKY], [OCEAN, "Fish swim."]], [[OCEAN, "Fish swim."], [SKY]]
    )


def test_a_failed_run_leaves_the_previous_output(tmp_path, capsys):
    good = _jsonl(tmp_path / "good.jsonl", [
        '{"qid": "1", "query": "q", "docno": "a", "response": "One [1]."}',
        '{"qid": "1", "query": "q", "docno": "b", "response": "Two."}',
    ])
    output = tmp_path / "prefs.jsonl"
    assert _run([str(good), "--axioms", "CORR1", "--output", str(output)], capsys)[0] == 0
    before = output.read_bytes()
    bad = _jsonl(tmp_path / "bad.jsonl", ['{"qid": "1", "query": "q", "docno": "a", "response": null}'])
    assert _run([str(bad), "--axioms", "CORR1", "--output", str(output)], capsys)[0] == 2
    assert output.read_bytes() == before


def test_cli_errors_name_the_option_or_column_on_one_line(tmp_path, capsys):
    source = _jsonl(tmp_path / "r.jsonl", [
        '{"qid": "1", "query": "q", "docno": "a", "response": "One."}',
        '{"qid": "1", "query": "q", "docno": "b", "response": "Two."}',
    ])
    no_response = _jsonl(tmp_path / "nocol.jsonl", ['{"qid": "1", "query": "q", "docno": "a"}'])
    _assert_one_line_error(*_run([str(no_response)], capsys)[::2],
                           "nocol.jsonl: no 'response' column (the file's columns: qid, query, docno)")
    _assert_one_line_error(*_run([str(source), "--axioms", "TREC_RAG_NUGGET"], capsys)[::2],
                           "TREC_RAG_NUGGET is an oracle axiom")
    status, err = _run(["rerank", str(source), "--seed", "1.5"], capsys)[::2]
    _assert_one_line_error(status, err, "rag-axioms rerank: error: argument --seed: invalid int value")
    _assert_one_line_error(*_run([str(source), "--bogus"], capsys)[::2], "unrecognized arguments: --bogus")
    _assert_one_line_error(*_run(["rerank", str(source), "--model", "nuggets", "--min-decisive-share", "5"],
                                 capsys)[::2], "leave out --axioms, --combine, --weights and --min-decisive-share")
    _assert_one_line_error(*_run(["rerank", str(source), "--axioms", "LEN1", "--combine", "cascade",
                                  "--min-decisive-share", "0.3"], capsys)[::2],
                           "--min-decisive-share is for --combine majority, not --combine cascade")
    _assert_one_line_error(*_run(["rerank", str(source), "--axioms", "LEN1", "--method", "count", "--seed", "3"],
                                 capsys)[::2], "--pivot and --seed are KwikSort's")
    _assert_one_line_error(*_run(["runs", str(source), "--combine", "cascade"], capsys)[::2],
                           "--combine and --weights combine the axioms of --axioms: give --axioms too")
    _assert_one_line_error(*_run([str(source), "--axioms", "LEN1", "--cache", str(source)], capsys)[::2],
                           f"--cache {source}: is a file, not a directory")
    (tmp_path / "out.jsonl").mkdir()
    status, out, err = _run([str(source), "--axioms", "LEN1", "--output", str(tmp_path / "out.jsonl")], capsys)
    _assert_one_line_error(status, err, "out.jsonl: is a directory")
    assert out == ""  # nothing was judged
    _assert_one_line_error(*_run(["rerank", str(source), "--output", str(tmp_path / "r.csv")], capsys)[::2],
                           "use a TREC run file (.run, .txt, .trec) or a frame (.json, .jsonl, .parquet, .tsv)")


def test_tsv_errors_name_the_line_where_a_quoted_cell_starts(tmp_path):
    unterminated = tmp_path / "unterminated.tsv"
    unterminated.write_text('qid\tquery\tdocno\tresponse\n1\tQ?\ta\tx y.\n1\tQ?\tb\t"unterminated\n1\tQ?\tc\tz.\n')
    with pytest.raises(ValueError, match=r"unterminated.tsv:3: malformed TSV \(a cell that starts with a double quote"):
        read_responses(unterminated)
    inner = tmp_path / "inner.tsv"
    inner.write_text('qid\tquery\tdocno\tresponse\n1\tQ?\ta\tx y.\n1\tQ?\tb\t"Blue" is a colour.\n')
    with pytest.raises(ValueError, match="inner.tsv:3: malformed TSV"):
        read_responses(inner)
    quoted = tmp_path / "quoted.tsv"  # as spreadsheets and pandas write a cell with quotes, tabs or line breaks
    quoted.write_text('qid\tquery\tdocno\tresponse\n1\tQ?\ta\t"""Blue"" is a\tcolour.\nReally."\n')
    assert read_responses(quoted)["response"].tolist() == ['"Blue" is a\tcolour.\nReally.']


def test_a_byte_order_mark_is_not_part_of_the_first_column(tmp_path):
    tsv, jsonl = tmp_path / "bom.tsv", tmp_path / "bom.jsonl"
    tsv.write_text("\ufeffqid\tquery\tdocno\tresponse\n1\tQ?\ta\tOne.\n", encoding="utf-8")
    jsonl.write_text('\ufeff{"qid": "1", "query": "Q?", "docno": "a", "response": "One."}\n', encoding="utf-8")
    for path in (tsv, jsonl):
        assert read_responses(path)[["qid", "docno"]].values.tolist() == [["1", "a"]]


@pytest.mark.parametrize("name", ["p.parquet.gz", "p.jsonl.gz", "p.tsv.gz", "p.parquet", "p.run.gz"])
def test_outputs_are_readable_and_gzip_names_the_file_within(tmp_path, name):
    frame = _two_systems().assign(score=[2.0, 1.0], rank=[0, 1])
    path = tmp_path / name
    if ".run" in name:
        write_ranking(frame, path, run_name="r")
        assert gzip.open(path, "rt").read().splitlines()[0] == "1 Q0 A 0 2.0 r"
    else:
        write_frame(frame, path)
        assert read_responses(path)["response"].tolist() == [SKY, OCEAN]
    assert path.stat().st_mode & 0o777 == 0o666 & ~_umask()  # a new file's permissions, not 0600
    if name.endswith(".gz"):
        with open(path, "rb") as raw:
            header = raw.read(64)
        assert header[:2] == b"\x1f\x8b" and name[:-3].encode() + b"\x00" in header  # not the temporary name
    assert [p.name for p in tmp_path.iterdir()] == [name]


def _umask() -> int:
    import os

    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_cli_stops_quietly_when_the_reader_of_its_output_leaves(tmp_path):
    """``rag-axioms FILE | head -1``: more output than a pipe holds, and the reader gone after one line."""
    import os
    import subprocess
    import sys

    responses = tmp_path / "many.jsonl"
    pd.DataFrame([{"qid": f"q{topic}", "query": f"question number {topic}", "docno": docno,
                   "response": "Short." if docno == "a" else "A longer answer here."}
                  for topic in range(400) for docno in ("a", "b")]).to_json(responses, orient="records", lines=True)
    process = subprocess.Popen(
        [sys.executable, "-m", "pyterrier_rag_axioms", str(responses), "--axioms", "LEN1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )
    assert process.stdout.readline().startswith(b"800 responses to 400 queries")
    process.stdout.close()
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=300) == 0, stderr
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr, stderr
