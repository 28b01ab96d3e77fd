"""Agreement of every offline axiom with the CrowdRAG-25 judgments, and each pair's preferences.

Runs the RAG axioms (all but CLAR1, which needs a LanguageTool server), the GEN_* axioms and the
majority vote of the RAG axioms over the judged pairs of the development slice, prints the
agreement with overall quality as a Markdown table, and writes every pair's preferences to a
Parquet file, so that two versions of the package (or the package and ir-axioms, see
``irax_pairs.py``) can be compared pair by pair::

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/crowdrag_agreement.py --output after.parquet
    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/crowdrag_agreement.py --compare before.parquet after.parquet

GEN_ArgUC, GEN_QTArg and GEN_QTPArg use the offline discourse-marker tagger unless
``--targer-url`` names a TARGER API (e.g. ``local_targer.py``'s, for a side-by-side run with
ir-axioms on identical tags); ``--axioms`` runs only the named axioms (no majority vote then).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import pandas as pd

PAIR_KEYS = ["qid", "docno_a", "docno_b"]


def default_data() -> Path:
    root = Path(__file__).resolve().parents[1]
    return Path(os.environ.get("RAG_AXIOMS_SHARED_DATA", root.parent / "shared" / "data"))


#: The GEN_* axioms that read argument units, from a TARGER server with ``--targer-url``.
ARGUMENT_AXIOMS = ("GEN_ArgUC", "GEN_QTArg", "GEN_QTPArg")


def measure(data: Path, output: Path, *, targer_url: str | None = None, only: list[str] | None = None) -> pd.DataFrame:
    import pyterrier_rag_axioms as rag

    crowdrag = data / "crowdrag-25"
    judged = rag.judgments.load_crowdrag_judgments(
        crowdrag / "ratings.dev.jsonl.gz", crowdrag / "responses.dev.jsonl.gz"
    )
    wanted = (lambda name: name in only) if only else (lambda name: True)
    rag_axioms = [axiom() for name, axiom in rag.RAG_AXIOMS.items() if name != "CLAR1" and wanted(name)]
    gen_axioms = [
        axiom(argument_tagger=targer_url) if targer_url and name in ARGUMENT_AXIOMS else axiom()
        for name, axiom in rag.GEN_AXIOMS.items()
        if wanted(name)
    ]
    try:  # the other ways an axiom can read texts, where this version of the package offers them
        variants = [rag.COH2(triples="broad", name="COH2_broad")] if wanted("COH2") else []
    except TypeError:
        variants = []
    members = [*rag_axioms, *gen_axioms, *variants]
    if not members:
        raise SystemExit(f"crowdrag_agreement.py: no axiom of this package is named in --axioms {','.join(only)}")
    pipeline = members[0]
    for axiom in members[1:]:
        pipeline = pipeline >> axiom
    preferences = pipeline(judged)
    names = [axiom.name for axiom in [*rag_axioms, *gen_axioms]]
    if not only:
        vote = rag.MajorityVote(*[axiom.name for axiom in rag_axioms], name="MajorityVote")
        preferences = vote(preferences)
        names.append(vote.name)
    names += [axiom.name for axiom in variants]
    truths = ["quality_overall"]
    preferences[[*PAIR_KEYS, *names, *truths]].to_parquet(output)
    return rag.agreement(preferences, truth="quality_overall", axioms=names)


def compare(before: Path, after: Path) -> pd.DataFrame:
    """Per axiom: agreement with overall quality before and after, and the share of pairs whose preference changed."""
    from pyterrier_rag_axioms import agreement

    old, new = pd.read_parquet(before), pd.read_parquet(after)
    merged = old.merge(new, on=PAIR_KEYS, suffixes=("_before", "_after"))
    merged["quality_overall"] = merged["quality_overall_before"]
    rows = []
    for name in [column for column in old.columns if column in new.columns and column not in PAIR_KEYS]:
        if name == "quality_overall":
            continue
        renamed = merged.rename(columns={f"{name}_before": "before", f"{name}_after": "after"})
        table = agreement(renamed, truth="quality_overall", axioms=["before", "after"]).set_index("axiom")
        changed = (renamed["before"].fillna(0) != renamed["after"].fillna(0)).sum()
        rows.append({
            "axiom": name,
            "decisiveness before": table.loc["before", "decisiveness"],
            "decisiveness after": table.loc["after", "decisiveness"],
            "concordance before": table.loc["before", "concordance"],
            "pairs before": table.loc["before", "concordance_pairs"],
            "concordance after": table.loc["after", "concordance"],
            "pairs after": table.loc["after", "concordance_pairs"],
            "changed pairs": int(changed),
        })
    return pd.DataFrame(rows)


#: Axioms whose direction differs from ir-axioms by design: compared after negating ir-axioms' preference.
OPPOSITE_DIRECTION = ("CORR1", "CLAR2")


def compare_irax(irax: Path, ours: Path) -> pd.DataFrame:
    """Per axiom: the share of judged pairs where ir-axioms (``irax_pairs.py``) and this package prefer the same."""
    import json

    import numpy as np

    report = json.loads(irax.read_text(encoding="utf-8"))
    frame = pd.read_parquet(ours)
    rows = []
    for name, topics in report.items():
        columns = [column for column in frame.columns if column == name or column.startswith(f"{name}_")]
        if "error" in topics or not columns:
            rows.append({"axiom": name, "compared": name, "pairs": 0, "same preference": np.nan,
                         "note": topics.get("error", "not in this package's frame")})
            continue
        theirs = []
        for qid, a, b in frame[PAIR_KEYS].itertuples(index=False):
            topic = topics[str(qid)]
            index = {docno: position for position, docno in enumerate(topic["ids"])}
            theirs.append(topic["matrix"][index[str(a)]][index[str(b)]])
        theirs = np.asarray(theirs, dtype=float)
        if name in OPPOSITE_DIRECTION:
            theirs = -theirs
        for column in columns:
            same = float(np.mean(np.nan_to_num(frame[column].to_numpy(dtype=float)) == np.nan_to_num(theirs)))
            note = "ir-axioms negated (opposite direction by design)" if name in OPPOSITE_DIRECTION else ""
            rows.append({"axiom": name, "compared": column, "pairs": len(frame), "same preference": same, "note": note})
    return pd.DataFrame(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=default_data(), help="the shared development data")
    parser.add_argument("--output", type=Path, help="Parquet file for every judged pair's preferences")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("BEFORE", "AFTER"), help="two such files")
    parser.add_argument("--irax", type=Path, nargs=2, metavar=("IRAX_JSON", "OURS"),
                        help="compare irax_pairs.py's report with such a file")
    parser.add_argument("--targer-url", help="a TARGER API for GEN_ArgUC, GEN_QTArg and GEN_QTPArg")
    parser.add_argument("--axioms", default="", help="comma-separated names to run (default: all)")
    args = parser.parse_args()
    pd.set_option("display.width", 200)
    if args.compare:
        print(compare(*args.compare).round(3).to_string(index=False))
    elif args.irax:
        print(compare_irax(*args.irax).round(3).to_string(index=False))
    else:
        if args.output is None:
            parser.error("--output is required unless --compare is given")
        only = [name for name in args.axioms.split(",") if name] or None
        print(measure(args.data, args.output, targer_url=args.targer_url, only=only).round(3).to_string(index=False))


if __name__ == "__main__":
    main()
