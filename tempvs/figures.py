"""TempVS's paper figure drawn from measured runs (temporal_bench/report/figures.py): Figure 3, MT1
two-event accuracy by event distance (Figure 2, by model size, is size_figure.py)."""

from __future__ import annotations

from temporal_bench.report.figures import Figure
from temporal_bench.report.layouts import Setting

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

FIGURES = (TEMPVS_FIGURE3,)
