"""Argument-unit taggers: the offline discourse-marker tagger and the TARGER client over real HTTP."""

from __future__ import annotations

import json
import re
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pandas as pd
import pytest

import pyterrier_rag_axioms as pra
from pyterrier_rag_axioms.tools.arguments import (
    ArgumentUnit,
    DiscourseMarkerTagger,
    TargerTagger,
    TargerUnavailableError,
    resolve_argument_tagger,
)
from pyterrier_rag_axioms.tools.text import text_analyzer


def units(tagger, text: str) -> list[tuple[str, str]]:
    """The (kind, text) of each unit the tagger finds in ``text``."""
    found = tagger.units(text_analyzer().analyse([text]))[0]
    return [(unit.kind, text[unit.start : unit.end]) for unit in found]


# --- offline discourse markers -----------------------------------------------------------------


def test_a_premise_marker_inside_a_sentence_splits_claim_and_premise():
    assert units(DiscourseMarkerTagger(), "Auroras glow because charged particles hit the air.") == [
        ("claim", "Auroras glow"),
        ("premise", "because charged particles hit the air"),
    ]


def test_a_sentence_opening_with_a_premise_marker():
    tagger = DiscourseMarkerTagger()
    assert units(tagger, "Since the Sun is active, auroras are frequent.") == [
        ("premise", "Since the Sun is active"),
        ("claim", "auroras are frequent"),
    ]
    assert units(tagger, "Due to solar storms.") == [("premise", "Due to solar storms")]


def test_claim_markers_and_sentences_without_markers():
    tagger = DiscourseMarkerTagger()
    assert units(tagger, "The sky is blue. Therefore you should travel north. I think it is worth it.") == [
        ("claim", "Therefore you should travel north"),
        ("claim", "I think it is worth it"),
    ]
    assert units(tagger, "It has rained since 1990. The sky is grey.") == []  # "since" as time
    assert units(tagger, "") == []


def test_each_distinct_text_is_tagged_once():
    tagger = DiscourseMarkerTagger()
    texts = ["Thus it glows.", "It glows because of the Sun.", "Thus it glows."]
    tagged = tagger.units(text_analyzer().analyse(texts))
    assert tagged[0] == tagged[2] and len(tagger) == 2
    assert ArgumentUnit("claim", 0, 4).covers(3) and not ArgumentUnit("claim", 0, 4).covers(4)


def test_resolve_argument_tagger():
    assert isinstance(resolve_argument_tagger(None), DiscourseMarkerTagger)
    assert resolve_argument_tagger(None) is resolve_argument_tagger(None)
    targer = resolve_argument_tagger("http://localhost:1/")
    assert isinstance(targer, TargerTagger) and targer.endpoint == "http://localhost:1/tag-ibm-fasttext"
    with pytest.raises(TypeError, match="argument_tagger"):
        resolve_argument_tagger(42)


# --- TARGER over HTTP --------------------------------------------------------------------------

_TOKEN = re.compile(r"\w+|[^\w\s]")


def _targer_answer(text: str, *, label_order: str) -> list[list[dict]]:
    """What a TARGER server answers: per sentence, tokens labelled claim before "because", premise after.

    Sentences without "because" are outside any unit; the token "maybe" has a low probability.
    """
    sentences = []
    for sentence in re.split(r"(?<=\.)\s+", text.strip()):
        tokens = _TOKEN.findall(sentence)
        lowered = [token.lower() for token in tokens]
        split = lowered.index("because") if "because" in lowered else None
        tagged = []
        for index, token in enumerate(tokens):
            if split is None or token == ".":
                kind, position = "O", None
            else:
                kind = "C" if index < split else "P"
                position = "B" if index in (0, split) else "I"
            label = "O" if position is None else (f"{kind}-{position}" if label_order == "kind-first"
                                                  else f"{position}-{kind}")
            tagged.append({"token": token, "label": label, "prob": 0.3 if token == "maybe" else 0.9})
        sentences.append(tagged)
    return sentences


class _TargerHandler(BaseHTTPRequestHandler):
    requests: list[tuple[str, str, str]]
    label_order = "kind-first"
    status = 200
    raw_body: bytes | None = None

    def do_POST(self):  # noqa: N802 (http.server's naming)
        text = self.rfile.read(int(self.headers["Content-Length"])).decode("utf-8")
        self.requests.append((self.path, self.headers.get("Content-Type"), text))
        if self.status != 200:
            self.send_error(self.status, "tagger crashed")
            return
        body = self.raw_body if self.raw_body is not None else json.dumps(
            _targer_answer(text, label_order=self.label_order)
        ).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):  # noqa: A002
        pass


@pytest.fixture
def targer_server() -> Iterator[tuple[str, type[_TargerHandler]]]:
    """A local HTTP server speaking TARGER's API, in a thread; yields its URL and handler class."""
    handler = type("Handler", (_TargerHandler,), {"requests": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/targer-api/", handler
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_targer_client_posts_text_and_reads_claims_and_premises(targer_server):
    url, handler = targer_server
    tagger = TargerTagger(url)
    text = "Auroras glow because particles hit the air. The sky is dark."
    assert units(tagger, text) == [("claim", "Auroras glow"), ("premise", "because particles hit the air")]
    assert handler.requests == [("/targer-api/tag-ibm-fasttext", "text/plain", text)]
    units(tagger, text)
    assert len(handler.requests) == 1  # each distinct text is sent once


def test_targer_client_reads_position_first_labels_other_models_and_keeps_unlikely_claim_tokens(targer_server):
    url, handler = targer_server
    handler.label_order = "position-first"
    tagger = TargerTagger(url, model="tag-combined-essays")
    text = "Skies glow maybe because particles hit air."
    # "maybe" is tagged with probability 0.3: a less likely claim token does not end a claim
    assert units(tagger, text) == [("claim", "Skies glow maybe"), ("premise", "because particles hit air")]
    assert handler.requests[0][0] == "/targer-api/tag-combined-essays"
    assert units(tagger, "   ") == [] and len(handler.requests) == 1  # blank text: nothing to ask


def test_targer_client_names_the_url_when_no_server_answers():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    tagger = TargerTagger(f"http://127.0.0.1:{port}/targer-api/", timeout=5)
    with pytest.raises(TargerUnavailableError, match=rf"No TARGER server answered at http://127\.0\.0\.1:{port}/"):
        units(tagger, "It glows because of the Sun.")


def test_targer_client_reports_http_errors_and_malformed_answers(targer_server):
    url, handler = targer_server
    handler.status = 500
    with pytest.raises(TargerUnavailableError, match=r"tag-ibm-fasttext answered HTTP 500"):
        units(TargerTagger(url), "It glows because of the Sun.")
    handler.status = 200
    handler.raw_body = b"<html>not json</html>"
    with pytest.raises(ValueError, match=r"127\.0\.0\.1.*invalid JSON"):
        units(TargerTagger(url), "It glows because of the Sun.")
    handler.raw_body = json.dumps([[{"word": "It"}]]).encode()
    with pytest.raises(ValueError, match=r"token 0 of sentence 0"):
        units(TargerTagger(url), "It glows because of the Sun.")
    handler.raw_body = json.dumps({"error": "no model"}).encode()
    with pytest.raises(ValueError, match=r"answered dict, not a list of sentences"):
        units(TargerTagger(url), "It glows because of the Sun.")


def test_argumentative_axioms_with_targer(targer_server):
    url, handler = targer_server
    query = "Why do auroras glow?"
    argued = "Auroras glow because particles hit the air."
    plain = "Auroras glow when particles hit the air."
    frame = pd.DataFrame({"qid": ["q", "q"], "query": [query] * 2, "docno": ["a", "b"], "response": [argued, plain]})
    tagger = TargerTagger(url)
    out = (pra.GEN_ArgUC(argument_tagger=tagger) >> pra.GEN_QTArg(argument_tagger=tagger))(frame)
    assert out[["GEN_ArgUC", "GEN_QTArg"]].iloc[0].tolist() == [1.0, 1.0]
    assert len(handler.requests) == 2  # two distinct texts, each sent once for both axioms
    by_url = pra.GEN_ArgUC(argument_tagger=url)
    assert isinstance(by_url.argument_tagger, TargerTagger) and by_url.argument_tagger.url == url
    assert repr(by_url) == f"GEN_ArgUC(margin_fraction=0.0, argument_tagger={url!r})"  # named by its URL
    assert repr(eval(repr(by_url), vars(pra))) == repr(by_url)


def _tags(*pairs: tuple[str, str, float]) -> list[dict]:
    return [{"token": token, "label": label, "prob": probability} for token, label, probability in pairs]


def test_targer_units_are_counted_as_the_reference_counts_them():
    """Claims are runs of claim tokens (unlikely tokens, B labels and sentence ends do not split
    them); each likely P-B opens a premise; MP-B and premise tokens without a P-B open none."""
    text = "Coffee helps and it is good . Many studies show it . Tea too . So drink it because it helps ."
    # tokens of the first sentence are claims throughout: one unit, although two start with C-B
    sentences = [
        _tags(("Coffee", "C-B", 0.9), ("helps", "C-I", 0.4), ("and", "C-I", 0.3), ("it", "C-B", 0.9),
              ("is", "C-I", 0.2), ("good", "C-I", 0.6), (".", "C-I", 0.5)),
        _tags(("Many", "O", 0.9), ("studies", "C-B", 0.45), ("show", "C-I", 0.8), ("it", "C-I", 0.9),
              (".", "O", 0.9)),
        _tags(("Tea", "MP-B", 0.9), ("too", "MP-I", 0.9), (".", "P-I", 0.9)),
        _tags(("So", "C-B", 0.9), ("drink", "C-I", 0.9), ("it", "C-I", 0.9), ("because", "P-B", 0.8),
              ("it", "P-I", 0.4), ("helps", "P-I", 0.9), (".", "O", 0.9)),
    ]
    found = TargerTagger("http://127.0.0.1:1/").parse(text, sentences)
    assert [(unit.kind, text[unit.start : unit.end]) for unit in found] == [
        ("claim", "Coffee helps and it is good ."),  # one run, however likely its tokens
        ("claim", "show it"),  # starts at the first likely claim token
        ("claim", "So drink it"),
        ("premise", "because it helps"),
    ]
