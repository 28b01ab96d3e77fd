"""Worker processes of whole topics on this machine's cores: the serial output, Ctrl-C and errors."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import pytest

import pyterrier_rag_axioms as rag
from pyterrier_rag_axioms.runtime import processes, threads
from pyterrier_rag_axioms.runtime.processes import map_topics, worker_count
from pyterrier_rag_axioms.runtime.topics import split_by_topic, topic_groups

PROJECT_ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")


def _nuggets(responses: pd.DataFrame) -> pd.DataFrame:
    """Each query's nuggets: the first sentence of each of its first two responses."""
    return pd.DataFrame([
        {"qid": qid, "nugget": text.split(". ")[0].strip(" ."), "importance": importance}
        for qid, group in responses.groupby("qid", sort=False)
        for text, importance in zip(group["response"].iloc[:2], ("vital", "okay"))
    ])


@pytest.fixture(scope="module")
def responses(sample_responses: pd.DataFrame) -> pd.DataFrame:
    """The shipped sample with its queries interleaved, so that no topic's rows are contiguous."""
    return sample_responses.assign(turn=sample_responses.groupby("qid").cumcount()).sort_values(
        ["turn", "qid"], kind="stable").drop(columns="turn").reset_index(drop=True)


def test_the_assigner_gives_the_serial_rows_in_worker_processes(responses: pd.DataFrame):
    nuggets = _nuggets(responses)
    serial = rag.nuggets.NuggetAssigner(nuggets=nuggets, processes=1)(responses)
    split = rag.nuggets.NuggetAssigner(nuggets=nuggets, processes=2)(responses)
    assert len(serial) > 0 and responses["qid"].nunique() >= 2
    pd.testing.assert_frame_equal(split, serial, check_exact=True)  # the same rows, in the same order


def test_the_run_judge_gives_the_serial_scores_in_worker_processes(responses: pd.DataFrame):
    serial = rag.PreferenceModel.default("nuggets", processes=1).scores(responses)
    split = rag.PreferenceModel.default("nuggets", processes=3).scores(responses)
    pd.testing.assert_frame_equal(split, serial, check_exact=True)


def test_the_extractor_gives_the_serial_nuggets_in_worker_processes(responses: pd.DataFrame):
    serial = rag.nuggets.NuggetExtractor(min_support=1, processes=1)(responses)
    split = rag.nuggets.NuggetExtractor(min_support=1, processes=2)(responses)
    assert len(serial) > 0
    pd.testing.assert_frame_equal(split, serial, check_exact=True)


def test_an_error_in_a_worker_reaches_the_caller():
    def work(topics, verbose):
        if "b" in topics:
            raise ValueError("topic b is broken")
        return topics

    with pytest.raises(ValueError, match="topic b is broken"):
        map_topics(work, ["a", "b", "c"], weights=[1, 1, 1], processes=2)


def test_workers_work_on_whole_topics_in_other_processes_each_on_one_core():
    def work(topics, verbose):
        return os.getpid(), threads.usable_cores(), worker_count(None, 5), list(topics), verbose

    results = map_topics(work, list("abcdef"), weights=[1, 5, 1, 1, 1, 1], processes=2, verbose=True)
    assert sorted(topic for *_, topics, _ in results for topic in topics) == list("abcdef")
    assert all(pid != os.getpid() and cores == 1 and nested == 0 and not verbose
               for pid, cores, nested, _, verbose in results)
    assert results[0][3] == ["b"]  # the heaviest group first
    assert map_topics(work, ["a", "b"], weights=[1, 1], processes=1)[0][0] == os.getpid()


def test_topic_groups_are_runs_of_neighbouring_topics_of_about_equal_weight():
    groups = topic_groups(list("abcdefgh"), [1, 1, 1, 1, 1, 1, 1, 9], 3)
    assert groups[-1] == ["h"] and [topic for group in groups for topic in group] == list("abcdefgh")
    assert all(len(group) > 0 for group in groups) and len(groups) <= 3
    assert topic_groups(["a"], [0], 4) == [["a"]]


def test_parallel_splits_a_frame_by_the_same_topic_groups(responses: pd.DataFrame):
    """``.parallel(N)`` cuts a frame into whole topics in qid order, each topic's rows in input order,
    by the groups the worker processes take (each topic weighed by its rows)."""
    frame = responses.assign(row=range(len(responses)))
    topics = sorted(frame["qid"].unique())
    rows = frame.groupby("qid").size()
    for parts in (1, 2, 3, len(topics) + 1):
        splits = split_by_topic(frame, parts)
        assert len(splits) <= parts
        assert [list(dict.fromkeys(split["qid"])) for split in splits] == topic_groups(
            topics, [rows[topic] for topic in topics], parts)
        merged = pd.concat(splits)
        assert list(merged["row"]) == [row for topic in topics for row in frame.loc[frame["qid"] == topic, "row"]]


def test_worker_count_defaults_to_the_cores_and_checks_the_argument():
    assert worker_count(1, 10) == 0  # one process: the caller's
    assert worker_count(4, 1) == 0  # one topic: nothing to split
    assert worker_count(3, 2) == 2
    default = min(threads.usable_cores(), processes.MAX_PROCESSES)
    assert worker_count(None, 100) == (default if default > 1 else 0)
    for wrong in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="NuggetAssigner: processes must be a whole number >= 1 or None"):
            rag.nuggets.NuggetAssigner(nuggets=pd.DataFrame({"qid": ["q"], "nugget": ["n"], "importance": ["vital"]}),
                                      processes=wrong)


def test_no_worker_forks_once_cuda_is_initialised(monkeypatch):
    """A CUDA context cannot cross a fork; no GPU here, so torch's own flag is set the way CUDA sets it."""
    torch = pytest.importorskip("torch")
    assert not processes.cuda_initialized() and worker_count(2, 4) == 2
    monkeypatch.setattr(torch.cuda, "is_initialized", lambda: True)
    assert processes.cuda_initialized() and worker_count(2, 4) == 0
    groups = map_topics(lambda topics, verbose: (os.getpid(), list(topics)), list("abcd"), weights=[1] * 4,
                        processes=2)
    assert groups == [(os.getpid(), list("abcd"))]  # all in this process, in order


def test_parallel_workers_work_serially(responses: pd.DataFrame):
    pytest.importorskip("pyterrier_alpha")
    assigner = rag.nuggets.NuggetAssigner(nuggets=_nuggets(responses))
    assert assigner.processes is None and assigner.parallel(2).parent.processes == 1
    assert repr(assigner.parallel(2).parent) == repr(assigner)  # processes is not shown
    judge = rag.PreferenceModel.default("nuggets", processes=2)
    assert judge == rag.PreferenceModel.default("nuggets")  # nor part of what the judge is


def test_ctrl_c_stops_the_workers_and_reaches_the_caller(tmp_path):
    script = textwrap.dedent("""
        import os, sys, time
        from pyterrier_rag_axioms.runtime.processes import map_topics

        def work(topics, verbose):
            os.write(1, f"{os.getpid()}\\n".encode())  # one write: the two workers' lines never mix
            time.sleep(60)

        try:
            map_topics(work, ["a", "b"], weights=[1, 1], processes=2)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(130)
    """)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    workers = [int(child.stdout.readline()) for _ in range(2)]
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    assert child.returncode == 130 and out.strip() == "interrupted"
    assert "Traceback" not in err  # the workers ignore Ctrl-C: no worker prints its own
    time.sleep(0.5)
    for pid in workers:  # the workers are gone
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_the_commands_take_processes_and_print_the_same_tables():
    def runs(*options: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pyterrier_rag_axioms", "runs", "--quiet", *options],
                              cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=600,
                              env={**os.environ, "HF_HUB_OFFLINE": "1"})

    default, alone = runs(), runs("--processes", "1")
    assert default.returncode == alone.returncode == 0, default.stderr + alone.stderr
    assert default.stdout == alone.stdout and "Kendall's tau" in default.stdout  # the shipped TREC sample
    pairwise = runs("--processes", "2", "--ranking", "pairwise")
    assert pairwise.returncode == 2 and pairwise.stderr.startswith("rag-axioms runs: error: --processes splits")
    wrong = runs("--processes", "0")
    assert wrong.returncode == 2 and wrong.stdout == ""
    assert wrong.stderr.strip().splitlines() == [
        "rag-axioms runs: error: argument --processes: must be a whole number >= 1, not '0' "
        "(see rag-axioms runs --help)"]


def test_workers_end_where_the_caller_has_its_own_sigterm_handler():
    # a JVM (Terrier's) catches SIGTERM in the caller; a forked worker has no JVM thread to act on it
    script = textwrap.dedent("""
        import signal, time
        from pyterrier_rag_axioms.runtime.processes import map_topics

        signal.signal(signal.SIGTERM, lambda signum, frame: None)  # a handler that never ends the process

        def work(topics, verbose):
            if topics == ["a"]:
                time.sleep(0.5)
                raise ValueError("topic a is broken")
            time.sleep(60)  # still at work when the caller stops the workers

        print(map_topics(lambda topics, verbose: topics, ["a", "b"], weights=[1, 1], processes=2), flush=True)
        try:
            map_topics(work, ["a", "b"], weights=[2, 1], processes=2)
        except ValueError as error:
            print(error, flush=True)
    """)
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=50)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["[['a'], ['b']]", "topic a is broken"]
    assert time.monotonic() - started < 50  # the busy worker was stopped, not waited for


def test_workers_end_in_a_process_that_runs_terrier():
    script = textwrap.dedent("""
        import time
        import pyterrier as pt
        try:
            pt.java.init()  # Terrier's JVM: it catches SIGTERM in this process
        except Exception as error:
            print("no Java:", error)
            raise SystemExit(0)
        from pyterrier_rag_axioms.runtime.processes import map_topics

        def work(topics, verbose):
            if topics == ["a"]:
                time.sleep(0.5)
                raise ValueError("topic a is broken")
            time.sleep(60)

        try:
            map_topics(work, ["a", "b"], weights=[2, 1], processes=2)
        except ValueError as error:
            print(error, flush=True)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=50, cwd=PROJECT_ROOT)
    assert done.returncode == 0, done.stderr
    if done.stdout.startswith("no Java:"):
        pytest.skip(done.stdout.strip())
    assert done.stdout.splitlines()[-1] == "topic a is broken"
