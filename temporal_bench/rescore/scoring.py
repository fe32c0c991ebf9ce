"""Re-scoring the tasks of logged runs: each metric recomputed from the logged responses, next to the run's."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from numbers import Real
from typing import Any

from temporal_bench import benchmarks
from temporal_bench.rescore.errors import DATA_HINT, RescoreError, TaskBuildError
from temporal_bench.rescore.harnesses import harness_of
from temporal_bench.rescore.settings import TaskSettings, shown_value
from temporal_bench.runs.logged import LoggedRun, RecordsError, select_tasks
from temporal_bench.runs.records import read_record

STDERR_KEY = re.compile(r"_stderr(_clt|_clustered)?$")


def is_number(value: Any) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool)


def values_differ(original: Any, rescored: Any) -> bool:
    if is_number(original) and is_number(rescored):
        both_nan = math.isnan(original) and math.isnan(rescored)
        return not both_nan and original != rescored
    return original != rescored


@dataclass
class MetricRow:
    """One ``<metric>,<filter>`` value of the results JSON and its re-scored value."""

    key: str
    original: Any
    rescored: Any

    @property
    def metric(self) -> str:
        return self.key.partition(",")[0]

    @property
    def filter(self) -> str:
        return self.key.partition(",")[2]

    @property
    def changed(self) -> bool:
        return values_differ(self.original, self.rescored)

    @property
    def difference(self) -> float | None:
        if is_number(self.original) and is_number(self.rescored):
            return self.rescored - self.original
        return None


@dataclass
class TaskRescore:
    task: str
    samples: int
    changed_docs: int  # logged samples whose per-doc values (process_results) changed
    rows: list[MetricRow]
    values: dict[str, Any]  # everything the harness's aggregation returned
    settings: TaskSettings
    # the breakdown keys the report computes from the per-doc records (the benchmark's breakdown_metrics, as temporal_bench/runs/logged.py computes them)
    # that the results table does not hold, from the logged records and from the re-scored ones
    breakdowns: list[MetricRow] = field(default_factory=list)


def rescore_task(run: LoggedRun, name: str, task, settings: TaskSettings) -> TaskRescore:
    harness = harness_of(run)
    output_type = task.config.output_type
    if output_type != "generate_until":
        raise RescoreError(f"task {name!r}: re-scoring supports generate_until tasks, not {output_type}")
    lines = run.lines(name)
    docs = harness.docs(task, run)
    for line in lines:
        doc_id = line["doc_id"]
        if doc_id >= len(docs) or str(task.doc_to_target(docs[doc_id])) != line["target"]:
            found = "no such doc" if doc_id >= len(docs) else f"target {task.doc_to_target(docs[doc_id])!r}"
            raise RescoreError(f"task {name!r}: doc {doc_id} is not the run's (logged target {line['target']!r}, now {found}); {DATA_HINT}")
    sample_metrics: dict[tuple[str, str], list] = defaultdict(list)
    changed_docs = 0
    config, model_config = run.task_config(name), run.data.get("config") or {}
    records: list[dict | None] = []  # the re-scored per-doc records
    for line, (key, response) in zip(lines, harness.scored_responses(task, run, name, lines, docs)):
        metrics = task.process_results(docs[line["doc_id"]], [response])
        for metric, value in metrics.items():
            sample_metrics[metric, key].append(value)
        logged = {m: harness.as_logged(v) for m, v in metrics.items()}
        changed_docs += any(values_differ(v, line.get(m)) for m, v in logged.items())
        records.append(read_record(name, {**line, **logged}, config, model_config))
    values = harness.aggregate(name, task, sample_metrics)
    rescored = {f"{metric},{key}": values.get(f"{metric},{key}") for metric, key in sample_metrics}
    original = {k: v for k, v in run.data["results"].get(name, {}).items() if "," in k and not STDERR_KEY.search(k.partition(",")[0])}
    rows = [MetricRow(k, original.get(k), rescored.get(k)) for k in dict.fromkeys([*rescored, *original])]
    filter_name = next(iter(sample_metrics), ("", "none"))[1]
    breakdowns = [row for row in breakdown_rows(run, name, records, filter_name) if row.key not in {r.key for r in rows}]
    return TaskRescore(name, len(lines), changed_docs, rows, values, settings, breakdowns)


def breakdown_rows(run: LoggedRun, task: str, rescored: list[dict | None], filter_name: str) -> list[MetricRow]:
    """The task's breakdown keys as the run's logged records give them (:meth:`LoggedRun.breakdowns`) and as its
    re-scored per-doc records do (none when the task has no breakdowns or a doc has no record)."""
    benchmark = benchmarks.of_task(task)
    compute = benchmark.breakdown_metrics if benchmark is not None else None
    if compute is None or not rescored or None in rescored:
        return []
    try:
        before = run.breakdowns(task)
    except RecordsError:  # a logged line without its record
        return []
    after = compute(task, rescored)
    return [MetricRow(f"{k},{filter_name}", before.get(k), after.get(k)) for k in dict.fromkeys([*after, *before])]


@dataclass
class RunRescore:
    run: LoggedRun
    tasks: list[TaskRescore]


def rescore(runs: Sequence[LoggedRun], wanted: Sequence[str] = (), values: dict[str, Any] | None = None) -> list[RunRescore]:
    """Re-score the tasks of every run under its recorded settings, with ``values`` (``--set``) on top."""
    values = values or {}
    chosen = [(run, names, harness_of(run).task_settings(run, names, values)) for run, names in select_tasks(runs, wanted)]
    unused = sorted(set(values) - {k for _, _, settings in chosen for s in settings.values() for k in s.overrides})
    if unused:
        known = sorted({k for _, _, settings in chosen for s in settings.values() for k in {*s.recorded, *s.current}})
        raise RescoreError(f"--set {', '.join(unused)}: no re-scored task has such a setting (theirs: {', '.join(known) or 'none'})")
    done = []
    for run, names, settings in chosen:
        try:
            tasks = harness_of(run).build_tasks(run, names, settings)
        except TaskBuildError as error:
            raise _blamed(error, run, settings) from error
        done.append(RunRescore(run, [rescore_task(run, name, tasks[name], settings[name]) for name in names]))
    return done


def _blamed(error: TaskBuildError, run: LoggedRun, settings: dict[str, TaskSettings]) -> RescoreError:
    """A task that does not build with the ``--set`` values but does with the run's own settings: the values
    are to blame, not the data (``error`` as it is otherwise)."""
    changed = settings[error.task].changed
    if not changed:
        return error
    harness = harness_of(run)
    try:
        harness.build_tasks(run, [error.task], harness.task_settings(run, [error.task], {}))
    except RescoreError:
        return error
    given = ", ".join(f"{key}={shown_value(new)}" for key, (_, new) in changed.items())
    return RescoreError(f"--set {given}: task {error.task!r} cannot be rebuilt with it ({error.cause}); with the run's own settings it can")
