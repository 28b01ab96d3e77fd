"""Files: ids stay as written, TSV cells are text, writes are atomic, and malformed files are errors
that name the file and line."""

from __future__ import annotations

import gzip
import json

import pandas as pd
import pytest
from conftest import two_systems, write_jsonl

from pyterrier_rag_axioms.io import read_responses, write_frame


def test_jsonl_ids_stay_as_written(tmp_path):
    path = write_jsonl(tmp_path / "r.jsonl", [
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
    path = write_jsonl(tmp_path / "r.jsonl", ['{"qid": "1", "query": "q", "docno": "a", "response": "One."}', "", line])
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
    two_systems().assign(query=["q", "other"]).to_parquet(path)
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
    frame = two_systems().assign(context=["one passage", ["two", "passages"]])
    path = tmp_path / "r.parquet"
    write_frame(frame, path)
    assert [list(context) for context in pd.read_parquet(path)["context"]] == [["one passage"], ["two", "passages"]]


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
