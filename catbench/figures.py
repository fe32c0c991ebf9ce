"""CaT-Bench's paper figures drawn from measured runs (temporal_bench/report/figures.py): Figures 7
and 8, the macro F1 gain of A+E over A by relation and by distance, each point with the paired
interval of the two settings' answers to the same questions (its records: catbench/metrics.py's
breakdowns, close = a step distance up to the run's ``close_max_distance``)."""

from __future__ import annotations

from temporal_bench.catbench.tables import CATBENCH_A, CATBENCH_AE
from temporal_bench.report.figure_points import Subset
from temporal_bench.report.figures import Figure, difference_figure

BY_RELATION = (Subset("f1_macro", lambda r: r["relation"] == "before"), Subset("f1_macro", lambda r: r["relation"] == "after"))
BY_DISTANCE = (Subset("f1_macro", lambda r: r["distance"] <= r["close_max_distance"]), Subset("f1_macro", lambda r: r["distance"] > r["close_max_distance"]))


def _gain(number: str, split: str, keys: tuple[str, str], subsets: tuple[Subset, Subset]) -> Figure:
    title = f"CaT-Bench Figure {number}: macro F1 of A+E minus A, by {split}"
    return difference_figure(f"catbench-figure{number}", title, CATBENCH_AE, CATBENCH_A, "macro F1", split, keys, subsets)


FIGURES = (
    _gain("7", "relation", ("f1_macro_before", "f1_macro_after"), BY_RELATION),
    _gain("8", "distance", ("f1_macro_close", "f1_macro_distant"), BY_DISTANCE),
)
