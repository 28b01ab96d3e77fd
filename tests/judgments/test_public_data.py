"""Public data by name: downloads from a real HTTP server on 127.0.0.1, checked, cached, never half-written."""

from __future__ import annotations

import hashlib
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pyterrier as pt
import pytest

from pyterrier_rag_axioms.cli import main
from pyterrier_rag_axioms.judgments import public_data
from pyterrier_rag_axioms.judgments.public_data import PublicFile, cached_path

DATA = Path(__file__).parents[1] / "data"
NUGGETS = (DATA / "nuggets.jsonl").read_bytes()
TOPICS = b"t1\tWhat is rain?\nt2\tWhat is snow?\nt3\tWhat is hail?\n"


class Server:
    """A file server on 127.0.0.1 that can also send wrong or cut-off bytes, and counts the requests."""

    def __init__(self, files: dict[str, bytes]):
        self.files = files
        self.mode = "right"  # "right", "wrong" (changed bytes) or "truncated" (half, then the connection closes)
        self.requests: list[str] = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                server.requests.append(self.path)
                body = server.files.get(self.path)
                if body is None:
                    self.send_error(404, "Not Found")
                    return
                if server.mode == "wrong":
                    body = body[:-2] + b"!\n"
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body[: len(body) // 2] if server.mode == "truncated" else body)
                self.close_connection = True

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _public(dataset: str, role: str, path: str, body: bytes) -> PublicFile:
    return PublicFile(dataset, role, path, hashlib.sha256(body).hexdigest(), len(body), f"test {role}")


@pytest.fixture
def server(tmp_path, monkeypatch) -> Iterator[Server]:
    """A server of two public files (copies of the test data), the package pointed at it, an empty data folder."""
    files = (
        _public("trec-rag-2024", "nuggets", "data/nugget_assignment.test.jl", NUGGETS),
        _public("trec-rag-2024", "topics", "data/topics.test.txt", TOPICS),
    )
    monkeypatch.setattr(public_data, "PUBLIC_FILES", files)
    monkeypatch.setenv("PYTERRIER_HOME", str(tmp_path / "pyterrier"))
    monkeypatch.delenv(public_data.DATA_VARIABLE, raising=False)
    with Server({"/" + file.path: body for file, body in zip(files, (NUGGETS, TOPICS))}) as running:
        monkeypatch.setenv(public_data.BASE_URL_VARIABLE, running.url)
        yield running


def _leftovers(tmp_path: Path) -> list[str]:
    return sorted(path.name for path in (tmp_path / "pyterrier").rglob("*") if path.is_file())


def test_dataset_by_name_downloads_checks_and_serves_a_second_run_from_the_cache(server, tmp_path):
    dataset = pt.get_dataset("rag-axioms:trec-rag-2024")
    assert dataset.get_topics()["qid"].tolist() == ["t1", "t2"]
    assert dataset.get_qrels()["label"].tolist() == [63, 38, 50, 50]
    assert len(dataset.get_topics("all")) == 3
    assert server.requests == ["/data/nugget_assignment.test.jl", "/data/topics.test.txt"]
    cached = cached_path(public_data.find_public_file("trec-rag-2024", "nuggets"))
    assert cached.read_bytes() == NUGGETS
    assert cached.is_relative_to(tmp_path / "pyterrier")

    again = pt.get_dataset("rag-axioms:trec-rag-2024")
    assert again.get_qrels()["label"].tolist() == [63, 38, 50, 50]
    assert len(again.get_topics("all")) == 3
    assert len(server.requests) == 2  # both files from the cache


def test_a_checksum_mismatch_is_refused_and_leaves_no_file(server, tmp_path):
    server.mode = "wrong"
    with pytest.raises(ValueError, match=r"SHA-256 mismatch .*nothing was saved"):
        pt.get_dataset("rag-axioms:trec-rag-2024").get_topics()
    assert _leftovers(tmp_path) == []


def test_a_truncated_transfer_is_refused_and_leaves_no_file(server, tmp_path):
    server.mode = "truncated"
    with pytest.raises(OSError, match=r"received \d+ bytes, expected \d+; the transfer was cut short"):
        pt.get_dataset("rag-axioms:trec-rag-2024").get_topics()
    assert _leftovers(tmp_path) == []
    server.mode = "right"  # a later run downloads the file whole
    assert pt.get_dataset("rag-axioms:trec-rag-2024").get_topics()["qid"].tolist() == ["t1", "t2"]


def test_a_damaged_cache_file_is_downloaded_again(server, tmp_path):
    file = public_data.find_public_file("trec-rag-2024", "nuggets")
    path = public_data.download(file, verbose=False)
    path.write_bytes(NUGGETS[:-1] + b" ")
    assert public_data.download(file, verbose=False).read_bytes() == NUGGETS
    assert len(server.requests) == 2


def test_nuggets_path_overrides_and_a_local_copy_needs_no_network(server, tmp_path, monkeypatch):
    given = pt.get_dataset("rag-axioms:trec-rag-2024", nuggets_path=str(DATA / "nuggets.jsonl"))
    assert given.get_topics()["qid"].tolist() == ["t1", "t2"]
    with pytest.raises(ValueError, match="needs a topics file"):
        given.get_topics("all")
    copy = tmp_path / "copy" / "trec-rag-2024"
    copy.mkdir(parents=True)
    (copy / "nugget_assignment.test.jl").write_bytes(NUGGETS)
    monkeypatch.setenv(public_data.DATA_VARIABLE, str(tmp_path / "copy"))
    assert pt.get_dataset("rag-axioms:trec-rag-2024").get_qrels()["label"].tolist() == [63, 38, 50, 50]
    assert server.requests == []
    (copy / "nugget_assignment.test.jl").write_bytes(NUGGETS.replace(b"rain", b"hail"))
    with pytest.raises(ValueError, match="not the public nugget_assignment.test.jl"):
        public_data.public_file("trec-rag-2024", "nuggets")


def test_server_errors_are_one_clear_line(server, monkeypatch):
    monkeypatch.setenv(public_data.BASE_URL_VARIABLE, server.url + "elsewhere/")
    with pytest.raises(OSError, match=r"elsewhere/data/nugget_assignment.test.jl: the server answered 404"):
        public_data.public_file("trec-rag-2024", "nuggets", verbose=False)


def test_the_command_lists_and_fetches_with_checks(server, tmp_path, capsys):
    assert main(["data", "list"]) == 0
    listed = capsys.readouterr().out
    assert listed.count("not fetched") == 2 and server.url + "data/topics.test.txt" in listed
    assert main(["data", "fetch", "--quiet"]) == 0
    fetched = capsys.readouterr().out
    assert str(tmp_path / "pyterrier") in fetched and len(server.requests) == 2
    assert main(["data", "list", "trec-rag-2024"]) == 0
    assert capsys.readouterr().out.count("cached ") == 2
    server.mode = "wrong"
    assert main(["data", "fetch", "--force", "--quiet"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("rag-axioms data: error: ") and "SHA-256 mismatch" in error and error.count("\n") == 1
    assert (tmp_path / "pyterrier" / "corpora" / "rag-axioms" / "trec-rag-2024" / "topics.test.txt").read_bytes() \
        == TOPICS  # the good cached copy stays
    assert main(["data", "fetch", "no-such-data"]) == 2
    assert "unknown dataset 'no-such-data'" in capsys.readouterr().err


def test_the_published_files_are_pinned():
    assert public_data.DEFAULT_BASE_URL == (
        "https://raw.githubusercontent.com/webis-de/ir_axioms/cd9b4f33f4991e470adb19e6f7316c4a6dd5431a/"
    )
    checksums = {file.path: file.sha256 for file in public_data.PUBLIC_FILES}
    assert checksums["data/nugget_assignment.20241108.jl"].startswith("84ceb734107d")
    assert checksums["data/crowd/study1_retrieval.jsonl.gz"].startswith("2d7c5137b451")


def test_list_and_fetch_agree_on_a_truncated_local_copy_and_compare_its_size_before_hashing(
    server, tmp_path, monkeypatch, capsys
):
    copy = tmp_path / "copy" / "trec-rag-2024"
    copy.mkdir(parents=True)
    (copy / "nugget_assignment.test.jl").write_bytes(NUGGETS[: len(NUGGETS) // 2])
    with open(copy / "topics.test.txt", "wb") as sparse:  # a huge sparse file: its size alone refuses it
        sparse.truncate(1 << 40)
    monkeypatch.setenv(public_data.DATA_VARIABLE, str(tmp_path / "copy"))
    hashed = []
    monkeypatch.setattr(public_data, "sha256_of", lambda path, real=public_data.sha256_of: hashed.append(path)
                        or real(path))
    assert main(["data", "list"]) == 0
    listed = capsys.readouterr().out
    assert f"refused local copy {copy / 'nugget_assignment.test.jl'} ({len(NUGGETS) // 2:,} bytes, not the " \
           f"{len(NUGGETS):,} of the public file)" in listed
    assert f"refused local copy {copy / 'topics.test.txt'} (1,099,511,627,776 bytes" in listed
    assert main(["data", "fetch", "--quiet"]) == 2
    error = capsys.readouterr().err
    assert f"{copy / 'nugget_assignment.test.jl'}: not the public nugget_assignment.test.jl ({len(NUGGETS) // 2:,} " \
           "bytes, not the" in error
    assert hashed == [] and server.requests == []
    (copy / "nugget_assignment.test.jl").write_bytes(NUGGETS)
    (copy / "topics.test.txt").write_bytes(TOPICS)
    assert main(["data", "list"]) == 0
    assert capsys.readouterr().out.count("  local copy ") == 2


def test_data_path_names_the_shipped_samples_and_fetched_files(server, tmp_path, capsys):
    from pyterrier_rag_axioms.sample import sample_path, trec_sample_path

    assert main(["data", "path", "sample", "trec-rag-2024-sample"]) == 0
    assert capsys.readouterr().out.splitlines() == [str(sample_path()), str(trec_sample_path())]
    assert main(["data", "path", "trec-rag-2024"]) == 2
    assert "trec-rag-2024's nuggets file is not on this machine (not fetched); `rag-axioms data fetch " \
           "trec-rag-2024` fetches it" in capsys.readouterr().err
    assert main(["data", "fetch", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["data", "path", "trec-rag-2024"]) == 0
    folder = tmp_path / "pyterrier" / "corpora" / "rag-axioms" / "trec-rag-2024"
    assert capsys.readouterr().out.splitlines() == [str(folder / "nugget_assignment.test.jl"),
                                                    str(folder / "topics.test.txt")]
    assert main(["data", "path", "nowhere"]) == 2
    assert "unknown name 'nowhere'; the samples are sample, trec-rag-2024-sample" in capsys.readouterr().err


def test_the_shipped_trec_sample_is_a_pyterrier_dataset_by_name():
    dataset = pt.get_dataset("rag-axioms:trec-rag-2024-sample")
    assert dataset.get_topics()["qid"].tolist() == ["2024-142395", "2024-29182"]
    assert len(dataset.get_results()) == 16 and dataset.get_results()["docno"].nunique() == 8
    assert dataset.get_qrels()["label"].between(0, 100).all()
