"""A paper figure by model size from measured runs (a benchmark's registry entry ``size_figures``: TempVS
Figure 2, tempvs/figures.py): one panel per setting, parameters on a log axis and one line per model
family (runs whose names differ only in the size, model_size.py). The runs given are the selected
models. A run with no parameter count (e.g. the random baseline) is drawn as a dashed horizontal line
marked "no size"; ``report --param-count`` gives one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from temporal_bench.benchmarks import Collected, named
from temporal_bench.report.figure_points import Point, Subset, single_point
from temporal_bench.report.figures import number, save, write_rows
from temporal_bench.report.layouts import Setting
from temporal_bench.report.model_size import ModelSize
from temporal_bench.runs.results import Run

TICKS = (0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 128, 256)  # billions, on the log axis


@dataclass(frozen=True)
class SizeFigure:
    name: str  # CLI name and file stem
    benchmark: str
    title: str
    panels: tuple[Setting, ...]  # one panel per setting, titled by its label
    metric: str
    ylabel: str
    scale: float = 100.0


def points(figure: SizeFigure, run: Run) -> list[Point]:
    """The run's point in each panel (value None where it lacks one), in plotted units, with its 95%
    interval where the run logged its samples (the report's cell interval)."""
    return [single_point(run, panel, figure.metric, Subset(figure.metric, lambda record: True), figure.scale) for panel in figure.panels]


# every benchmark's figures by model size, by CLI name
SIZE_FIGURES = Collected(lambda benchmark: named(benchmark.size_figures))


def plotted_runs(figure: SizeFigure, runs: Sequence[Run]) -> list[Run]:
    """The runs with a value in at least one panel: those drawn."""
    return [run for run in runs if any(point.value is not None for point in points(figure, run))]


def unsized(figure: SizeFigure, runs: Sequence[Run], sizes: Mapping[str, ModelSize]) -> list[str]:
    """The drawn runs without a parameter count."""
    return [run.label for run in plotted_runs(figure, runs) if sizes[run.label].billions is None]


def _billions(size: ModelSize) -> float:
    """The parameter count of a run drawn by its size."""
    if size.billions is None:
        raise ValueError(f"{size.family}: no parameter count, so no place on the size axis")
    return size.billions


def draw(figure: SizeFigure, runs: Sequence[Run], sizes: Mapping[str, ModelSize], path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    drawn = plotted_runs(figure, runs)
    sized = sorted((run for run in drawn if sizes[run.label].billions is not None), key=lambda r: _billions(sizes[r.label]))
    families = list(dict.fromkeys(sizes[run.label].family for run in sized))
    lines = families + [f"{run.label} (no size)" for run in drawn if sizes[run.label].billions is None]
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    colour = {line: cycle[i % len(cycle)] for i, line in enumerate(lines)}
    billions = [_billions(sizes[run.label]) for run in sized]
    low, high = (min(billions) / 1.5, max(billions) * 1.5) if sized else (0.5, 100.0)
    fig, axes = plt.subplots(2, 3, figsize=(12, 7), dpi=100, sharex=True, sharey=True, layout="constrained")
    found = {run.label: points(figure, run) for run in drawn}
    for i, (ax, panel) in enumerate(zip(axes.flat, figure.panels)):
        for family in families:
            shown = [(sizes[r.label].billions, found[r.label][i]) for r in sized if sizes[r.label].family == family]
            shown = [(x, p) for x, p in shown if p.value is not None]
            if shown:
                ax.plot([x for x, _ in shown], [p.value for _, p in shown], marker="o", color=colour[family], label=family)
                bars = [(x, p.value, p.low, p.high) for x, p in shown if p.value is not None and p.low is not None and p.high is not None]
                if bars:
                    ax.errorbar([x for x, _, _, _ in bars], [y for _, y, _, _ in bars], yerr=[[y - y_low for _, y, y_low, _ in bars], [y_high - y for _, y, _, y_high in bars]], fmt="none", ecolor=colour[family], capsize=3, linewidth=1)
        for run in drawn:
            point = found[run.label][i]
            if sizes[run.label].billions is None and point.value is not None:
                line = f"{run.label} (no size)"
                ax.axhline(point.value, linestyle="--", linewidth=1, color=colour[line], label=line)
                if point.low is not None:
                    ax.axhspan(point.low, point.high, color=colour[line], alpha=0.15, linewidth=0)
        ax.set_title(panel.label, fontsize=10)
        ax.grid(alpha=0.3)
    for ax in axes[1]:
        ax.set_xlabel("parameters (billions, log scale)", fontsize=9)
    for ax in axes[:, 0]:
        ax.set_ylabel(figure.ylabel, fontsize=9)
    ax = axes.flat[0]  # shared by every panel
    ax.set_xscale("log")
    ax.set_xlim(low, high)
    ax.set_ylim(0.0, 100.0)
    ax.xaxis.set_major_locator(FixedLocator([t for t in TICKS if low <= t <= high]))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    ax.xaxis.set_minor_locator(NullLocator())
    handles = {label: handle for ax in axes.flat for handle, label in zip(*ax.get_legend_handles_labels())}
    fig.legend(handles.values(), handles.keys(), loc="outside lower center", ncols=min(len(handles), 3), fontsize=8)
    with_intervals = any(p.low is not None for f in found.values() for p in f)
    fig.suptitle(figure.title + ("\n(bars and bands: 95% cluster-bootstrap intervals)" if with_intervals else ""), fontsize=11)
    return save(fig, path)


def write_csv(figure: SizeFigure, runs: Sequence[Run], sizes: Mapping[str, ModelSize], path: Path) -> Path:
    """One row per (drawn run, panel): its size, where the size came from, the plotted value, its 95%
    interval and the questions it rests on (empty where unknown)."""
    head = ["figure", "model", "family", "params_b", "size_from", "panel", "metric", "value", "low", "high", "n"]
    rows = []
    for run in plotted_runs(figure, runs):
        size = sizes[run.label]
        for panel, point in zip(figure.panels, points(figure, run)):
            rows.append([figure.name, run.label, size.family, number(size.billions), size.source, panel.label, figure.metric, number(point.value), number(point.low), number(point.high), "" if point.n is None else str(point.n)])
    return write_rows(path, head, rows)
