"""The re-scored metrics next to the run's, as markdown or CSV."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from temporal_bench.rescore.scoring import MetricRow, RunRescore, TaskRescore, is_number
from temporal_bench.rescore.settings import ABSENT


def format_value(value: Any) -> str:
    if value is None:
        return "N/A"
    if isinstance(value, str):
        return value
    if is_number(value):
        return str(value) if isinstance(value, int) else repr(float(value))
    return json.dumps(value, default=str)


def format_difference(row: MetricRow) -> str:
    if not row.changed:
        return "0"
    difference = row.difference
    return "changed" if difference is None else f"{difference:+.6g}"


def _setting(value: Any) -> str:
    return "(not set)" if value is ABSENT else json.dumps(value, default=str)


def _tasks(done: Sequence[RunRescore]) -> list[TaskRescore]:
    return [task for item in done for task in item.tasks]


def yaml_warnings(done: Sequence[RunRescore]) -> list[str]:
    """One line per setting the task YAML now gives otherwise than the run recorded (re-scored as recorded)."""
    lines = [f"{task.task}: warning: its YAML now sets `{k}` = {_setting(now)}; re-scored with the run's {_setting(old)}" for task in _tasks(done) for k, (old, now) in task.settings.yaml_differs.items()]
    return lines + [
        f"{item.task}: warning: its YAML now gives model {run.run.model!r} the per-model settings {_setting(item.settings.per_model_differs[1])}; re-scored with the run's {_setting(item.settings.per_model_differs[0])}"
        for run in done
        for item in run.tasks
        if item.settings.per_model_differs
    ]


def settings_notes(done: Sequence[RunRescore]) -> list[str]:
    """One line per setting re-scored otherwise than the run (``--set``), then the YAML warnings."""
    return [f"{task.task}: `{k}` = {_setting(new)} (--set; the run had {_setting(old)})" for task in _tasks(done) for k, (old, new) in task.settings.changed.items()] + yaml_warnings(done)


def render_markdown(done: Sequence[RunRescore]) -> str:
    notes = settings_notes(done)
    out = ["Settings: each task's as the run recorded them" + (", except:" if notes else "."), ""]
    if notes:
        out += [f"- {note}" for note in notes] + [""]
    for item in done:
        out += [f"# Re-scored {item.run.results_path} ({item.run.harness.name}): {item.rescored.results_path}", ""]
        for task in item.tasks:
            out += [f"## {task.task}", "", f"{task.samples} samples; per-doc values changed: {task.changed_docs}.", ""]
            out += _metric_table(task.rows)
            changed_breakdowns = [r for r in task.breakdowns if r.changed]
            if changed_breakdowns:
                out += [f"Breakdowns that changed ({len(changed_breakdowns)} of {len(task.breakdowns)}; computed from the per-doc records as `temporal-bench report` computes them):", ""] + _metric_table(changed_breakdowns)
            elif task.breakdowns:
                out += [f"All {len(task.breakdowns)} breakdowns equal the original run's.", ""]
    rows = [r for task in _tasks(done) for r in task.rows]
    changed = sum(r.changed for r in rows)
    out.append(f"{changed} of {len(rows)} metrics differ from the original run." if changed else f"All {len(rows)} metrics equal the original run's.")
    breakdowns = [r for task in _tasks(done) for r in task.breakdowns]
    if any(r.changed for r in breakdowns):
        out.append(f"{sum(r.changed for r in breakdowns)} of {len(breakdowns)} breakdowns differ from the original run's.")
    return "\n".join(out) + "\n"


def _metric_table(rows: Sequence[MetricRow]) -> list[str]:
    return ["| metric | filter | original | re-scored | difference |", "|---|---|--:|--:|--:|"] + [f"| {r.metric} | {r.filter} | {format_value(r.original)} | {format_value(r.rescored)} | {format_difference(r)} |" for r in rows] + [""]


def render_csv(done: Sequence[RunRescore]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["results_file", "rescored_file", "task", "settings", "metric", "filter", "original", "rescored", "difference", "changed"])
    for item in done:
        for task in item.tasks:
            settings = " ".join(f"{k}={_setting(new)}" for k, (_, new) in task.settings.changed.items())
            for r in [*task.rows, *task.breakdowns]:
                writer.writerow([item.run.results_path, item.rescored.results_path, task.task, settings, r.metric, r.filter, format_value(r.original), format_value(r.rescored), format_difference(r), int(r.changed)])
    return buffer.getvalue()
