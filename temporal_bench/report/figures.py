"""Figures of the papers drawn from measured runs (PNG, matplotlib), each with its plotted values
as a CSV beside it, so a figure can be checked without the image.

A figure plots, per run (one line per model), a few metric keys of one setting, or their
difference between two settings (CaT-Bench Figures 7 and 8: A+E minus A; ISO-Bench Figure 2: E→A
minus A). The two settings may come from one run or from two runs of the same model (the report
merges runs by model name). Each point is drawn with the 95% interval the report computes for it
where the run logged its samples, and its CSV row gives the interval and the questions it rests on
(figure_points.py). Each benchmark lists its figures in its registry entry's ``figures``
(e.g. catbench/figures.py); a figure by model size (TempVS Figure 2) by size_figure.py.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from temporal_bench.benchmarks import Collected, named
from temporal_bench.report.figure_points import Point, Subset, difference_point, single_point
from temporal_bench.report.layouts import Setting
from temporal_bench.runs.results import Run

INTERVAL_NOTE = "bars: 95% intervals (cluster bootstrap; a difference: the paired permutation interval of compare)"


@dataclass(frozen=True)
class Figure:
    name: str  # CLI name and file stem
    benchmark: str
    title: str
    setting: Setting  # the tasks whose metrics are plotted
    metrics: tuple[tuple[str, str], ...]  # (x tick label, metric key)
    xlabel: str
    ylabel: str
    scale: float = 100.0
    reference: tuple[float, str] | None = None  # (value, legend label), drawn as a dashed line
    minus: Setting | None = None  # plotted: the setting's value minus this setting's
    ylim: tuple[float, float] | None = (0.0, 100.0)  # None: fitted to the data
    subsets: tuple[Subset, ...] = ()  # per x tick, the records and metric its interval is computed from (none: no interval)


def difference_figure(name: str, title: str, setting: Setting, minus: Setting, metric: str, split: str, keys: tuple[str, str], subsets: tuple[Subset, ...] = ()) -> Figure:
    """A figure of ``setting`` minus ``minus`` per key (x ticks: the keys' last word)."""
    return Figure(
        name=name,
        benchmark=name.split("-", 1)[0],
        title=title,
        setting=setting,
        minus=minus,
        metrics=tuple((key.rsplit("_", 1)[1], key) for key in keys),
        xlabel=split,
        ylabel=f"{metric}: {setting.label} − {minus.label}",
        scale=1.0,
        reference=(0.0, "no change"),
        ylim=None,
        subsets=subsets,
    )


# every benchmark's figures by CLI name
FIGURES = Collected(lambda benchmark: named(benchmark.figures))


def points(figure: Figure, run: Run) -> list[Point]:
    """The plotted points, one per x tick, in the figure's units."""
    subsets = figure.subsets or (None,) * len(figure.metrics)
    if figure.minus is None:
        return [single_point(run, figure.setting, key, subset, figure.scale) for (_, key), subset in zip(figure.metrics, subsets)]
    return [difference_point(run, figure.setting, figure.minus, key, subset, figure.scale) for (_, key), subset in zip(figure.metrics, subsets)]


def series(figure: Figure, run: Run) -> list[float | None]:
    """The plotted values, one per x tick (None where the run lacks a value)."""
    return [point.value for point in points(figure, run)]


def plotted_runs(figure: Figure, runs: Sequence[Run]) -> list[Run]:
    """The runs with at least one plotted value: those drawn."""
    return [run for run in runs if any(v is not None for v in series(figure, run))]


def figures_for(runs: Sequence[Run]) -> list[Figure]:
    """The figures at least one run has a value for."""
    return [f for f in FIGURES.values() if plotted_runs(f, runs)]


def draw(figure: Figure, runs: Sequence[Run], path: Path) -> Path:
    """One line per run (points it lacks are left out), written as PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4), dpi=100)
    positions = range(len(figure.metrics))
    drawn = [(run, points(figure, run)) for run in plotted_runs(figure, runs)]
    for run, found in drawn:
        xs, shown = zip(*((x, p) for x, p in zip(positions, found) if p.value is not None))
        line = ax.plot(xs, [p.value for p in shown], marker="o", label=run.label)[0]
        bars = [(x, p) for x, p in zip(xs, shown) if p.low is not None]
        if bars:
            ax.errorbar([x for x, _ in bars], [p.value for _, p in bars], yerr=[[p.value - p.low for _, p in bars], [p.high - p.value for _, p in bars]], fmt="none", ecolor=line.get_color(), capsize=3, linewidth=1)
    if any(p.low is not None for _, found in drawn for p in found):
        fig.text(0.01, 0.01, INTERVAL_NOTE, fontsize=7, color="grey")
    ax.set_xticks(list(positions), [label for label, _ in figure.metrics])
    if figure.reference is not None:
        value, label = figure.reference
        ax.axhline(value, linestyle="--", color="grey", linewidth=1, label=label)
    ax.set_title(figure.title, fontsize=10)
    ax.set_xlabel(figure.xlabel)
    ax.set_ylabel(figure.ylabel)
    if figure.ylim is not None:
        ax.set_ylim(*figure.ylim)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return save(fig, path)


def save(fig, path: Path) -> Path:
    """Write a matplotlib figure as PNG (no software stamp, so equal figures give equal files)."""
    import matplotlib.pyplot as plt

    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)
    return path


def number(value: float | None) -> str:
    """A CSV cell: empty for a missing value, else unrounded to 6 places (as the report's CSV tables)."""
    return "" if value is None else repr(round(value, 6))


def write_csv(figure: Figure, runs: Sequence[Run], path: Path) -> Path:
    """The plotted values, one row per (drawn run, x tick), in the figure's units; a difference
    figure also gives its two operands and their settings; then each point's 95% interval and the
    questions it rests on (empty where unknown). A point the run lacks has an empty value."""
    head = ["figure", "model", "x", "metric", "value"]
    if figure.minus is not None:
        head += ["setting", "setting_value", "minus", "minus_value"]
    head += ["low", "high", "n"]
    rows = []
    for run in plotted_runs(figure, runs):
        for (label, key), point in zip(figure.metrics, points(figure, run)):
            row = [figure.name, run.label, label, key, number(point.value)]
            if figure.minus is not None:
                row += [figure.setting.label, number(point.operands[0]), figure.minus.label, number(point.operands[1])]
            rows.append(row + [number(point.low), number(point.high), "" if point.n is None else str(point.n)])
    return write_rows(path, head, rows)


def write_rows(path: Path, head: list[str], rows: list[list[str]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(head)
        writer.writerows(rows)
    return path
