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
- ``PreferenceModel.default(), no reference``: the shipped CrowdRAG model without its reference term;
- ``longer``: the longer response.

Then the choice of ``PreferenceModel``'s ``reference_weight`` (nested leave one dataset out): for
each dataset, the weight of :data:`WEIGHTS` with the best agreement (tie = 1/2) on the other
three, and the agreement of the model's log-odds plus that weight times the difference of the
reference scores on the held-out dataset; the pooled held-out figure; and the weight chosen on all
four, which ``--write`` writes into the shipped ``preference-crowd.json`` (its agreement on these
data is not printed: it was chosen on them). A last line checks that the shipped model, given the
reference answers as the frame's ``gold_answer``, decides as that sum with its weight.

Usage: ``.venv/bin/python benchmarks/ragchecker_agreement.py [--write]`` (about three minutes on two cores).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import pandas as pd
from _setup import DEV_DATA, PROJECT_ROOT  # noqa: E402  (first: the checkout's package, offline models)

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


def judges(responses: pd.DataFrame, answers: pd.DataFrame) -> tuple[dict[str, pd.Series], pd.DataFrame]:
    """Each judge's preference by qid, and, by qid, the preference model's log-odds without the
    reference (``logit``) and the difference a - b of the reference scores (``difference``)."""
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
    plain = PreferenceModel.default(reference_weight=0.0).explain(responses).set_index("qid")
    table = scored.pivot(index="qid", columns="docno", values="reference_score")
    found = {
        "nugget confidence": preference(scored, "confidence"),
        "nugget probability": preference(scored, "nugget_recall"),
        "nugget confidence + ROUGE-L": preference(scored.assign(sum=scored["confidence"] + scored["rouge_l"]), "sum"),
        "nugget probability + ROUGE-L": preference(scored, "reference_score"),  # reference_score's choice
        "nugget support share": preference(scored, "share"),
        "ROUGE-L F": preference(scored, "rouge_l"),
        "PreferenceModel.default(), no reference": plain["PreferenceModel"],
        "longer": preference(responses.assign(length=responses["response"].str.len()), "length"),
    }
    return found, pd.DataFrame({"logit": plain["PreferenceModel_logit"], "difference": table["a"] - table["b"]})


#: The candidate reference weights (log-odds per unit of reference score difference).
WEIGHTS = (0.0, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0)


def weight_agreement(instances: pd.DataFrame, logits: pd.Series, differences: pd.Series, weight: float) -> pd.Series:
    """Per instance that people decided: agreement of ``sign(logit + weight * difference)`` (a tie 1/2)."""
    judged = instances[instances["human"] != 0].set_index("qid")
    decided = np.sign(logits.reindex(judged.index) + weight * differences.reindex(judged.index).fillna(0.0))
    return (decided == judged["human"]) + 0.5 * (decided == 0)


def choose_weight(agreement: pd.DataFrame) -> float:
    """The weight of the best mean agreement over the instances given (the smallest such)."""
    means = agreement.mean()
    return float(means[means == means.max()].index.min())


def nested_weights(instances: pd.DataFrame, logits: pd.Series, differences: pd.Series) -> tuple[float, dict]:
    """Print the nested leave-one-dataset-out choice of the reference weight and its held-out
    agreement; returns the weight chosen on all datasets and the figures for the model file."""
    judged = instances[instances["human"] != 0].set_index("qid")
    agreement = pd.DataFrame({weight: weight_agreement(instances, logits, differences, weight) for weight in WEIGHTS})
    print("\nreference_weight, nested leave one dataset out (agreement, tie = 1/2; chosen on the other three)")
    held_out, figures = [], {}
    for dataset in sorted(judged["dataset"].unique()):
        inside = judged["dataset"] == dataset
        weight = choose_weight(agreement[~inside.to_numpy()])
        held = agreement.loc[inside.to_numpy(), weight]
        held_out.append(held)
        without = agreement.loc[inside.to_numpy(), 0.0].mean()
        figures[dataset] = {"weight": weight, "agreement": round(float(held.mean()), 4), "instances": len(held),
                            "agreement_without_reference": round(float(without), 4)}
        print(f"  {dataset}: weight {weight:g}: {held.mean():.3f} on {len(held)} instances (weight 0: {without:.3f})")
    pooled = pd.concat(held_out)
    print(f"  all, held out: {pooled.mean():.3f} on {len(pooled)} instances "
          f"(weight 0: {agreement[0.0].mean():.3f})")
    chosen = choose_weight(agreement)
    print(f"chosen on all four datasets (shipped; no held-out figure): {chosen:g}")
    figures["all, held out"] = {"agreement": round(float(pooled.mean()), 4), "instances": len(pooled),
                                "agreement_without_reference": round(float(agreement[0.0].mean()), 4)}
    return chosen, figures


def write_weight(weight: float, figures: dict) -> None:
    """Write the chosen reference weight, with its nested figures, into the shipped crowd model."""
    import json

    from pyterrier_rag_axioms import PreferenceModel
    from pyterrier_rag_axioms.preference.io import DEFAULT_MODELS

    path = PROJECT_ROOT / "pyterrier_rag_axioms" / "preference" / "models" / DEFAULT_MODELS["crowd"]
    metadata = json.loads(path.read_text(encoding="utf-8")).get("metadata", {})
    metadata["reference_weight"] = {
        "chosen_on": "RAGChecker human preferences, 4 development datasets (sign of both annotators' overall)",
        "grid": list(WEIGHTS), "nested_leave_one_dataset_out": figures,
        "script": "benchmarks/ragchecker_agreement.py --write",
    }
    PreferenceModel.load(path, reference_weight=weight).save(path, metadata=metadata)
    print(f"wrote reference_weight {weight:g} into {path.relative_to(PROJECT_ROOT)}")


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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the chosen weight into preference-crowd.json")
    arguments = parser.parse_args(argv)
    if not DATA.is_file():
        sys.exit(f"no RAGChecker development data at {DATA}")
    instances, responses, answers = load()
    found, per_instance = judges(responses, answers)
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
    weight, figures = nested_weights(instances, per_instance["logit"], per_instance["difference"])
    if arguments.write:
        write_weight(weight, figures)
    from pyterrier_rag_axioms import PreferenceModel

    shipped = PreferenceModel.default()
    given = shipped(responses.merge(answers[["qid", "gold_answer"]], on="qid")).set_index("qid")["PreferenceModel"]
    summed = np.sign(per_instance["logit"] + shipped.reference_weight * per_instance["difference"].fillna(0.0))
    print(f"check: PreferenceModel.default() given gold_answer decides as log-odds + {shipped.reference_weight:g} "
          f"x difference on {int((summed == given.reindex(summed.index)).sum())} of {len(summed)} instances")


if __name__ == "__main__":
    main()
