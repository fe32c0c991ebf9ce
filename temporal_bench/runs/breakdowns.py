"""The breakdowns of a run (per source, per relation, close/distant, ...), computed from its
``--log_samples`` records.

A task's results table holds only the paper's headline numbers; every other figure the papers
print is one of the benchmark's breakdown keys, which its ``breakdown_metrics`` (the registry's
:class:`temporal_bench.benchmarks.Benchmark`) computes from the per-doc records. The report adds
them to a run's results under the filter of the task's headline keys, so its tables read headline
numbers and breakdowns alike with :meth:`temporal_bench.runs.results.Run.metric`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from temporal_bench import benchmarks
from temporal_bench.runs.logged import find_runs
from temporal_bench.runs.records import RecordsError, task_records

BreakdownMetrics = Callable[[str, list], dict[str, Any]]


def breakdown_function(task: str) -> BreakdownMetrics | None:
    """The ``breakdown_metrics(task, records)`` of the task's benchmark (None: no benchmark, or none it has)."""
    benchmark = benchmarks.of_task(task)
    return benchmark.breakdown_metrics if benchmark is not None else None


def _filter_of(entry: dict[str, Any]) -> str:
    """The filter the task's metrics are reported under (``none``, or e.g. ``majority_vote``)."""
    return next((key.partition(",")[2] for key in entry if "," in key and key.partition(",")[2]), "none")


def with_breakdowns(results_path: Path, results: dict[str, dict[str, Any]]) -> list[str]:
    """Add to ``results`` (one results file's, changed in place) each task's breakdown keys it does
    not hold, computed from the samples beside the file. Returns the tasks without samples, whose
    breakdowns stay absent (the run was made without ``--log_samples``)."""
    runs = find_runs(results_path)
    if not runs:
        return []
    run, without = runs[0], []
    for task, entry in results.items():
        compute = breakdown_function(task)
        if compute is None or not isinstance(entry, dict) or task not in run.samples:
            continue
        try:
            records = task_records(run, task)
        except RecordsError:
            without.append(task)
            continue
        flt = _filter_of(entry)
        for key, value in compute(task, records).items():
            entry.setdefault(f"{key},{flt}", value)
    return without
