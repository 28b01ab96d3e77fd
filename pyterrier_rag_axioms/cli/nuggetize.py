"""``rag-axioms nuggetize``: draw each topic's nuggets from the answers of TREC RAG runs, without an LLM.

TREC 2024 RAG run files (JSON lines, one answer per topic) in; each topic's nuggets, drawn by
:class:`~pyterrier_rag_axioms.nuggets.NuggetExtractor` from what several runs' answers state, out
in nuggetizer's "create" format: one topic per line, ``{"qid", "query", "nuggets": [{"text",
"importance", "nugget_id", "support", "sources", "drawn_from", "passages"}]}``. A person may edit
the file (delete a nugget, reword it, make a vital one okay); ``rag-axioms assign --nuggets``
reads it back. Without run files, the shipped TREC 2024 RAG sample's runs; without ``--output``,
the nuggets are printed. The extractor's settings are options (:data:`EXTRACTOR_OPTIONS`, with
``--max-nuggets`` and ``--encoder``), their defaults the extractor's. A topic where no two
runs state one fact is written with an empty list of nuggets, and one line says so.
"""

from __future__ import annotations

import argparse
import os
import warnings
from collections.abc import Sequence

import pandas as pd

from pyterrier_rag_axioms.cli._cache_option import add_cache_option, use_cache_option
from pyterrier_rag_axioms.cli._declared_option import add_declared_option
from pyterrier_rag_axioms.cli._errors import CommandLineError, CommandLineParser
from pyterrier_rag_axioms.cli._printing import printable, shorten
from pyterrier_rag_axioms.cli._processes_option import add_processes_option
from pyterrier_rag_axioms.cli._progress import add_progress_options, resolve_progress

#: The command's name in its notes and errors.
COMMAND = "rag-axioms nuggetize"
#: The extractor's settings the command offers besides ``--max-nuggets`` and ``--encoder``: the parameter,
#: its metavar, what the option does, and the default's text where the value alone says too little.
EXTRACTOR_OPTIONS: tuple[tuple[str, str, str, str | None], ...] = (
    ("similarity", "COSINE", "the cosine from which an answer's statement restates a candidate", None),
    (
        "merge_similarity",
        "COSINE",
        "the cosine from which a candidate is a paraphrase of a chosen nugget",
        "--similarity",
    ),
    (
        "min_support",
        "N",
        "the fewest other answers that must restate a candidate",
        "2, but at most a third of a topic's other answers and at least 1",
    ),
    ("min_support_share", "SHARE", "the fewest supporting answers, as a share of the best-supported nugget's", None),
    ("vital_share", "SHARE", "vital where a nugget's support is at least this share of the topic's largest", None),
    ("max_words", "N", "the most words of a nugget", None),
)


def build_parser() -> argparse.ArgumentParser:
    parser = CommandLineParser(
        prog=COMMAND,
        description="Draw each topic's nuggets from the answers of TREC 2024 RAG run files, without an LLM, "
        "and write them as nuggetizer writes created nuggets (one topic per line) for review.",
    )
    parser.add_argument(
        "runs",
        nargs="*",
        metavar="RUN",
        help="TREC 2024 RAG run file(s) (JSON lines, gzip or not; "
        "default: the shipped TREC 2024 RAG sample's eight runs)",
    )
    parser.add_argument(
        "--output",
        metavar="FILE",
        help="the nugget file to write (JSON lines; default: print the nuggets of each topic)",
    )
    parser.add_argument("--topics", metavar="FILE", help="topics file (qid<TAB>query) for lines without 'topic'")
    from pyterrier_rag_axioms.nuggets import NuggetExtractor

    add_declared_option(parser, NuggetExtractor, "max_nuggets", metavar="N", help="most nuggets per topic")
    for name, metavar, text, default_text in EXTRACTOR_OPTIONS:
        add_declared_option(parser, NuggetExtractor, name, metavar=metavar, help=text, default_text=default_text)
    parser.add_argument(
        "--encoder",
        metavar="MODEL[:BACKEND]",
        help="the sentence encoder: a sentence-transformers model name or path, and optionally a backend "
        "(torch, onnx, onnx-int8, onnx-int8-per-channel, static), e.g. all-MiniLM-L6-v2:onnx-int8 "
        "(default: all-MiniLM-L6-v2 with static)",
    )
    parser.add_argument("--sentence-model", dest="encoder", help=argparse.SUPPRESS)  # its name before --encoder
    add_progress_options(parser)
    add_cache_option(parser)
    add_processes_option(parser)
    return parser


def checked_output(path: str, inputs: Sequence[str | None]) -> None:
    """Refuse, before any work, an output that is empty, not named for JSON lines, a directory, an input or in no
    folder."""
    from pyterrier_rag_axioms.io import check_output_path

    if not path.strip():
        raise CommandLineError("--output: the path is empty; give the name of the nugget file to write")
    if not path.lower().endswith((".jsonl", ".jsonl.gz", ".json", ".json.gz")):
        raise CommandLineError(
            f"--output {path}: nuggetize writes JSON lines (nuggetizer's create format), so name "
            "the file .jsonl (or .jsonl.gz)"
        )
    check_output_path(path, inputs=inputs)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise CommandLineError(f"--output {path}: no such folder {folder}")


def run_answers(paths: Sequence[str], topics: str | None) -> pd.DataFrame:
    """The answers of the run files, one response per (topic, run); a file without answers, or run files that
    answer every topic once (one run), is an error. A topic that one run alone answers gets no nuggets."""
    from pyterrier_rag_axioms.judgments import load_run_file

    frames = []
    for path in paths:
        frame = load_run_file(path, topics=topics)
        answered = frame["response"].str.strip().astype(bool)
        if not answered.any():
            raise CommandLineError(f"{path}: the run file holds no answer (no line with answer text)")
        frames.append(frame[answered])
    responses = pd.concat(frames, ignore_index=True)
    repeated = responses.duplicated(["qid", "docno"])
    if repeated.any():
        qid, run = responses.loc[repeated.idxmax(), ["qid", "docno"]]
        raise CommandLineError(f"run {run!r} answers topic {qid!r} more than once across the run files")
    counts = responses.groupby("qid", sort=True)["docno"].agg(list)
    alone = counts[counts.map(len) < 2]
    if len(alone) == len(counts):  # one run for every topic: a topic answered by one run alone has no nuggets
        qid, runs = alone.index[0], alone.iloc[0]
        raise CommandLineError(
            f"topic {qid!r} has one answer (run {runs[0]!r}); nuggets are what several runs state, so give the "
            "run files of at least two runs for every topic"
        )
    return responses


def format_nuggets(nuggets: pd.DataFrame, responses: pd.DataFrame) -> str:
    """Each topic's nuggets as a reader scans them: the topic and its query, then per nugget its importance, how
    many runs state it and its text."""
    queries = dict(zip(responses["qid"], responses["query"]))
    lines = []
    for qid, rows in nuggets.groupby("qid", sort=False):
        lines += ["", f"[{printable(qid)}] {shorten(queries.get(qid, ''), 100)}"]
        supports = rows["support"] if "support" in rows.columns else [None] * len(rows)
        for nugget, importance, support in zip(rows["nugget"], rows["importance"], supports):
            runs = "" if support is None else f"{int(support)} runs"
            lines.append(f"  {importance:<5}  {runs:>7}  {shorten(nugget, 100)}")
    return "\n".join(lines)


def nuggetize_main(argv: Sequence[str]) -> int:
    """Write each topic's nuggets, drawn from the run files' answers, to ``--output`` (or print them)."""
    args = build_parser().parse_args(argv)
    resolve_progress(args)
    if not args.runs:  # the shipped TREC 2024 RAG sample, as assign and runs take it
        from pyterrier_rag_axioms.sample import trec_sample_runs

        args.runs = [str(path) for path in trec_sample_runs()]
    if args.output is not None:
        checked_output(args.output, [*args.runs, args.topics])
    use_cache_option(args)

    from pyterrier_rag_axioms.nuggets import NuggetExtractor
    from pyterrier_rag_axioms.nuggets.extractor import NoNuggetsWarning
    from pyterrier_rag_axioms.nuggets.review import save_nuggets

    responses = run_answers(args.runs, args.topics)
    settings = {name: getattr(args, name) for name, *_ in EXTRACTOR_OPTIONS}
    extractor = NuggetExtractor(
        max_nuggets=args.max_nuggets,
        encoder=args.encoder,
        verbose=args.verbose,
        processes=args.processes,
        **settings,
    )
    with warnings.catch_warnings():  # the command says it in its own line below
        warnings.simplefilter("ignore", NoNuggetsWarning)
        nuggets = extractor(responses[["qid", "query", "docno", "response"]])
    empty = sorted(set(responses["qid"]) - set(nuggets["qid"]))
    summary = (
        f"{len(nuggets)} nuggets ({(nuggets['importance'] == 'vital').sum()} vital) drawn from {len(responses)} "
        f"answers of {responses['docno'].nunique()} runs to {responses['qid'].nunique()} topics"
    )
    if args.output is None:
        print(summary)
        print(format_nuggets(nuggets, responses))
    else:
        topics = dict(sorted(zip(responses["qid"], responses["query"])))
        save_nuggets(nuggets, args.output, topics=topics)  # a topic without nuggets too, with an empty list
        print(f"{summary}; written to {printable(args.output)}")
    if empty:
        named = ", ".join(printable(qid) for qid in empty[:3]) + (
            f" and {len(empty) - 3} more" if len(empty) > 3 else ""
        )
        where = " (an empty list in the file)" if args.output is not None else ""
        print(
            f"no two runs state one fact for topic {named}: it has no nuggets{where}"
            if len(empty) == 1
            else f"no two runs state one fact for {len(empty)} topics ({named}): they have no nuggets{where}"
        )
    return 0
