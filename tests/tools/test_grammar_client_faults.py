"""The grammar client sends texts only where it is told, and takes no malformed reply for an answer:
no redirect is followed, and a match's offset and length must lie within the text."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyterrier_rag_axioms.tools.grammar import GrammarChecker, LanguageToolError

PROJECT_ROOT = Path(__file__).resolve().parents[1]


def no_matches(server, text):
    return 200, {}, {"matches": []}


def grammar_match(offset, length):
    match = {"rule": {"category": {"id": "GRAMMAR"}}, "message": "m"}
    if offset is not None:
        match["offset"] = offset
    if length is not None:
        match["length"] = length
    return lambda server, text: (200, {}, {"matches": [match]})


# --- redirects --------------------------------------------------------------------------


def test_the_grammar_client_follows_no_redirect_to_another_host(fake_servers):
    target = fake_servers(no_matches)
    redirect = {"Location": f"http://localhost:{target.port}/v2/check"}
    redirector = fake_servers(lambda server, text: (307, redirect, {}))
    checker = GrammarChecker(redirector.url)
    with pytest.raises(LanguageToolError, match=rf"{redirector.url}.*redirect"):
        checker.error_share("A private text.")
    assert target.texts == []


def test_the_server_probe_follows_no_redirect(fake_servers):
    from pyterrier_rag_axioms.tools.grammar.languagetool import answers

    target = fake_servers(no_matches)
    redirector = fake_servers(lambda server, text: (307, {"Location": f"http://localhost:{target.port}/v2/check"}, {}))
    assert not answers(redirector.url)
    assert target.texts == []


# --- malformed replies ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("offset", "length"),
    [(-3, 2), (2, -1), (None, 2), (2, None), (5, 100), ("2", 1), (1.5, 1), (True, 1)],
    ids=["negative-offset", "negative-length", "missing-offset", "missing-length", "beyond-the-text",
         "offset-text", "offset-fraction", "offset-bool"],
)
def test_a_reply_with_bad_offsets_is_an_error_naming_the_server(fake_servers, offset, length):
    server = fake_servers(grammar_match(offset, length))
    with pytest.raises(LanguageToolError, match=rf"{server.url}.*(offset|length)"):
        GrammarChecker(server.url).error_share("Short text.")


def test_a_reply_with_good_offsets_counts(fake_servers):
    server = fake_servers(grammar_match(0, 5))
    assert GrammarChecker(server.url).error_share("Short text.") == pytest.approx(5 / 11)
