"""The results of one model, merged over its runs, as the report reads them.

Each task's values come from one run (a full run before a ``--limit`` one, then the newer); a task holding several
tests (the benchmark's ``per_test_results``: TempVS's ``tempvs`` and ``tempvs_ordering_*``) is read as each test's
own task; its breakdown keys come with it (:meth:`temporal_bench.runs.logged.LoggedRun.breakdowns`). Every file is
read once, by :func:`temporal_bench.runs.logged.find_runs`, and the shown values keep their run, so intervals and
figures read the records from it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from temporal_bench import benchmarks
from temporal_bench.models.arguments import arguments_text, used_arguments_text
from temporal_bench.runs.files import NotResults, UnreadableResults, file_order, read_results_file
from temporal_bench.runs.limits import Limit, partial_limit
from temporal_bench.runs.logged import LoggedRun, RecordsError, find_runs
from temporal_bench.runs.records import per_test_records


def per_test_results(task: str, entry: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """``{task: entry}``, or the benchmark's split of a task holding several tests (each under its own task name)."""
    benchmark = benchmarks.of_task(task)
    if benchmark is None or benchmark.per_test_results is None:
        return {task: entry}
    return benchmark.per_test_results(task, entry)


def _filter_of(entry: dict[str, Any]) -> str:
    """The filter the task's metrics are reported under (``none``, or e.g. ``majority_vote``)."""
    return next((key.partition(",")[2] for key in entry if "," in key and key.partition(",")[2]), "none")


def with_breakdowns(logged: LoggedRun, task: str, entry: dict[str, Any]) -> dict[str, Any]:
    """The task's results entry with its breakdown keys (under its headline keys' filter) where it does not hold them."""
    try:
        found = logged.breakdowns(task) if task in logged.samples else {}
    except RecordsError:
        found = {}
    flt = _filter_of(entry)
    return {**{f"{key},{flt}": value for key, value in found.items()}, **entry}


@dataclass(frozen=True)
class TaskSource:
    """One run's values of one task (of a test, for a task holding several: ``logged_as`` names the task), its breakdown
    keys computed from the samples at the first read of :attr:`values` (a command that only picks the runs to show, as
    check does, computes none)."""

    logged: LoggedRun
    logged_as: str
    shown_as: str  # the task name its values are shown under (a test's, for a task holding several)

    @cached_property
    def values(self) -> dict[str, Any]:
        entry = self.logged.data["results"][self.logged_as]
        return per_test_results(self.logged_as, with_breakdowns(self.logged, self.logged_as, entry))[self.shown_as]

    @property
    def path(self) -> Path:
        return self.logged.results_path

    @property
    def partial(self) -> Limit | None:
        return partial_limit(self.logged.data, self.logged_as)

    def describe(self) -> str:
        return describe_file(self.path, self.partial)


def _contents(source: TaskSource) -> set[str] | None:
    """The content digests of the questions a source's task read (None without its samples)."""
    try:
        return {record["content"] for record in source.logged.records(source.logged_as) if record["content"] is not None}
    except RecordsError:
        return None


def describe_file(path: Path, partial: Limit | None) -> str:
    """A results file as the report's notes name it, with its limit if partial."""
    return f"`{path.as_posix()}`" + (f" (partial: {partial})" if partial else "")


@dataclass
class Run:
    """The results of one model, merged over one or more runs (results files)."""

    label: str
    logged: list[LoggedRun] = field(default_factory=list)
    shown: dict[str, TaskSource] = field(default_factory=dict)  # task -> the source whose values are shown
    # task -> the other results files of this label that hold it, whose values are not shown
    set_aside: dict[str, list[TaskSource]] = field(default_factory=dict)
    _per_test: dict[tuple[int, str], dict[str, list[dict]]] = field(default_factory=dict, repr=False)  # (logged run, task) split once

    @property
    def paths(self) -> list[Path]:
        return [logged.results_path for logged in self.logged]

    @property
    def tasks(self) -> list[str]:
        return sorted(self.shown)

    @property
    def results(self) -> dict[str, dict[str, Any]]:
        return {task: source.values for task, source in self.shown.items()}

    @property
    def sources(self) -> dict[str, Path]:
        """task -> the results file its values came from."""
        return {task: source.path for task, source in self.shown.items()}

    @property
    def partial(self) -> dict[str, Limit]:
        """task -> how its shown values left out docs."""
        return {task: limit for task, source in self.shown.items() if (limit := source.partial)}

    def other_data(self, task: str) -> list[TaskSource]:
        """The set-aside sources of ``task`` that read other questions than the shown one (neither's questions all among
        the other's: another split or copy of the data, not a re-run or a ``--limit`` run of the same)."""
        shown = _contents(self.shown[task])
        return [source for source in self.set_aside.get(task, []) if shown is not None and (other := _contents(source)) is not None and not (other <= shown or shown <= other)]

    def shown_tasks(self, logged: LoggedRun) -> list[str]:
        """The tasks (as logged) whose values this run shows from ``logged`` (none: a newer run of the model superseded it)."""
        return list(dict.fromkeys(source.logged_as for source in self.shown.values() if source.logged is logged))

    @property
    def without_samples(self) -> list[str]:
        """Tasks whose results file has no samples beside it (no breakdowns, intervals or data check)."""
        return sorted({source.logged_as for source in self.shown.values() if not source.logged.has_samples(source.logged_as)})

    def config(self, task: str) -> dict[str, Any]:
        """The config the harness recorded for ``task``."""
        source = self.shown.get(task)
        return source.logged.task_config(source.logged_as) if source else {}

    def data_read(self, task: str):
        """What ``task`` read (temporal_bench/runs/data_read.py; None: no samples)."""
        source = self.shown.get(task)
        return source.logged.data_read(source.logged_as) if source and source.logged.has_samples(source.logged_as) else None

    def recorded_model(self, task: str) -> str:
        """The model the results file of ``task``'s shown values records (:func:`run_label`), which a ``--label`` naming
        the run never replaces: what a reproduction verdict reads."""
        source = self.shown[task]
        return run_label(source.logged.data, source.path)

    def model_class(self, task: str) -> str:
        """The harness's model class that ran ``task`` (``config.model``)."""
        source = self.shown.get(task)
        return str(source.logged.model or "") if source else ""

    def records(self, task: str) -> tuple[list[dict], str]:
        """The logged records the shown value of ``task`` was computed from (empty and why where none)."""
        source = self.shown.get(task)
        if source is None:
            return [], ""
        try:
            records = source.logged.records(source.logged_as)
        except RecordsError as exc:
            return [], str(exc)
        if source.logged_as == task:
            return records, ""
        key = (id(source.logged), source.logged_as)
        if key not in self._per_test:
            self._per_test[key] = per_test_records(source.logged_as, records)
        return self._per_test[key][task], ""

    def metric(self, task: str, metric: str, filters: Iterable[str] = ("none",)) -> float | None:
        """The numeric value of ``metric`` in ``task`` (None when absent, ``N/A``, null or NaN).

        The filter named first in ``filters`` that has the metric wins; otherwise any other
        filter (alphabetically), so the majority-vote filter of self-consistency tasks is found.
        """
        entry = self.results.get(task)
        if not entry:
            return None
        by_filter = {}
        for key, value in entry.items():
            name, sep, flt = key.partition(",")
            if sep and name == metric:
                by_filter[flt] = value
        order = [f for f in filters if f in by_filter] + sorted(f for f in by_filter if f not in filters)
        for flt in order:
            value = by_filter[flt]
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                continue
            if math.isnan(value):
                continue
            return float(value)
        return None

    def sources_note(self, task: str) -> str:
        """Which results file the values of ``task`` are shown from, and which other files hold it
        (empty when only one does)."""
        if task not in self.set_aside:
            return ""
        shown = self.shown[task].describe()
        return f"{task}: shown from {shown}; not shown: " + ", ".join(s.describe() for s in self.set_aside[task])


REPLAY_MODEL = "replay"  # the model of a re-scored run (temporal-bench rescore): its --model_args name the run re-scored


def _settings_changed(data: dict[str, Any], source: dict[str, Any]) -> str:
    """``key=value`` for each task setting a re-scored run was evaluated with otherwise than its source run."""
    changed = {}
    for task, config in (data.get("configs") or {}).items():
        before = ((source.get("configs") or {}).get(task) or {}).get("metadata") or {}
        changed.update({key: value for key, value in (config.get("metadata") or {}).items() if key in before and before[key] != value})
    return ", ".join(f"{key}={value if isinstance(value, (str, int, float)) else json.dumps(value)}" for key, value in changed.items())


def rescored_label(data: dict[str, Any]) -> str:
    """A re-scored run's label: its source run's, ``rescored``, and the settings it changed."""
    source = dict(item.partition("=")[::2] for item in arguments_text((data.get("config") or {}).get("model_args")).split(",")).get("source", "")
    try:
        source_data = read_results_file(source)
    except (UnreadableResults, NotResults) as exc:
        return f"rescore of {source} ({exc})"
    changed = _settings_changed(data, source_data)
    return f"{run_label(source_data, Path(source))}, rescored" + (f" with {changed}" if changed else "")


def run_label(data: dict[str, Any], path: Path) -> str:
    """The model name the harness recorded, else ``<model> (<model_args>)`` (for our baselines the
    arguments they used: models/arguments.py), else the file stem; a re-scored run: :func:`rescored_label`."""
    config = data.get("config") or {}
    model = str(config.get("model") or data.get("model_source") or "")
    if model == REPLAY_MODEL:
        return rescored_label(data)
    name = str(data.get("model_name") or "")
    if name and name in arguments_text(config.get("model_args")):  # a name taken from pretrained=/model=/... (not a random id)
        return name
    if model:
        model_args = used_arguments_text(model, config.get("model_args"))
        return f"{model} ({model_args})" if model_args else model
    return name or path.stem


def shown_source(sources: Sequence[TaskSource]) -> TaskSource:
    """Of the files of one label that hold a task (oldest first), the one whose values are shown: the
    newest full run, else (every one partial) the newest partial run."""
    full = [s for s in sources if s.partial is None]
    return (full or list(sources))[-1]


def merge_runs(found: Sequence[LoggedRun], label: str | None = None) -> list[Run]:
    """One :class:`Run` per model label over ``found``.

    Runs of the same model are merged task by task. When several runs hold the same task, a full run's values are
    shown rather than a ``--limit`` run's, and the newer file's (by the date in its name) among equals; the others are
    kept in :attr:`Run.set_aside`, so the commands name them. ``label`` overrides the name of every run (and so merges
    them all into one).
    """
    runs: dict[str, Run] = {}
    held: dict[str, dict[str, list[TaskSource]]] = {}  # label -> task -> its sources, oldest first
    for logged in sorted(found, key=lambda r: file_order(r.results_path)):
        name = label or run_label(logged.data, logged.results_path)
        runs.setdefault(name, Run(name)).logged.append(logged)
        for task, entry in logged.data["results"].items():
            if isinstance(entry, dict):
                for test in per_test_results(task, entry):
                    held.setdefault(name, {}).setdefault(test, []).append(TaskSource(logged, task, test))
    for name, tasks in held.items():
        run = runs[name]
        for task, sources in tasks.items():
            run.shown[task] = shown_source(sources)
            if len(sources) > 1:
                run.set_aside[task] = [s for s in sources if s is not run.shown[task]]
    return list(runs.values())


def load_runs(paths: Iterable[str | Path], label: str | None = None) -> list[Run]:
    """The :class:`Run` of each model label over the results files (or folders of them) ``paths``, each file read once."""
    found: dict[Path, LoggedRun] = {}
    for path in paths:
        found.update((logged.results_path, logged) for logged in find_runs(path, rescored=True) if logged.results_path not in found)
    return merge_runs(list(found.values()), label)
