"""Figures of the papers drawn from measured runs (PNG, matplotlib)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from temporal_bench.report.results import Run


@dataclass(frozen=True)
class Figure:
    name: str  # CLI name and file stem
    benchmark: str
    title: str
    task: str  # results task whose metrics are plotted
    metrics: tuple[tuple[str, str], ...]  # (x tick label, metric key)
    xlabel: str
    ylabel: str
    scale: float = 100.0
    chance: float | None = None  # drawn as a dashed line


TEMPVS_FIGURE3 = Figure(
    name="tempvs-figure3",
    benchmark="tempvs",
    title="TempVS Figure 3: MT1 two-event accuracy by event distance",
    task="tempvs_mt1_two",
    metrics=tuple((str(d), f"dist{d}") for d in (1, 2, 3, 4)),
    xlabel="distance between the two events (images)",
    ylabel="MT accuracy (%)",
    chance=50.0,
)

FIGURES: dict[str, Figure] = {TEMPVS_FIGURE3.name: TEMPVS_FIGURE3}


def series(figure: Figure, run: Run) -> list[float | None]:
    return [
        None if (v := run.metric(figure.task, key)) is None else v * figure.scale
        for _, key in figure.metrics
    ]


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
    if figure.chance is not None:
        ax.axhline(figure.chance, linestyle="--", color="grey", linewidth=1, label="chance")
    ax.set_title(figure.title, fontsize=10)
    ax.set_xlabel(figure.xlabel)
    ax.set_ylabel(figure.ylabel)
    ax.set_ylim(0, 100)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)
    return path
