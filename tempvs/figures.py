"""TempVS's paper figures drawn from measured runs: Figure 3, MT1 two-event accuracy by event distance
(temporal_bench/report/figures.py), and Figure 2, MT accuracy of the six main tests by parameter count
(temporal_bench/report/size_figure.py). The paper's Figure 2 shows "results of selected models with
different number of parameters" (Section 4.2: accuracy grows with size, with diminishing gains); its
values are not printed."""

from __future__ import annotations

from collections.abc import Callable

from temporal_bench.report.figure_points import Subset
from temporal_bench.report.figures import Figure
from temporal_bench.report.layouts import Setting
from temporal_bench.report.size_figure import SizeFigure
from temporal_bench.tempvs.breakdowns import DISTANCES
from temporal_bench.tempvs.tables import TEMPVS_TESTS


def _main_at(distance: int) -> Callable[[dict], bool]:
    return lambda r: r["kind"] == "main" and r.get("event_distance") == distance


TEMPVS_FIGURE3 = Figure(
    name="tempvs-figure3",
    benchmark="tempvs",
    title="TempVS Figure 3: MT1 two-event accuracy by event distance",
    setting=Setting.of("MT1 two-event", "tempvs_mt1_two"),
    metrics=tuple((str(d), f"dist{d}") for d in DISTANCES),
    xlabel="distance between the two events (images)",
    ylabel="MT accuracy (%)",
    reference=(50.0, "chance"),
    # the main questions at each distance (tempvs/breakdowns.py's dist<d>), for the points' intervals
    subsets=tuple(Subset("mt_acc", _main_at(d)) for d in DISTANCES),
)

FIGURES = (TEMPVS_FIGURE3,)

TEMPVS_FIGURE2 = SizeFigure(
    name="tempvs-figure2",
    benchmark="tempvs",
    title="TempVS Figure 2: MT accuracy by model size",
    panels=tuple(Setting.of(label, task) for label, task in TEMPVS_TESTS.values()),
    metric="mt_acc",
    ylabel="MT accuracy (%)",
)

SIZE_FIGURES = (TEMPVS_FIGURE2,)
