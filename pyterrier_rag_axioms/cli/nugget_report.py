"""The tables of ``rag-axioms assign``: each run's nugget scores, and with manual assignments, Kendall's tau."""

from __future__ import annotations

import pandas as pd

from pyterrier_rag_axioms.cli._printing import printable

#: The scores the comparison table shows for each side (Weighted stays in the saved tables).
SHOWN_SCORES: tuple[str, ...] = ("all", "vital", "all_strict", "vital_strict")


def _number(value: float, digits: int = 3) -> str:
    return "-" if pd.isna(value) else f"{value:.{digits}f}"


def format_run_table(table: pd.DataFrame) -> str:
    """The run table of automatic scores alone (``run_nugget_table``), as ``assign`` prints it."""
    shown = table.assign(run=table["run"].map(printable))  # run ids drive no terminal
    with pd.option_context("display.width", 200, "display.max_columns", 20, "display.max_rows", 500):
        return shown.to_string(index=False, float_format=lambda value: f"{value:.3f}")


def comparison_table(automatic: pd.DataFrame, manual: pd.DataFrame) -> pd.DataFrame:
    """One row per run: its automatic and manual mean scores, topics and both ranks, best automatic first."""
    from pyterrier_rag_axioms.evaluation.comparison import run_nugget_table

    auto = run_nugget_table(automatic)
    by_hand = run_nugget_table(manual)
    table = auto[["run", "topics", *SHOWN_SCORES, "rank"]].rename(
        columns={"rank": "auto_rank", **{score: f"auto_{score}" for score in SHOWN_SCORES}}
    )
    by_hand = by_hand[["run", "topics", *SHOWN_SCORES, "rank"]].rename(
        columns={"topics": "manual_topics", "rank": "manual_rank", **{s: f"manual_{s}" for s in SHOWN_SCORES}}
    )
    return table.merge(by_hand, on="run", how="left")


def format_comparison(
    automatic: pd.DataFrame, manual: pd.DataFrame, *, confidence: float, manual_source: str,
    automatic_source: str = "automatic",
) -> str:
    """The table of ``assign --manual`` (and ``score --manual``): per-run scores both ways, tau per score with its
    interval, tau per topic; ``automatic_source`` heads the first side."""
    from pyterrier_rag_axioms.evaluation.comparison import compare_nugget_rankings, few_topics_warning, per_topic_tau

    table = comparison_table(automatic, manual)
    runs = [printable(run) for run in table["run"]]
    width = max([len(run) for run in runs] + [3])
    scores = "".join(f"  {name:>12}" for name in SHOWN_SCORES)
    lines = [
        f"  {'':<{width}}  {'':>6}  {automatic_source:^{14 * len(SHOWN_SCORES)}}  {'':>4}  "
        f"{'manual (' + manual_source + ')':^{14 * len(SHOWN_SCORES)}}",
        f"  {'run':<{width}}  {'topics':>6}{scores}  {'rank':>4}{scores}  {'rank':>4}",
    ]
    for row, run in zip(table.itertuples(index=False), runs):
        auto = "".join(f"  {_number(getattr(row, f'auto_{name}')):>12}" for name in SHOWN_SCORES)
        by_hand = "".join(f"  {_number(getattr(row, f'manual_{name}')):>12}" for name in SHOWN_SCORES)
        manual_rank = "-" if pd.isna(row.manual_rank) else str(int(row.manual_rank))
        lines.append(f"  {run:<{width}}  {row.topics:>6}{auto}  {row.auto_rank:>4}{by_hand}  {manual_rank:>4}")

    taus = compare_nugget_rankings(automatic, manual, confidence=confidence)
    between = ("the automatic and the manual ranking" if automatic_source == "automatic"
               else f"the rankings of {automatic_source} and {manual_source}")
    taus = taus[taus["score"].isin(SHOWN_SCORES)]
    topics = int(taus["topics"].iloc[0])
    interval_header = f"{confidence:.0%} interval over {topics} topics"
    lines += [
        "",
        f"Kendall's tau between {between} of {int(taus['runs'].iloc[0])} runs:",
        f"  {'score':<12}  {'tau':>6}  {interval_header:>28}  {'mean tau per topic':>18}",
    ]
    for row in taus.itertuples(index=False):
        interval = f"{_number(row.tau_low)} to {_number(row.tau_high)}"
        lines.append(f"  {row.score:<12}  {_number(row.tau):>6}  {interval:>28}  {_number(row.mean_topic_tau):>18}")
    warning = few_topics_warning(topics, confidence)
    if warning:
        lines.append(warning)
    within = per_topic_tau(automatic, manual, score="all")
    lines += ["", "Kendall's tau within each topic (all):"]
    qid_width = max([len(printable(qid)) for qid in within["qid"]] + [3])
    for row in within.itertuples(index=False):
        lines.append(f"  {printable(row.qid):<{qid_width}}  {_number(row.tau):>6}  over {row.runs} runs")
    return "\n".join(line.rstrip() for line in lines)


def format_judge_table(table: pd.DataFrame) -> str:
    """The run judge's mean score and rank of each run (``judge_score``, ``judge_rank``), best first, as ``assign
    --judge --manual`` prints it beside the comparison of the nuggets' rankings."""
    judged = table[["run", "judge_score", "judge_rank"]].sort_values(["judge_rank", "run"], kind="stable")
    return "\nThe run judge's ranking (mean score per answer):\n" + format_run_table(judged.reset_index(drop=True))


__all__ = ["SHOWN_SCORES", "comparison_table", "format_comparison", "format_judge_table", "format_run_table"]
