"""ISO-Bench's paper figures drawn from measured runs (temporal_bench/report/figures.py): Figure 2,
the weighted F1 gain of E→A over A by step distance, and Figure 3, weighted F1 by relation, both
under Table 1's rule (an unparsed answer a third label: isobench/rules.py ``TABLE1_RULE``, the one rule compare
and Table 1 use): the breakdown keys ``paper_f1_weighted_before``, ``..._close``, ... (isobench/breakdowns.py), with
their intervals from the run's logged records."""

from __future__ import annotations

from collections.abc import Callable

from temporal_bench.isobench.rules import TABLE1_RULE
from temporal_bench.isobench.tables import ISOBENCH_A, ISOBENCH_EA
from temporal_bench.report.figure_points import Subset
from temporal_bench.report.figures import Figure, difference_figure

WEIGHTED_F1 = f"{TABLE1_RULE}f1_weighted"
RULE_LABEL = "weighted F1, Table 1's rule"


def _field_is(field: str, value: str) -> Callable[[dict], bool]:
    return lambda r: r.get(field) == value


def _by(field: str, values: tuple[str, str]) -> tuple[Subset, ...]:
    return tuple(Subset(WEIGHTED_F1, _field_is(field, value)) for value in values)


ISOBENCH_FIGURE3 = Figure(
    name="isobench-figure3",
    benchmark="isobench",
    title="ISO-Bench Figure 3: weighted F1 by relation (A)",
    setting=ISOBENCH_A,
    metrics=tuple((relation, f"{WEIGHTED_F1}_{relation}") for relation in ("before", "after")),
    xlabel="relation",
    ylabel=RULE_LABEL,
    scale=1.0,
    ylim=(0.0, 1.0),
    subsets=_by("relation", ("before", "after")),
)

FIGURES = (
    # close/distant need step positions in the data; without them no record is close or distant and no figure is drawn
    difference_figure(
        "isobench-figure2", "ISO-Bench Figure 2: weighted F1 of E→A minus A, by step distance", ISOBENCH_EA, ISOBENCH_A, RULE_LABEL, "distance", (f"{WEIGHTED_F1}_close", f"{WEIGHTED_F1}_distant"), _by("distance_class", ("close", "distant"))
    ),
    ISOBENCH_FIGURE3,
)
