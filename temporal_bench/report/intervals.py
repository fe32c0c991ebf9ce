"""95% cluster-bootstrap intervals of the measured cells of the report, and whether a published value
(with its rounding) lies in one (docs/uncertainty.md; the reproduction verdicts: reproduction.py).

A measured cell gets an interval when its task's samples file lies beside the results file the value came from
(``--log_samples``) and its metric is one of the benchmark's cluster statistics (temporal_bench/report/cluster_stats.py).
The interval is computed from the run's records (:meth:`temporal_bench.runs.results.Run.records`); a recomputed value
that differs from the results file's (e.g. other scoring options now) gets none, and the report says why.
"""

from __future__ import annotations

from temporal_bench.report.bootstrap import Interval, interval
from temporal_bench.report.cluster_stats import ClusterStats, cluster_stats_of, stacked
from temporal_bench.runs.results import Run

AGREEMENT = 1e-9  # the recomputed value and the results file's must agree this closely
FLOAT_SLACK = 1e-9  # published values scaled in floating point (e.g. x 100) are off by ~1e-14


def record_intervals(stats: ClusterStats, records: list[dict]) -> dict[str, Interval]:
    """Every metric of the cluster statistics on ``records``, with its interval."""
    counts = stats.counts(records)
    matrix = stacked(counts, sorted(counts), len(stats.stats))
    return {name: interval(metric, matrix, stats.sizes(name, matrix)) for name, metric in stats.metrics.items()}


def cell_interval(run: Run, task: str, metric: str, value: float) -> tuple[Interval | None, str]:
    """The interval of a measured value (in the harness's units), or None and why not ('' when the
    metric has no interval by design: not a benchmark metric)."""
    stats = cluster_stats_of(task)
    if stats is None or metric not in stats.metrics:
        return None, ""
    records, why = run.records(task)
    if not records:
        return None, why
    found = run.derived(("intervals", task), lambda: record_intervals(stats, records))[metric]
    if found.value is None or abs(found.value - value) > AGREEMENT:
        return None, (f"{task}: {metric} recomputed from the samples is {found.value}, the results file says {value} (other scoring options now?)")
    if found.low is None:
        return None, f"{task}: {metric} is undefined in every bootstrap draw"
    return found, ""


def clustering_note(run: Run, task: str) -> str | None:
    """``task: ...`` where the run's records of ``task`` are clustered by a fallback unit (the
    benchmark's ``clustering_note``: ISO-Bench records without a goal), else None."""
    stats = cluster_stats_of(task)
    records, _ = run.records(task) if stats is not None else ([], "")
    note = stats.clustering_note(records) if records else None
    return f"{task}: {note}" if note else None


def cell_support(run: Run, task: str, metric: str) -> int | None:
    """How many questions (pairs, for TC and OCC) the run's value of ``metric`` rests on, from its
    logged records (None without them, or for a metric the cluster statistics do not count)."""
    stats = cluster_stats_of(task)
    if stats is None or metric not in stats.support:
        return None
    records, _ = run.records(task)
    if not records:
        return None
    counts = stats.counts(records)
    return int(stats.support[metric](stacked(counts, sorted(counts), len(stats.stats)).sum(axis=0)))


def rounding_half_width(decimals: int) -> float:
    """A value printed with ``decimals`` decimals stands for itself +- this (58.8: [58.75, 58.85))."""
    return 0.5 * 10.0**-decimals


def within(published: float, decimals: int, low: float, high: float) -> bool:
    """Whether any value the printed ``published`` stands for lies in ``[low, high]``."""
    half = rounding_half_width(decimals) + FLOAT_SLACK
    return published - half <= high and published + half > low
