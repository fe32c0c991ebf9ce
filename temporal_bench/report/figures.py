"""Figures of the papers drawn from measured runs (PNG, matplotlib), each with its plotted values
as a CSV beside it, so a figure can be checked without the image.

A figure plots, per run (one line per model), a few metric keys of one setting, or their
difference between two settings (CaT-Bench Figures 7 and 8: A+E minus A; ISO-Bench Figure 2: E→A
minus A). The two settings may come from one run or from two runs of the same model (the report
merges runs by model name). Each benchmark lists its figures in its registry entry's ``figures``
(e.g. catbench/figures.py); a figure by model size (TempVS Figure 2) by size_figure.py.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from temporal_bench.benchmarks import Collected, named
from temporal_bench.report.layouts import Setting
from temporal_bench.report.rows import resolve_setting
from temporal_bench.runs.results import Run


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


def difference_figure(name: str, title: str, setting: Setting, minus: Setting, metric: str, split: str, keys: tuple[str, str]) -> Figure:
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
    )


# every benchmark's figures by CLI name
FIGURES = Collected(lambda benchmark: named(benchmark.figures))


def setting_value(run: Run, setting: Setting, key: str) -> float | None:
    """The first numeric value of ``key`` among the run's tasks of the setting."""
    values = (run.metric(task, key, setting.filters) for task in resolve_setting(run, setting))
    return next((v for v in values if v is not None), None)


def operands(figure: Figure, run: Run) -> list[tuple[float | None, float | None]]:
    """Per x tick, (the setting's value, the ``minus`` setting's value or None), in plotted units."""
    scaled = lambda value: None if value is None else value * figure.scale  # noqa: E731
    return [(scaled(setting_value(run, figure.setting, key)), scaled(setting_value(run, figure.minus, key)) if figure.minus else None) for _, key in figure.metrics]


def series(figure: Figure, run: Run) -> list[float | None]:
    """The plotted values, one per x tick (None where the run lacks a value)."""
    if figure.minus is None:
        return [value for value, _ in operands(figure, run)]
    return [None if value is None or base is None else value - base for value, base in operands(figure, run)]


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
    for run in plotted_runs(figure, runs):
        xs, ys = zip(*((x, y) for x, y in zip(positions, series(figure, run)) if y is not None))
        ax.plot(xs, ys, marker="o", label=run.label)
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
    figure also gives its two operands and their settings. A point the run lacks has an empty value."""
    head = ["figure", "model", "x", "metric", "value"]
    if figure.minus is not None:
        head += ["setting", "setting_value", "minus", "minus_value"]
    rows = []
    for run in plotted_runs(figure, runs):
        for (label, key), value, (own, base) in zip(figure.metrics, series(figure, run), operands(figure, run)):
            row = [figure.name, run.label, label, key, number(value)]
            if figure.minus is not None:
                row += [figure.setting.label, number(own), figure.minus.label, number(base)]
            rows.append(row)
    return write_rows(path, head, rows)


def write_rows(path: Path, head: list[str], rows: list[list[str]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(head)
        writer.writerows(rows)
    return path
