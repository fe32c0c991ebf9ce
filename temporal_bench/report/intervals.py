"""95% cluster-bootstrap intervals of a run's tasks (docs/uncertainty.md).

A task's cells get intervals when its samples file lies beside the results file its values came from
(``--log_samples``) and their metric is one of the benchmark's cluster statistics (temporal_bench/report/cluster_stats.py).
They are computed from a task's records (:meth:`temporal_bench.runs.results.Run.records`); a
recomputed value that differs from the results file's (e.g. other scoring options now) gets none, and the report says why.
"""

from __future__ import annotations

from dataclasses import dataclass

from temporal_bench.report.bootstrap import Interval, metric_interval
from temporal_bench.report.cluster_stats import ClusterStats, cluster_stats_of, stacked
from temporal_bench.runs.results import Run

AGREEMENT = 1e-9  # the recomputed value and the results file's must agree this closely


def record_intervals(stats: ClusterStats, records: list[dict]) -> dict[str, Interval]:
    """Every metric of the cluster statistics on ``records``, with its interval."""
    counts = stats.counts(records)
    matrix = stacked(counts, sorted(counts), len(stats.stats))
    return {name: metric_interval(stats, name, matrix) for name in stats.metrics}


@dataclass(frozen=True)
class TaskIntervals:
    """The intervals of one task of a run, and what the report says of them."""

    task: str
    stats: ClusterStats | None  # None: a task of no benchmark's cluster statistics
    found: dict[str, Interval]  # metric -> its interval; empty without records
    why: str  # why there are no records ('' where there are)
    clustering: str | None  # ``task: ...`` where the records are clustered by a fallback unit
    support: dict[str, int]  # metric -> how many questions (pairs, for TC and OCC) it rests on

    def cell(self, metric: str, value: float) -> tuple[Interval | None, str]:
        """The interval of a measured value of ``metric`` (the harness's units), or None and why not ('' when the
        metric has no interval by design: not a benchmark metric)."""
        if self.stats is None or metric not in self.stats.metrics:
            return None, ""
        if not self.found:
            return None, self.why
        found = self.found[metric]
        if found.value is None or abs(found.value - value) > AGREEMENT:
            return None, f"{self.task}: {metric} recomputed from the samples is {found.value}, the results file says {value} (other scoring options now?)"
        if found.low is None:
            return None, f"{self.task}: {metric} is undefined in every bootstrap draw"
        return found, ""


def task_intervals(run: Run, task: str) -> TaskIntervals:
    """The task's intervals, from the records the run logged for it (none for a task of no benchmark's cluster statistics)."""
    stats = cluster_stats_of(task)
    if stats is None:
        return TaskIntervals(task, stats, {}, "", None, {})
    records, why = run.records(task)
    if not records:
        return TaskIntervals(task, stats, {}, why, None, {})
    counts = stats.counts(records)
    total = stacked(counts, sorted(counts), len(stats.stats)).sum(axis=0)
    note = stats.clustering_note(records)
    support = {metric: int(count(total)) for metric, count in stats.support.items()}
    return TaskIntervals(task, stats, record_intervals(stats, records), why, f"{task}: {note}" if note else None, support)
