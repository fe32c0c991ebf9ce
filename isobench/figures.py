"""ISO-Bench's paper figures drawn from measured runs (temporal_bench/report/figures.py): Figure 2,
the weighted F1 gain of E→A over A by step distance, and Figure 3, weighted F1 by relation."""

from __future__ import annotations

from temporal_bench.isobench.tables import ISOBENCH_A, ISOBENCH_EA
from temporal_bench.report.figures import Figure, difference_figure

ISOBENCH_FIGURE3 = Figure(
    name="isobench-figure3",
    benchmark="isobench",
    title="ISO-Bench Figure 3: weighted F1 by relation (A)",
    setting=ISOBENCH_A,
    metrics=(("before", "f1_weighted_before"), ("after", "f1_weighted_after")),
    xlabel="relation",
    ylabel="weighted F1",
    scale=1.0,
    ylim=(0.0, 1.0),
)

FIGURES = (
    # close/distant need step positions in the data; without them the keys are N/A and no figure is drawn
    difference_figure("isobench-figure2", "ISO-Bench Figure 2: weighted F1 of E→A minus A, by step distance", ISOBENCH_EA, ISOBENCH_A, "weighted F1", "distance", ("f1_weighted_close", "f1_weighted_distant")),
    ISOBENCH_FIGURE3,
)
