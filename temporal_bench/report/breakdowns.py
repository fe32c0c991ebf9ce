"""The breakdowns of a run (per source, per relation, close/distant, ...), computed from its
``--log_samples`` records.

A task's results table holds only the paper's headline numbers; every other figure the papers
print is one of the benchmark's breakdown keys, which its metrics module computes from the per-doc
records: ``breakdown_metrics(task, records)`` in ``temporal_bench.<benchmark>.metrics``. The report
adds them to a run's results under the filter of the task's headline keys, so its tables read
headline numbers and breakdowns alike with :meth:`Run.metric`.
"""

from __future__ import annotations

import csv
import importlib
import io
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from temporal_bench.report.records import RecordsError, task_records
from temporal_bench.report.rescore import find_runs

if TYPE_CHECKING:
    from temporal_bench.report.results import Run

# task-name prefix -> the module with ``breakdown_metrics``
BENCHMARK_MODULES = {
    "tempvs": "temporal_bench.tempvs.metrics",
    "catbench": "temporal_bench.catbench.metrics",
    "isobench": "temporal_bench.isobench.metrics",
}


def breakdown_function(task: str):
    module = BENCHMARK_MODULES.get(task.split("_", 1)[0])
    return getattr(importlib.import_module(module), "breakdown_metrics", None) if module else None


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


def metric_rows(runs: Sequence[Run]) -> list[tuple[str, str, str, str, Any]]:
    """(model, task, metric, filter, value) for every metric key of every task of the runs: the
    headline numbers and the breakdowns, in the order the results hold them (without the harness's
    "N/A" standard-error placeholders)."""
    return [(run.label, task, *key.partition(",")[::2], value)
            for run in runs for task in run.tasks for key, value in run.results[task].items()
            if "," in key and not ("_stderr" in key and value == "N/A")]


def render_breakdowns(runs: Sequence[Run], fmt: str) -> str:
    """Every metric key of every task (``report --breakdowns``): markdown, one table per task, or
    CSV, one line per key; an undefined value (null) is "–" in markdown, empty in CSV."""
    rows = metric_rows(runs)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["model", "task", "metric", "filter", "value"])
        writer.writerows((*row[:4], "" if row[4] is None else row[4]) for row in rows)
        return out.getvalue()
    lines, heading = [], None
    for model, task, metric, flt, value in rows:
        if (model, task) != heading:
            heading = (model, task)
            lines += ["", f"## {model}: {task}", "", "| metric | filter | value |", "|---|---|--:|"]
        lines.append(f"| {metric} | {flt} | {'–' if value is None else value} |")
    return "\n".join(lines[1:]) + "\n"
