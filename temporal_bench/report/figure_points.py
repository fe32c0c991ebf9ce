"""The points of a paper figure with the uncertainty the report computes (issue 35: a figure of a random
model must not show an "effect" without saying how large chance is).

A figure's tick may name the records it is computed on and the cluster-statistics metric computed on
them (a :class:`Subset`, e.g. the two-event main questions at distance 2 and ``mt_acc``). Where the
run logged its samples, the point then gets the 95% interval the report gives a cell: the cluster
bootstrap on those records, or for a difference of two settings of one model on the same questions
(CaT-Bench Figures 7 and 8, ISO-Bench Figure 2) the paired permutation interval ``compare`` gives
(temporal_bench/report/paired_test.py); and the number of questions it rests on. The value stays the
results' key where the run has it; a recomputed value that differs from it gets no interval (as a
cell's). A key the results file lacks is computed from the records alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from temporal_bench.report.bootstrap import metric_interval
from temporal_bench.report.cluster_stats import ClusterStats, cluster_stats_of, joined, stacked
from temporal_bench.report.intervals import AGREEMENT
from temporal_bench.report.layouts import Setting
from temporal_bench.report.paired_test import paired_tests
from temporal_bench.report.rows import resolve_setting
from temporal_bench.runs.results import Run


@dataclass(frozen=True)
class Subset:
    """The records a figure's tick is computed on, and the metric of the task's cluster statistics."""

    metric: str
    keep: Callable[[dict], bool]


@dataclass(frozen=True)
class Point:
    """One plotted value (the figure's units) with its 95% interval and the questions it rests on
    (None where unknown: no samples, no subset, a recomputed value that differs)."""

    value: float | None
    low: float | None = None
    high: float | None = None
    n: int | None = None
    operands: tuple[float | None, float | None] = (None, None)  # a difference figure: the setting's and the minus setting's values


def setting_value(run: Run, setting: Setting, key: str) -> tuple[float | None, str | None]:
    """The first numeric value of ``key`` among the run's tasks of the setting, and its task (else the
    setting's first task, whose records may still give the value)."""
    tasks = resolve_setting(run, setting)
    found = ((run.metric(task, key, setting.filters), task) for task in tasks)
    return next(((v, t) for v, t in found if v is not None), (None, tasks[0] if tasks else None))


def _kept(run: Run, task: str | None, subset: Subset) -> tuple[ClusterStats | None, list[dict]]:
    stats = cluster_stats_of(task) if task else None
    if not task or stats is None or subset.metric not in stats.metrics:
        return None, []
    records, _ = run.records(task)
    return stats, [record for record in records if subset.keep(record)]


def _matrix(stats: ClusterStats, records: list[dict], clusters: list[str] | None = None) -> np.ndarray:
    counts = stats.counts(records)
    return stacked(counts, clusters if clusters is not None else sorted(counts), len(stats.stats))


def _support(stats: ClusterStats, metric: str, records: list[dict]) -> int:
    support = stats.support.get(metric)
    return int(support(_matrix(stats, records).sum(axis=0))) if support else len(records)


def _agrees(recomputed: float | None, value: float | None) -> bool:
    return recomputed is not None and (value is None or abs(recomputed - value) <= AGREEMENT)


def single_point(run: Run, setting: Setting, key: str, subset: Subset | None, scale: float) -> Point:
    value, task = setting_value(run, setting, key)
    stats, kept = _kept(run, task, subset) if subset else (None, [])
    if subset is None or stats is None or not kept:
        return Point(None if value is None else value * scale)
    matrix = _matrix(stats, kept)
    found = metric_interval(stats, subset.metric, matrix)
    if found.value is None or found.low is None or found.high is None or not _agrees(found.value, value):
        return Point(None if value is None else value * scale)
    shown = found.value if value is None else value
    return Point(shown * scale, found.low * scale, found.high * scale, _support(stats, subset.metric, kept))


def difference_point(run: Run, setting: Setting, minus: Setting, key: str, subset: Subset | None, scale: float) -> Point:
    """``setting`` minus ``minus`` with the paired permutation interval of the two settings' answers to
    the same questions (swapped cluster by cluster, as ``compare`` swaps two runs)."""
    (own, task), (base, base_task) = setting_value(run, setting, key), setting_value(run, minus, key)
    plain = Point(None if own is None or base is None else (own - base) * scale, operands=(None if own is None else own * scale, None if base is None else base * scale))
    if subset is None:
        return plain
    (stats, kept), (_, kept_base) = _kept(run, task, subset), _kept(run, base_task, subset)
    if stats is None or not kept or not kept_base:
        return plain
    shared, shared_base = joined(stats, kept, kept_base)
    clusters = sorted(set(stats.counts(shared)) | set(stats.counts(shared_base)))
    metric = stats.metrics[subset.metric]
    test = paired_tests({subset.metric: metric}, _matrix(stats, shared_base, clusters), _matrix(stats, shared, clusters))[subset.metric]
    difference = None if own is None or base is None else own - base
    if test.value is None or test.low is None or test.high is None or not _agrees(test.value, difference):
        return plain
    if own is None or base is None:  # a key no results file holds: both operands from the records
        own, base = (float(metric(_matrix(stats, records).sum(axis=0))) for records in (shared, shared_base))
    return Point((own - base) * scale, test.low * scale, test.high * scale, _support(stats, subset.metric, shared), (own * scale, base * scale))
