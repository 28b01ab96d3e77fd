"""Agreement with RAGChecker's human preferences: reference nuggets and the assigner, ROUGE-L, the preference model.

Reads ``ragchecker/human_preferences.dev.jsonl`` of the development data (four of RAGChecker's ten
datasets, 28 instances each; two annotators' ``overall`` labels, positive where response b is
better). Each instance is a topic with two responses, ``a`` and ``b``, and a reference answer.
The people's preference is the sign of the two annotators' sum; instances where it is 0 are left
out. For each judge it prints, per dataset and over all: the share of instances it decides (no
tie), its agreement on those, and its agreement counting a tie as half.

Judges (nothing here is fitted on these data):

- ``reference nuggets``: :func:`~pyterrier_rag_axioms.nuggets.reference.reference_nuggets` of the
  reference answer, assigned by the shipped assigner, scored by
  :func:`~pyterrier_rag_axioms.nuggets.reference.reference_scores` (mean confidence);
- ``reference nuggets, support share``: the same nuggets scored by their assignments alone
  (support 1, partial 0.5): the all-or-nothing score that ties;
- ``ROUGE-L F``: against the reference answer (rouge-score, stemmed), as pyterrier-rag's ROUGELF;
- ``PreferenceModel.default()``: the shipped CrowdRAG model, which reads no reference;
- ``longer``: the longer response.

Usage: ``.venv/bin/python benchmarks/ragchecker_agreement.py`` (about two minutes on two cores).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import pandas as pd
from _setup import DEV_DATA  # noqa: E402  (first: the checkout's package, offline models)

DATA = DEV_DATA / "ragchecker" / "human_preferences.dev.jsonl"


def load(path=DATA) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The instances (``qid``, ``dataset``, ``human``: +1 prefers a), their responses and their reference answers."""
    rows = pd.read_json(path, lines=True, dtype={"query_id": str})
    qid = rows["instance_id"].astype(str)
    human = -np.sign([sum(label["overall"] for label in labels) for labels in rows["labels"]])
    instances = pd.DataFrame({"qid": qid, "dataset": rows["dataset"], "human": human})
    responses = pd.concat([
        pd.DataFrame({"qid": qid, "query": rows["query"], "docno": side, "response": rows[f"response_{side}"]})
        for side in ("a", "b")
    ]).sort_values(["qid", "docno"], kind="stable").reset_index(drop=True)
    answers = pd.DataFrame({"qid": qid, "query": rows["query"], "gold_answer": rows["gt_answer"]})
    return instances, responses, answers


def preference(scores: pd.DataFrame, column: str) -> pd.Series:
    """+1 where response a scores higher, -1 where b does, 0 on a tie; by qid."""
    table = scores.pivot(index="qid", columns="docno", values=column)
    return np.sign(table["a"] - table["b"])


#: The graded scores against reference nuggets that were candidates, chosen among by leave-one-dataset-out.
CANDIDATES = ("nugget confidence", "nugget probability", "nugget confidence + ROUGE-L", "nugget probability + ROUGE-L")


def judges(responses: pd.DataFrame, answers: pd.DataFrame) -> dict[str, pd.Series]:
    from pyterrier_rag_axioms import PreferenceModel
    from pyterrier_rag_axioms.judgments import NUGGET_ASSIGNMENT_SCORES
    from pyterrier_rag_axioms.nuggets import NuggetAssigner
    from pyterrier_rag_axioms.nuggets.reference import reference_nuggets, reference_score

    nuggets = reference_nuggets(answers)
    assigner = NuggetAssigner(nuggets=nuggets)
    scored = reference_score(responses, answers, nuggets=nuggets, assigner=assigner)
    assigned = assigner(responses).merge(nuggets[["qid", "nugget_id", "answer"]], on=["qid", "nugget_id"])
    assigned["credit"] = assigned["assignment"].map(NUGGET_ASSIGNMENT_SCORES)  # support 1, partial 0.5
    per_response = assigned.groupby(["qid", "docno"], sort=False).agg(
        confidence=("confidence", "mean"), share=("credit", "mean"))
    scored = scored.merge(per_response.reset_index(), on=["qid", "docno"])
    return {
        "nugget confidence": preference(scored, "confidence"),
        "nugget probability": preference(scored, "nugget_recall"),
        "nugget confidence + ROUGE-L": preference(scored.assign(sum=scored["confidence"] + scored["rouge_l"]), "sum"),
        "nugget probability + ROUGE-L": preference(scored, "reference_score"),  # reference_score's choice
        "nugget support share": preference(scored, "share"),
        "ROUGE-L F": preference(scored, "rouge_l"),
        "PreferenceModel.default()": PreferenceModel.default()(responses).set_index("qid")["PreferenceModel"],
        "longer": preference(responses.assign(length=responses["response"].str.len()), "length"),
    }


def agreement_table(instances: pd.DataFrame, found: dict[str, pd.Series]) -> pd.DataFrame:
    judged = instances[instances["human"] != 0].set_index("qid")
    rows = []
    for name, prediction in found.items():
        for dataset, group in [*judged.groupby("dataset"), ("all", judged)]:
            decided = prediction.reindex(group.index).astype(float)
            agree = decided == group["human"]
            share = float((decided != 0).mean())
            rows.append({"judge": name, "dataset": dataset, "instances": len(group), "decided": round(share, 3),
                         "agreement, decided": round(float(agree[decided != 0].mean()), 3),
                         "agreement, tie = 1/2": round(float((agree + 0.5 * (decided == 0)).mean()), 3)})
    return pd.DataFrame(rows)


def main(argv: list[str] | None = None) -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args(argv)
    if not DATA.is_file():
        sys.exit(f"no RAGChecker development data at {DATA}")
    instances, responses, answers = load()
    found = judges(responses, answers)
    table = agreement_table(instances, found)
    print(table.to_string(index=False))
    print("\nleave one dataset out: the candidate with the best agreement (tie = 1/2) on the other three")
    for dataset in sorted(instances["dataset"].unique()):
        rest = table[(table["dataset"] != dataset) & (table["dataset"] != "all") & table["judge"].isin(CANDIDATES)]
        weighted = rest.assign(weight=rest["agreement, tie = 1/2"] * rest["instances"]).groupby("judge")["weight"].sum()
        chosen = weighted.idxmax()
        held = table[(table["dataset"] == dataset) & (table["judge"] == chosen)].iloc[0]
        print(f"  {dataset}: {chosen}: {held['agreement, tie = 1/2']:.3f} on {held['instances']} instances "
              f"({held['decided']:.0%} decided)")


if __name__ == "__main__":
    main()
