"""Plots of the evaluation (matplotlib, imported when a plot is drawn): an agreement table as a
heatmap (:func:`plot_agreement`) and two run rankings side by side (:func:`plot_run_rankings`)."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from pyterrier_rag_axioms.evaluation.correlation import run_correlation

if TYPE_CHECKING:
    from matplotlib.axes import Axes


def plot_agreement(
    table: pd.DataFrame,
    *,
    pairs: pd.DataFrame | None = None,
    min_pairs: int = 30,
    ax: Axes | None = None,
    title: str | None = None,
    cmap: str = "RdBu",
    vmin: float = 0.0,
    vmax: float = 1.0,
    annotate: bool = True,
    label: str | None = None,
) -> Axes:
    """A heatmap of an agreement table (axioms × truths), e.g. from :func:`agreement_by_dimension`.

    With the default colour scale, 0.5 (chance concordance) is white, agreement blue and
    disagreement red; missing values are grey. A value computed from few pairs is noise, so a
    cell whose ``pairs`` count is below ``min_pairs`` is not coloured: it is grey, with its value
    and its number of pairs written in it, and the axis label says what grey means.

    Args:
        table: values to show, indexed by axiom, one column per truth.
        pairs: the number of pairs behind each value, a table like ``table`` (for concordance:
            ``agreement_by_dimension(..., measure="concordance_pairs")``, the pairs both decide).
            Without it no cell can be marked, and a warning says so.
        min_pairs: cells from fewer pairs are greyed out and annotated with their count.
        ax: the matplotlib axes to draw on (default: a new figure sized to the table).
        title: the plot title.
        cmap: a matplotlib colour map name.
        vmin: the value of the colour scale's low end.
        vmax: the value of the colour scale's high end.
        annotate: write each value into its cell.
        label: the label of the colour bar (e.g. the measure shown).

    Returns:
        The axes drawn on.
    """
    try:
        import matplotlib.pyplot as plt
    except ImportError as error:  # matplotlib comes with the "test" and "notebooks" extras
        raise ImportError("plot_agreement needs matplotlib: pip install matplotlib") from error

    values = table.to_numpy(dtype=float)
    counts = _pair_counts(table, pairs)
    sparse = counts < min_pairs  # NaN counts (unknown) compare False: nothing is marked
    if ax is None:
        width = 2.0 + 1.1 * max(values.shape[1], 1)
        height = 1.5 + 0.4 * max(values.shape[0], 1)
        _, ax = plt.subplots(figsize=(width, height))
    colour_map = plt.get_cmap(cmap).with_extremes(bad="lightgrey")
    shown = np.ma.masked_array(values, mask=np.isnan(values) | sparse)
    image = ax.imshow(shown, cmap=colour_map, vmin=vmin, vmax=vmax, aspect="auto")
    ax.set_xticks(range(values.shape[1]), [str(column) for column in table.columns], rotation=40, ha="right")
    ax.set_yticks(range(values.shape[0]), [str(index) for index in table.index])
    x_label = str(table.columns.name or "")
    if sparse.any():
        x_label = f"{x_label}\n(grey: fewer than {min_pairs} pairs, count in brackets)".lstrip("\n")
    ax.set_xlabel(x_label)
    ax.set_ylabel(str(table.index.name or ""))
    if annotate:
        middle = (vmin + vmax) / 2
        for row, column in np.ndindex(values.shape):
            value = values[row, column]
            if np.isnan(value):
                continue
            if sparse[row, column]:
                text, colour = f"{value:.2f}\n({int(counts[row, column])})", "dimgrey"
            else:
                text, colour = f"{value:.2f}", "white" if abs(value - middle) > 0.35 * (vmax - vmin) else "black"
            ax.text(column, row, text, ha="center", va="center", fontsize=8, color=colour)
    colour_bar = ax.figure.colorbar(image, ax=ax)
    if label:
        colour_bar.set_label(label)
    if title:
        ax.set_title(title)
    return ax


def _pair_counts(table: pd.DataFrame, pairs: pd.DataFrame | None) -> np.ndarray:
    """The pair count of each cell of ``table`` (NaN where unknown), checked against its shape."""
    if pairs is None:
        warnings.warn(
            "plot_agreement: no pair counts given (pairs=...), so cells computed from few pairs cannot be "
            "marked; pass agreement_by_dimension(..., measure='concordance_pairs')",
            stacklevel=3,
        )
        return np.full(table.shape, np.nan)
    missing = [str(name) for name in table.index if name not in pairs.index]
    missing += [str(name) for name in table.columns if name not in pairs.columns]
    if missing:
        raise ValueError(f"plot_agreement: pairs has no row or column for {', '.join(missing)}")
    return pairs.loc[table.index, table.columns].to_numpy(dtype=float)


def side_by_side(first: pd.DataFrame, second: pd.DataFrame, *, score_first: str, score_second: str) -> pd.DataFrame:
    """Two run rankings in one frame: ``run``, both scores and both ranks, in the order of the first."""
    merged = first[["run", score_first, "rank"]].merge(
        second[["run", score_second, "rank"]], on="run", suffixes=(f" ({score_first})", f" ({score_second})")
    )
    return merged.reset_index(drop=True)


def plot_run_rankings(
    first: pd.DataFrame,
    second: pd.DataFrame,
    *,
    score_first: str,
    score_second: str,
    labels: tuple[str, str] | None = None,
    ax: Axes | None = None,
    title: str | None = None,
) -> Axes:
    """Two rankings of the same runs side by side: one line per run from its rank in one to its rank in the other.

    Crossing lines show where the rankings disagree; the title gives Kendall's tau.

    Args:
        first: a run-level table with ``run``, ``score_first`` and ``rank`` (e.g. :func:`run_win_rates`).
        second: another (e.g. :func:`mean_run_scores`).
        score_first: the score column of ``first``.
        score_second: the score column of ``second``.
        labels: the two axis labels (default: the score names).
        ax: the matplotlib axes to draw on (default: a new figure).
        title: the title (default: Kendall's tau and the number of runs).
    """
    try:
        import matplotlib.pyplot as plt
    except ImportError as error:  # matplotlib comes with the "test" extra
        raise ImportError("plot_run_rankings needs matplotlib: pip install matplotlib") from error

    table = side_by_side(first, second, score_first=score_first, score_second=score_second)
    # one row per run on each side, in ranking order (runs with equal scores stand one below the other)
    position_first = {run: position for position, run in enumerate(first["run"], start=1)}
    position_second = {run: position for position, run in enumerate(second["run"], start=1)}
    if ax is None:
        _, ax = plt.subplots(figsize=(7.5, 1.5 + 0.22 * max(len(table), 1)))
    colours = plt.get_cmap("viridis")(np.linspace(0, 1, max(len(table), 1)))
    for run, colour in zip(table["run"], colours):
        y_first, y_second = position_first[run], position_second[run]
        ax.plot([0, 1], [y_first, y_second], color=colour, marker="o", markersize=3, linewidth=1)
        ax.text(-0.03, y_first, str(run), ha="right", va="center", fontsize=7)
        ax.text(1.03, y_second, str(run), ha="left", va="center", fontsize=7)
    left, right = labels or (score_first, score_second)
    ax.set_xticks([0, 1], [f"{left}\n(best on top)", f"{right}\n(best on top)"])
    ax.set_xlim(-1.0, 2.0)
    ax.invert_yaxis()
    ax.yaxis.set_visible(False)
    for side in ("top", "right", "bottom", "left"):
        ax.spines[side].set_visible(False)
    if title is None:
        correlation = run_correlation(first, second, score_first=score_first, score_second=score_second)
        title = f"Kendall's tau {correlation['tau']:.3f} over {correlation['runs']} runs"
    ax.set_title(title)
    return ax
