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

from temporal_bench.report.figures import number, save, setting_value, write_rows
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


def values(figure: SizeFigure, run: Run) -> list[float | None]:
    """The run's value in each panel (None where it lacks one), in plotted units."""
    found = (setting_value(run, panel, figure.metric) for panel in figure.panels)
    return [None if value is None else value * figure.scale for value in found]


def plotted_runs(figure: SizeFigure, runs: Sequence[Run]) -> list[Run]:
    return [run for run in runs if any(v is not None for v in values(figure, run))]


def unsized(figure: SizeFigure, runs: Sequence[Run], sizes: Mapping[str, ModelSize]) -> list[str]:
    """The drawn runs without a parameter count."""
    return [run.label for run in plotted_runs(figure, runs) if sizes[run.label].billions is None]


def draw(figure: SizeFigure, runs: Sequence[Run], sizes: Mapping[str, ModelSize], path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    drawn = plotted_runs(figure, runs)
    sized = sorted((run for run in drawn if sizes[run.label].billions is not None), key=lambda r: sizes[r.label].billions)
    families = list(dict.fromkeys(sizes[run.label].family for run in sized))
    lines = families + [f"{run.label} (no size)" for run in drawn if sizes[run.label].billions is None]
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    colour = {line: cycle[i % len(cycle)] for i, line in enumerate(lines)}
    billions = [sizes[run.label].billions for run in sized]
    low, high = (min(billions) / 1.5, max(billions) * 1.5) if sized else (0.5, 100.0)
    fig, axes = plt.subplots(2, 3, figsize=(12, 7), dpi=100, sharex=True, sharey=True, layout="constrained")
    for i, (ax, panel) in enumerate(zip(axes.flat, figure.panels)):
        for family in families:
            points = [(sizes[r.label].billions, values(figure, r)[i]) for r in sized if sizes[r.label].family == family]
            points = [(x, y) for x, y in points if y is not None]
            if points:
                ax.plot(*zip(*points), marker="o", color=colour[family], label=family)
        for run in drawn:
            value = values(figure, run)[i]
            if sizes[run.label].billions is None and value is not None:
                line = f"{run.label} (no size)"
                ax.axhline(value, linestyle="--", linewidth=1, color=colour[line], label=line)
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
    fig.suptitle(figure.title, fontsize=11)
    return save(fig, path)


def write_csv(figure: SizeFigure, runs: Sequence[Run], sizes: Mapping[str, ModelSize], path: Path) -> Path:
    """One row per (drawn run, panel): its size, where the size came from, and the plotted value."""
    head = ["figure", "model", "family", "params_b", "size_from", "panel", "metric", "value"]
    rows = []
    for run in plotted_runs(figure, runs):
        size = sizes[run.label]
        for panel, value in zip(figure.panels, values(figure, run)):
            rows.append([figure.name, run.label, size.family, number(size.billions), size.source, panel.label, figure.metric, number(value)])
    return write_rows(path, head, rows)
