"""CLAR1 and its grammar checker against a real LanguageTool server; failure modes against a local fake.

The real server is the one at ``$RAG_AXIOMS_LANGUAGETOOL_URL`` (``make test`` starts one), else one
that the ``languagetool_server`` fixture starts for the session (see ``conftest.py``). Only what a
real server cannot be made to do (HTTP errors, malformed answers, timeouts) is played by a local
HTTP server on 127.0.0.1.
"""

from __future__ import annotations

import importlib.util
import json
import pickle
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pandas as pd
import pytest

import pyterrier_rag_axioms as pra
from pyterrier_rag_axioms.cli import main
from pyterrier_rag_axioms.tools.grammar import (
    GrammarChecker,
    LanguageToolError,
    LanguageToolUnavailableError,
    grammar_checker,
    languagetool,
)

# --- a real server -----------------------------------------------------------------------------


def test_real_server_finds_grammar_errors_with_their_spans(languagetool_server):
    checker = GrammarChecker(languagetool_server)
    text = "She go to school and they was late."
    spans = checker.error_spans(text)
    assert [text[offset : offset + length] for offset, length in spans] == ["go", "was"]
    assert checker.error_share(text) == pytest.approx(5 / len(text))  # "go" and "was": 5 of 35 characters
    assert checker.error_share("The results are fine.") == 0.0


def test_only_the_grammar_category_counts(languagetool_server):
    import requests

    typo = "This is teh best answer."
    # the server does find the misspelling, in the TYPOS category ...
    everything = requests.post(f"{languagetool_server}/v2/check", data={"language": "en-US", "text": typo}, timeout=30)
    assert {match["rule"]["category"]["id"] for match in everything.json()["matches"]} == {"TYPOS"}
    # ... and the grammar checker does not count it
    checker = GrammarChecker(languagetool_server)
    assert checker.error_spans(typo) == [] and checker.error_share(typo) == 0.0
    mixed = "I think it are fine and teh rest too."
    assert [mixed[o : o + n] for o, n in checker.error_spans(mixed)] == ["are"]


def test_offsets_count_python_characters_beyond_the_basic_plane(languagetool_server):
    text = "Done 😀😀. She go to school."  # LanguageTool counts each emoji as two UTF-16 units
    checker = GrammarChecker(languagetool_server)
    [(offset, length)] = checker.error_spans(text)
    assert text[offset : offset + length] == "go"
    assert checker.error_share(text) == pytest.approx(2 / len(text))


def test_empty_text_has_no_share():
    checker = GrammarChecker("http://127.0.0.1:9")  # never contacted for an empty text
    assert pd.isna(checker.error_share(""))


def test_clar1_prefers_the_grammatical_response(languagetool_server):
    frame = pd.DataFrame(
        {"qid": ["q", "q", "q"], "query": ["x"] * 3, "docno": ["good", "bad", "worse"],
         "response": ["The results are fine.", "She go to school every day.", "She go to school and they was late."]}
    )
    axiom = pra.CLAR1(remote_server=languagetool_server)
    out = axiom(frame)
    assert out[["docno_a", "docno_b"]].values.tolist() == [["good", "bad"], ["good", "worse"], ["bad", "worse"]]
    # bad: 2/27 = 0.074, worse: 5/35 = 0.143; they differ by more than the 0.1 margin
    assert out["CLAR1"].tolist() == [1.0, 1.0, 1.0]
    values = axiom.values(frame)["CLAR1_value"].tolist()
    assert values == pytest.approx([0.0, 2 / 27, 5 / 35])
    reversed_out = axiom(frame.iloc[::-1])
    assert reversed_out["CLAR1"].tolist() == [-1.0, -1.0, -1.0]  # worse vs bad, worse vs good, bad vs good


def test_each_distinct_text_is_checked_once(languagetool_server, monkeypatch):
    checker = GrammarChecker(languagetool_server)
    sent = []
    original = checker.matches
    monkeypatch.setattr(checker, "matches", lambda text: sent.append(text) or original(text))
    axiom = pra.CLAR1(grammar_checker=checker)
    frame = pd.DataFrame({"qid": ["1", "1", "2"], "query": ["x", "x", "y"],
                          "response": ["It are good.", "It is good.", "It are good."]})
    axiom(frame)
    axiom(frame)
    assert sorted(sent) == ["It are good.", "It is good."]


def test_clar1_keeps_the_axiom_contract(languagetool_server, monkeypatch, sample_responses):
    """The contract checks that package/test_contract.py runs on the offline axioms, for CLAR1 on the real server."""
    contract = sys.modules.get("test_contract")
    if contract is None:  # not collected in this session: load it from its file
        path = Path(__file__).resolve().parents[1] / "package" / "test_contract.py"
        spec = importlib.util.spec_from_file_location("test_contract", path)
        contract = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(contract)

    monkeypatch.setenv(languagetool.URL_VARIABLE, languagetool_server)
    contract.test_empty_frame_gives_empty_frame_with_the_column("CLAR1")
    contract.test_antisymmetry_and_independence_of_other_responses("CLAR1", sample_responses)
    frame = sample_responses[sample_responses["qid"].isin(["q1", "q2", "q6"])]
    assert (pra.CLAR1()(frame)["CLAR1"] != 0.0).any()  # the sample has grammar errors that decide pairs


def test_clar1_with_the_default_url_uses_the_environment(languagetool_server, monkeypatch):
    monkeypatch.setenv(languagetool.URL_VARIABLE, languagetool_server + "/")
    axiom = pra.CLAR1()
    assert axiom.grammar_checker.remote_server == languagetool_server
    assert axiom.grammar_checker is grammar_checker(languagetool_server)
    assert f"remote_server={languagetool_server!r}" in repr(axiom) and axiom.timeout == 10.0
    assert "timeout=2.5" in repr(pra.CLAR1(timeout=2.5))
    monkeypatch.delenv(languagetool.URL_VARIABLE)
    assert pra.CLAR1().grammar_checker.remote_server == "http://127.0.0.1:8081"


def test_clar1_pickles_as_its_configuration(languagetool_server):
    axiom = pra.CLAR1(remote_server=languagetool_server, timeout=7)
    frame = pd.DataFrame({"qid": ["1", "1"], "query": ["x", "x"], "response": ["It are good.", "It is good."]})
    expected = axiom(frame)
    payload = pickle.dumps(axiom)
    assert len(payload) < 2048
    copy = pickle.loads(payload)
    assert copy.grammar_checker is axiom.grammar_checker and copy.grammar_checker.timeout == 7.0
    pd.testing.assert_frame_equal(copy(frame), expected)


def test_cli_includes_clar1_where_a_server_answers(tmp_path, capsys, monkeypatch, languagetool_server):
    sample = tmp_path / "two.jsonl"
    sample.write_text(
        '{"qid": "1", "query": "q", "response": "It are good."}\n{"qid": "1", "query": "q", "response": "It is."}\n'
    )
    monkeypatch.setenv(languagetool.URL_VARIABLE, languagetool_server)
    assert main([str(sample), "--axioms", "CORR1"]) == 0
    assert "CLAR1" not in capsys.readouterr().out
    assert main([str(sample), "--output", str(tmp_path / "prefs.jsonl")]) == 0
    printed = capsys.readouterr().out
    assert "CLAR1 skipped" not in printed and "CLAR1" in printed
    written = pd.read_json(tmp_path / "prefs.jsonl", lines=True)
    assert written["CLAR1"].tolist() == [-1.0]  # "It are good." has a grammar error, "It is." none

    dead = f"http://127.0.0.1:{languagetool.free_port()}"
    monkeypatch.setenv(languagetool.URL_VARIABLE, dead)
    assert main([str(sample)]) == 0
    printed = capsys.readouterr().err  # a note, apart from the results
    assert f"CLAR1 skipped: no LanguageTool server answered at {dead}" in printed
    assert "python -m pyterrier_rag_axioms.languagetool start" in printed
    # asked for by name, CLAR1 without a server is an error of one line, not a traceback
    assert main([str(sample), "--axioms", "CLAR1"]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"rag-axioms: error: No LanguageTool server answered at {dead}")
    assert error.count("\n") == 1 and "Traceback" not in error
    # an explicit URL is used, and the server found there
    assert main([str(sample), "--languagetool-url", languagetool_server]) == 0
    assert "CLAR1 skipped" not in capsys.readouterr().out


# --- starting and stopping a server ------------------------------------------------------------


def test_run_starts_a_server_for_one_command_and_stops_it_after_a_failure(languagetool_server):
    """``run`` (what ``make test`` uses): the command sees a checking server; afterwards none answers."""
    script = (
        "import os, sys, requests; url = os.environ['RAG_AXIOMS_LANGUAGETOOL_URL']; "
        "answer = requests.post(url + '/v2/check', data={'language': 'en-US', 'text': 'She go home.'}, timeout=300); "
        "print('URL', url, answer.json()['matches'][0]['rule']['category']['id']); sys.exit(3)"
    )
    finished = subprocess.run(
        [sys.executable, "-m", "pyterrier_rag_axioms.languagetool", "run", "--", sys.executable, "-c", script],
        capture_output=True, text=True, timeout=600,
    )
    assert finished.returncode == 3, finished.stderr
    [line] = [line for line in finished.stdout.splitlines() if line.startswith("URL ")]
    _, url, category = line.split()
    assert category == "GRAMMAR" and url != languagetool_server
    assert not languagetool.answers(url, timeout=2.0)


def test_status_and_missing_jars_are_reported(tmp_path, monkeypatch, capsys):
    dead = f"http://127.0.0.1:{languagetool.free_port()}"
    monkeypatch.setenv(languagetool.HOME_VARIABLE, str(tmp_path))
    assert languagetool.main(["status", "--url", dead]) == 1
    assert f"No LanguageTool server answers at {dead}" in capsys.readouterr().out
    with pytest.raises(languagetool.LanguageToolSetupError, match=r"jars are not in .*languagetool fetch"):
        languagetool.classpath()
    assert languagetool.main(["start", "--port", "0"]) == 2
    assert "languagetool: " in capsys.readouterr().err
    assert languagetool.main(["fetch"]) == 2  # no pom.xml there
    assert "no pom.xml in" in capsys.readouterr().err


# --- failure modes a real server does not show: a local fake of the HTTP API --------------------


class _FailingHandler(BaseHTTPRequestHandler):
    """``POST /v2/check`` answered with what ``reply`` says: (status, content type, body, delay)."""

    reply: tuple[int, str, str, float] = (200, "application/json", "{}", 0.0)

    def log_message(self, *args):
        pass

    def do_POST(self):
        status, content_type, body, delay = type(self).reply
        self.rfile.read(int(self.headers["Content-Length"]))
        time.sleep(delay)
        payload = body.encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout)
            pass


@pytest.fixture()
def failing_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FailingHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


EMPTY_RESULT = json.dumps({"software": {"name": "LanguageTool"}, "matches": []})


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        ((500, "application/json", EMPTY_RESULT, 0.0), r"answered HTTP 500: .*matches"),
        ((400, "text/plain", "Error: Missing 'text' or 'data' parameter", 0.0), r"answered HTTP 400: Error: Missing"),
        ((200, "text/html", "<html>proxy</html>", 0.0), r"answered with no JSON: <html>proxy</html>"),
        ((200, "application/json", '{"error": "overloaded"}', 0.0), r"answered without a 'matches' list: .*overloaded"),
    ],
)
def test_http_errors_and_malformed_answers_are_errors_naming_the_url(failing_server, reply, message):
    _FailingHandler.reply = reply
    checker = GrammarChecker(failing_server)
    with pytest.raises(LanguageToolError, match=f"LanguageTool server at {failing_server}/v2/check {message}"):
        checker.error_share("She go home.")
    assert checker._cache == {}  # nothing remembered: a later call asks again
    with pytest.raises(LanguageToolError):
        pra.CLAR1(grammar_checker=checker)(
            pd.DataFrame({"qid": ["1", "1"], "query": ["q", "q"], "response": ["She go home.", "She goes home."]})
        )


def test_a_slow_server_is_an_error_after_the_timeout(failing_server):
    _FailingHandler.reply = (200, "application/json", EMPTY_RESULT, 3.0)
    axiom = pra.CLAR1(remote_server=failing_server, timeout=0.5)
    frame = pd.DataFrame({"qid": ["1", "1"], "query": ["q", "q"], "response": ["She go home.", "She goes home."]})
    message = rf"at {failing_server}/v2/check did not answer within 0.5 s"
    with pytest.raises(LanguageToolUnavailableError, match=message):
        axiom(frame)


def test_no_server_gives_a_clear_error_naming_the_url():
    url = f"http://127.0.0.1:{languagetool.free_port()}"
    frame = pd.DataFrame({"qid": ["q", "q"], "query": ["x", "x"], "response": ["One.", "Two."]})
    message = f"No LanguageTool server answered at {url}: .*languagetool start"
    with pytest.raises(LanguageToolUnavailableError, match=message):
        pra.CLAR1(remote_server=url)(frame)


def test_timeout_must_be_positive():
    with pytest.raises(ValueError, match="timeout must be > 0"):
        GrammarChecker("http://127.0.0.1:9", timeout=0)
