"""Re-scoring the tasks of logged runs: each run's tasks evaluated again by its harness from its logged answers
(temporal_bench/rescore/harnesses.py), and every metric and breakdown of the new run next to the run's own."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from numbers import Real
from pathlib import Path
from typing import Any

from temporal_bench.rescore.errors import DATA_HINT, RescoreError
from temporal_bench.rescore.harnesses import harness_of
from temporal_bench.rescore.settings import TaskSettings
from temporal_bench.runs.lines import logged_prompt
from temporal_bench.runs.logged import LoggedRun, RecordsError, select_tasks

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
    """One ``<metric>,<filter>`` value of the run and its re-scored value."""

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
    samples: int  # the re-scored run's logged samples
    changed_docs: int  # docs whose per-doc values (what process_results returned) changed
    rows: list[MetricRow]
    settings: TaskSettings
    # the breakdown keys the report computes from the per-doc records (the benchmark's breakdown_metrics) that the
    # results table does not hold, of the run and of the re-scored run
    breakdowns: list[MetricRow] = field(default_factory=list)


@dataclass
class RunRescore:
    run: LoggedRun  # the run re-scored
    rescored: LoggedRun  # the run its harness wrote from the run's answers
    tasks: list[TaskRescore]


def _metrics(run: LoggedRun, task: str) -> dict[str, Any]:
    return {k: v for k, v in run.data["results"].get(task, {}).items() if "," in k and not STDERR_KEY.search(k.partition(",")[0])}


def _breakdowns(run: LoggedRun, task: str) -> dict[str, Any]:
    try:
        return run.breakdowns(task)
    except RecordsError:  # a logged line without its record
        return {}


def matched_lines(run: LoggedRun, rescored: LoggedRun, task: str) -> list[tuple[dict | None, dict]]:
    """Each re-scored line of ``task`` with the run's line of the same question: the one of its doc id where the prompts
    agree, else the one line of the run with its prompt and gold answer (another setting may number the docs otherwise)."""
    by_id = {line["doc_id"]: line for line in run.lines(task)}
    by_prompt: dict[tuple[str, str], list[dict]] = {}
    for line in run.lines(task):
        by_prompt.setdefault((logged_prompt(line), str(line.get("target"))), []).append(line)
    pairs = []
    for line in rescored.lines(task):
        same = by_id.get(line["doc_id"])
        if same is None or (logged_prompt(same), str(same.get("target"))) != (logged_prompt(line), str(line.get("target"))):
            found = by_prompt.get((logged_prompt(line), str(line.get("target"))), [])
            same = found[0] if len(found) == 1 else None
        pairs.append((same, line))
    return pairs


def compare_task(run: LoggedRun, rescored: LoggedRun, task: str, settings: TaskSettings) -> TaskRescore:
    original, new = _metrics(run, task), _metrics(rescored, task)
    rows = [MetricRow(k, original.get(k), new.get(k)) for k in dict.fromkeys([*new, *original])]
    flt = next((row.filter for row in rows), "none")
    before, after = _breakdowns(run, task), _breakdowns(rescored, task)
    breakdowns = [MetricRow(f"{k},{flt}", before.get(k), after.get(k)) for k in dict.fromkeys([*after, *before]) if f"{k},{flt}" not in original]
    metrics = {row.metric for row in rows}
    changed = sum(same is None or any(values_differ(line.get(m), same.get(m)) for m in metrics) for same, line in matched_lines(run, rescored, task))
    return TaskRescore(task, len(rescored.lines(task)), changed, rows, settings, breakdowns)


def _check_same_data(run: LoggedRun, rescored: LoggedRun, tasks: Sequence[str]) -> None:
    """Every re-scored doc has the gold answer the run logged for the same question; else the data is other than the run's:
    the re-scored run is removed and the re-score refused."""
    for task in tasks:
        by_id = {line["doc_id"]: line for line in run.lines(task)}
        prompts = {logged_prompt(line) for line in run.lines(task)}
        for same, line in matched_lines(run, rescored, task):
            if same is None and logged_prompt(line) in prompts:  # asked by the run, with another gold answer
                for path in [rescored.results_path, *rescored.samples.values()]:
                    path.unlink(missing_ok=True)
                logged = by_id.get(line["doc_id"], {}).get("target")
                raise RescoreError(f"task {task!r}: doc {line['doc_id']} is not the run's (logged target {logged!r}, now {line.get('target')!r}); {DATA_HINT}")


def rescore(runs: Sequence[LoggedRun], output_dir: Path, wanted: Sequence[str] = (), values: dict[str, Any] | None = None) -> list[RunRescore]:
    """Each run's tasks (all, or those ``wanted``) re-scored by its harness under its recorded settings with ``values``
    (``--set``) on top, into ``output_dir``."""
    values = values or {}
    chosen = [(run, names, harness_of(run).task_settings(run, names, values)) for run, names in select_tasks(runs, wanted)]
    unused = sorted(set(values) - {k for _, _, settings in chosen for s in settings.values() for k in s.overrides})
    if unused:
        known = sorted({k for _, _, settings in chosen for s in settings.values() for k in {*s.recorded, *s.current}})
        raise RescoreError(f"--set {', '.join(unused)}: no re-scored task has such a setting (theirs: {', '.join(known) or 'none'})")
    done = []
    for index, (run, names, settings) in enumerate(chosen):
        folder = output_dir if len(chosen) == 1 else output_dir / f"{index + 1}_{run.results_path.stem}"  # one run folder per run re-scored
        for logged in harness_of(run).rescore(run, names, settings, folder):
            _check_same_data(run, logged, [name for name in names if name in logged.tasks])
            done.append(RunRescore(run, logged, [compare_task(run, logged, name, settings[name]) for name in names if name in logged.tasks]))
    return done
