"""95% cluster-bootstrap intervals of the measured cells of the report, and whether a published value
(with its rounding) lies in one (docs/uncertainty.md; the reproduction verdicts: reproduction.py).

A measured cell gets an interval when its task's samples file lies beside the results file the
value came from (``--log_samples``) and its metric is one of the benchmark's cluster statistics
(temporal_bench/report/cluster_stats.py). The interval is computed from the logged records; a
recomputed value that differs from the results file's (e.g. other scoring options now) gets none,
and the report says why.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from temporal_bench import benchmarks
from temporal_bench.report.bootstrap import Interval, interval
from temporal_bench.report.cluster_stats import ClusterStats, cluster_stats_of, stacked
from temporal_bench.runs.logged import RunReadError, logged_run
from temporal_bench.runs.records import per_test_records, task_records
from temporal_bench.runs.results import Run

AGREEMENT = 1e-9  # the recomputed value and the results file's must agree this closely
FLOAT_SLACK = 1e-9  # published values scaled in floating point (e.g. x 100) are off by ~1e-14


def record_intervals(stats: ClusterStats, records: list[dict]) -> dict[str, Interval]:
    """Every metric of the cluster statistics on ``records``, with its interval."""
    counts = stats.counts(records)
    matrix = stacked(counts, sorted(counts), len(stats.stats))
    return {name: interval(metric, matrix, stats.sizes(name, matrix)) for name, metric in stats.metrics.items()}


@cache
def _file_records(results_path: Path, modified: int, task: str, logged_as: str) -> tuple[tuple[dict, ...], str]:
    """The records of ``task`` from the task the run logged them under (``logged_as``: itself, or a task
    holding its questions together with others, e.g. a TempVS suite task); none and why where unreadable."""
    try:
        records = task_records(logged_run(results_path), logged_as)
    except RunReadError as exc:
        return (), str(exc)
    if logged_as != task:
        records = per_test_records(logged_as, records)[task]
    return tuple(records), ""


@cache
def _file_intervals(results_path: Path, modified: int, task: str, logged_as: str) -> tuple[dict[str, Interval], str]:
    """The intervals of ``task``'s metrics from its records."""
    records, why = _file_records(results_path, modified, task, logged_as)
    return (record_intervals(cluster_stats_of(task), list(records)), "") if records else ({}, why)


def run_records(run: Run, task: str) -> tuple[list[dict], str]:
    """The logged records the run's value of ``task`` was computed from (empty and why where none)."""
    path, logged_as = _source_file(run, task)
    if path is None:
        return [], ""
    records, why = _file_records(path, path.stat().st_mtime_ns, task, logged_as)
    return list(records), why


@cache
def _file_tasks(results_path: Path, modified: int) -> frozenset[str]:
    return frozenset(json.loads(results_path.read_text(encoding="utf-8")).get("results", {}))


def _source_file(run: Run, task: str) -> tuple[Path | None, str]:
    """The results file the run's value of ``task`` came from (:attr:`Run.sources`), and the task it
    is logged under there (e.g. a TempVS test of ``--tasks tempvs`` under the suite's task that asks it)."""
    path = run.sources.get(task)
    if path is None:
        return None, task
    tasks = _file_tasks(path, path.stat().st_mtime_ns)
    holding = benchmarks.of_task(task).holding_tasks(task)
    return path, next((logged_as for logged_as in (task, *holding) if logged_as in tasks), task)


def cell_interval(run: Run, task: str, metric: str, value: float) -> tuple[Interval | None, str]:
    """The interval of a measured value (in the harness's units), or None and why not ('' when the
    metric has no interval by design: not a benchmark metric)."""
    stats = cluster_stats_of(task)
    if stats is None or metric not in stats.metrics:
        return None, ""
    path, logged_as = _source_file(run, task)
    if path is None:
        return None, ""
    intervals, why = _file_intervals(path, path.stat().st_mtime_ns, task, logged_as)
    if not intervals:
        return None, why
    found = intervals[metric]
    if found.value is None or abs(found.value - value) > AGREEMENT:
        return None, (f"{task}: {metric} recomputed from the samples is {found.value}, the results file says {value} (other scoring options now?)")
    if found.low is None:
        return None, f"{task}: {metric} is undefined in every bootstrap draw"
    return found, ""


def clustering_note(run: Run, task: str) -> str | None:
    """``task: ...`` where the run's records of ``task`` are clustered by a fallback unit (the
    benchmark's ``clustering_note``: ISO-Bench records without a goal), else None."""
    stats = cluster_stats_of(task)
    records, _ = run_records(run, task) if stats is not None else ([], "")
    note = stats.clustering_note(records) if records else None
    return f"{task}: {note}" if note else None


def cell_support(run: Run, task: str, metric: str) -> int | None:
    """How many questions (pairs, for TC and OCC) the run's value of ``metric`` rests on, from its
    logged records (None without them, or for a metric the cluster statistics do not count)."""
    stats = cluster_stats_of(task)
    if stats is None or metric not in stats.support:
        return None
    records, _ = run_records(run, task)
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
