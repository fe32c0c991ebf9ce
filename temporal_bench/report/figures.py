"""Figures of the papers drawn from measured runs (PNG, matplotlib).

A figure plots, per run (one line per model), a few metric keys of one setting, or their
difference between two settings (CaT-Bench Figures 7 and 8: A+E minus A). The two settings may
come from one run or from two runs of the same model (the report merges runs by model name).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from temporal_bench.report.layouts import CATBENCH_A, CATBENCH_AE, Setting
from temporal_bench.report.render import resolve_setting
from temporal_bench.report.results import Run


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


TEMPVS_FIGURE3 = Figure(
    name="tempvs-figure3",
    benchmark="tempvs",
    title="TempVS Figure 3: MT1 two-event accuracy by event distance",
    setting=Setting.of("MT1 two-event", "tempvs_mt1_two"),
    metrics=tuple((str(d), f"dist{d}") for d in (1, 2, 3, 4)),
    xlabel="distance between the two events (images)",
    ylabel="MT accuracy (%)",
    reference=(50.0, "chance"),
)


def _catbench_gain(number: str, split: str, keys: tuple[str, str]) -> Figure:
    return Figure(
        name=f"catbench-figure{number}",
        benchmark="catbench",
        title=f"CaT-Bench Figure {number}: macro F1 of A+E minus A, by {split}",
        setting=CATBENCH_AE,
        minus=CATBENCH_A,
        metrics=tuple((key.rsplit("_", 1)[1], key) for key in keys),
        xlabel=split,
        ylabel="macro F1: A+E − A",
        scale=1.0,
        reference=(0.0, "no change"),
        ylim=None,
    )


def _isobench_split(number: str, split: str, keys: tuple[str, str]) -> Figure:
    return Figure(
        name=f"isobench-figure{number}",
        benchmark="isobench",
        title=f"ISO-Bench Figure {number}: weighted F1 by {split} (A)",
        setting=Setting.of("A", "isobench"),
        metrics=tuple((key.rsplit("_", 1)[1], key) for key in keys),
        xlabel=split,
        ylabel="weighted F1",
        scale=1.0,
        ylim=(0.0, 1.0),
    )


FIGURES: dict[str, Figure] = {
    figure.name: figure
    for figure in (
        TEMPVS_FIGURE3,
        _catbench_gain("7", "relation", ("f1_macro_before", "f1_macro_after")),
        _catbench_gain("8", "distance", ("f1_macro_close", "f1_macro_distant")),
        # close/distant need step positions in the data; without them the keys are N/A and no figure is drawn
        _isobench_split("2", "distance", ("f1_weighted_close", "f1_weighted_distant")),
        _isobench_split("3", "relation", ("f1_weighted_before", "f1_weighted_after")),
    )
}


def _value(run: Run, setting: Setting, key: str) -> float | None:
    """The first numeric value of ``key`` among the run's tasks of the setting."""
    values = (run.metric(task, key, setting.filters) for task in resolve_setting(run, setting))
    return next((v for v in values if v is not None), None)


def series(figure: Figure, run: Run) -> list[float | None]:
    out = []
    for _, key in figure.metrics:
        value = _value(run, figure.setting, key)
        if figure.minus is not None and value is not None:
            base = _value(run, figure.minus, key)
            value = None if base is None else value - base
        out.append(None if value is None else value * figure.scale)
    return out


def figures_for(runs: Sequence[Run]) -> list[Figure]:
    """The figures at least one run has a value for."""
    return [
        f for f in FIGURES.values() if any(any(v is not None for v in series(f, r)) for r in runs)
    ]


def draw(figure: Figure, runs: Sequence[Run], path: Path) -> Path:
    """One line per run (points it lacks are left out), written as PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4), dpi=100)
    positions = range(len(figure.metrics))
    for run in runs:
        points = [(x, y) for x, y in zip(positions, series(figure, run)) if y is not None]
        if points:
            xs, ys = zip(*points)
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
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)
    return path
