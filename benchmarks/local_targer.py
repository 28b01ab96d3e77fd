"""A local HTTP server speaking TARGER's API with deterministic tags, for side-by-side runs offline.

The argumentative axioms (GEN_ArgUC, GEN_QTArg, GEN_QTPArg) read claims and premises from a
TARGER server, and the public one need not be reachable. This server answers TARGER's protocol
on 127.0.0.1 (``POST <url><model>`` with the text as ``text/plain``; the answer is a JSON list of
sentences, each a list of ``{"token", "label", "prob"}``) with tags that depend on the text
alone, so that this package (``crowdrag_agreement.py --targer-url``) and ir-axioms
(``irax_pairs.py --targer-url``) read *identical* tags and differ only in how they count units
and locate terms in them. The tags are no argument mining; they only look like TARGER's:

- sentences end at ``.``, ``!`` or ``?`` followed by white space, and at line breaks; tokens are
  runs of word characters (with inner hyphens or apostrophes) and single other characters;
- in a sentence with a premise marker ("because", "since", "due to", "for example", ...), the
  marker and the tokens up to the next comma or the end are a premise (``P-B``, ``P-I``), the
  tokens before it a claim (``C-B``, ``C-I``); a sentence with a claim marker ("should", "must",
  "therefore", "can", "may", ...) is a claim; other tokens are ``O``;
- each token's probability is ``0.35 + 0.65 * h``, ``h`` in [0, 1) from the MD5 of the token and
  its position, so about a quarter of the tags are less likely than 0.5.

    python benchmarks/local_targer.py --port 8765   # serves http://127.0.0.1:8765/targer-api/
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PREMISE_MARKERS = (
    ("because",), ("since",), ("due", "to"), ("for", "example"), ("for", "instance"), ("according", "to"),
    ("as", "a", "result", "of"), ("given", "that"), ("studies", "show"), ("research", "shows"),
)
CLAIM_MARKERS = frozenset(
    ("should", "must", "therefore", "thus", "hence", "can", "may", "might", "important", "recommended", "best")
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_TOKEN = re.compile(r"\w+(?:[-'\u2019]\w+)*|[^\w\s]")


def _probability(token: str, sentence: int, position: int) -> float:
    digest = hashlib.md5(f"{sentence}:{position}:{token}".encode()).digest()
    return round(0.35 + 0.65 * int.from_bytes(digest[:4], "big") / 2**32, 4)


def _premise_start(words: list[str]) -> int | None:
    for index in range(len(words)):
        if any(tuple(words[index : index + len(marker)]) == marker for marker in PREMISE_MARKERS):
            return index
    return None


def sentence_labels(tokens: list[str]) -> list[str]:
    """The labels of one sentence's tokens."""
    words = [token.lower() for token in tokens]
    labels = ["O"] * len(tokens)
    premise = _premise_start(words)
    if premise is not None:
        end = next((i for i in range(premise + 1, len(tokens)) if tokens[i] == ","), len(tokens))
        labels[premise:end] = ["P-B"] + ["P-I"] * (end - premise - 1)
        if premise > 0:
            labels[:premise] = ["C-B"] + ["C-I"] * (premise - 1)
    elif CLAIM_MARKERS.intersection(words):
        labels = ["C-B"] + ["C-I"] * (len(tokens) - 1)
    return labels


def tag(text: str) -> list[list[dict]]:
    """TARGER's answer for ``text``: sentences of tokens with label and probability."""
    sentences = []
    for number, sentence in enumerate(part for part in _SENTENCE_END.split(text) if part.strip()):
        tokens = _TOKEN.findall(sentence)
        if not tokens:
            continue
        sentences.append([
            {"token": token, "label": label, "prob": _probability(token, number, position)}
            for position, (token, label) in enumerate(zip(tokens, sentence_labels(tokens)))
        ])
    return sentences


class TargerHandler(BaseHTTPRequestHandler):
    """Answers ``POST /<prefix>/<model>`` with :func:`tag` of the posted text."""

    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            self.send_error(400, "the text must be UTF-8")
            return
        answer = json.dumps(tag(text)).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (http.server's naming)
        pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765, help="port on 127.0.0.1 (0: any free one)")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), TargerHandler)
    print(f"http://127.0.0.1:{server.server_address[1]}/targer-api/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
