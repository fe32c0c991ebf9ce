"""CaT-Bench's paper figures drawn from measured runs (temporal_bench/report/figures.py): Figures 7
and 8, the macro F1 gain of A+E over A by relation and by distance."""

from __future__ import annotations

from temporal_bench.catbench.tables import CATBENCH_A, CATBENCH_AE
from temporal_bench.report.figures import Figure, difference_figure


def _gain(number: str, split: str, keys: tuple[str, str]) -> Figure:
    title = f"CaT-Bench Figure {number}: macro F1 of A+E minus A, by {split}"
    return difference_figure(f"catbench-figure{number}", title, CATBENCH_AE, CATBENCH_A, "macro F1", split, keys)


FIGURES = (
    _gain("7", "relation", ("f1_macro_before", "f1_macro_after")),
    _gain("8", "distance", ("f1_macro_close", "f1_macro_distant")),
)
