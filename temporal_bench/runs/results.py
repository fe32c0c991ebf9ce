"""The results of one model, merged over its runs, as the report reads them.

A run of a task is superseded by a newer run of the same model that read all its questions (a re-run: a full run
supersedes a ``--limit`` one, not the reverse); of the runs no newer one supersedes, one shows the task's values (a full
run before a ``--limit`` one, then one on the release's data, then the one that read the most questions, then the
newer) and the others are shown beside it (a newer run on a subset of its data, or a newer ``--limit`` run). A task
holding several tests (the benchmark's ``per_test_results``: TempVS's ``tempvs`` and ``tempvs_ordering_*``) is read as each test's
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
from temporal_bench.runs.data_read import release_basis
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

    @cached_property
    def contents(self) -> frozenset[str] | None:
        """The content digests of the questions its task read (None without its samples)."""
        try:
            return frozenset(record["content"] for record in self.logged.records(self.logged_as) if record["content"] is not None)
        except RecordsError:
            return None

    @property
    def path(self) -> Path:
        return self.logged.results_path

    @property
    def partial(self) -> Limit | None:
        return partial_limit(self.logged.data, self.logged_as)

    def describe(self) -> str:
        return describe_file(self.path, self.partial)


def _covers(newer: TaskSource, older: TaskSource) -> bool:
    """Whether ``newer`` supersedes ``older``: it read all of its questions (without the samples of both: the same
    task), and is a full run where ``older`` is one."""
    if older.partial is None and newer.partial is not None:
        return False
    mine, theirs = newer.contents, older.contents
    return mine is None or theirs is None or theirs <= mine


def _on_release(source: TaskSource) -> bool:
    """Whether the source's task read its benchmark's release (temporal_bench/runs/data_read.py)."""
    logged, task = source.logged, source.logged_as
    read = logged.data_read(task) if logged.has_samples(task) else None
    return release_basis(task, read, logged.task_config(task)).is_release


def describe_file(path: Path, partial: Limit | None) -> str:
    """A results file as the report's notes name it, with its limit if partial."""
    return f"`{path.as_posix()}`" + (f" (partial: {partial})" if partial else "")


@dataclass
class Run:
    """The results of one model, merged over one or more runs (results files)."""

    label: str
    logged: list[LoggedRun] = field(default_factory=list)
    shown: dict[str, TaskSource] = field(default_factory=dict)  # task -> the source whose values are shown
    # task -> the other sources no newer run supersedes, shown in rows of their own (:meth:`beside_runs`), newest first
    beside: dict[str, list[TaskSource]] = field(default_factory=dict)
    # task -> (source, the newer source that supersedes it: the first that read all its questions), oldest first
    superseded: dict[str, list[tuple[TaskSource, TaskSource]]] = field(default_factory=dict)
    beside_of: Run | None = None  # the run shown beside (:meth:`beside_runs`): the model's run whose values it stands beside
    _per_test: dict[tuple[int, str], dict[str, list[dict]]] = field(default_factory=dict, repr=False)  # (logged run, task) split once

    @property
    def set_aside(self) -> dict[str, list[TaskSource]]:
        """task -> the other results files of this label that hold it: shown beside, then superseded."""
        return {task: [*self.beside.get(task, []), *(old for old, _ in self.superseded.get(task, []))] for task in {*self.beside, *self.superseded}}

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
        shown = self.shown[task].contents
        return [source for source in self.set_aside.get(task, []) if shown is not None and (other := source.contents) is not None and not (other <= shown or shown <= other)]

    def shown_tasks(self, logged: LoggedRun) -> list[str]:
        """The tasks (as logged) whose values this run shows from ``logged``, in its row or beside it (none: newer runs
        of the model superseded it)."""
        sources = [*self.shown.values(), *(source for beside in self.beside.values() for source in beside)]
        return list(dict.fromkeys(source.logged_as for source in sources if source.logged is logged))

    def beside_runs(self) -> list[Run]:
        """The sources shown beside this run's values, as runs of the same label (one per results file, newest first)."""
        by_file: dict[Path, Run] = {}
        for task, sources in sorted(self.beside.items()):
            for source in sources:
                by_file.setdefault(source.path, Run(self.label, [source.logged], beside_of=self)).shown[task] = source
        return sorted(by_file.values(), key=lambda run: file_order(run.paths[0]), reverse=True)

    def beside_note(self, task: str) -> tuple[str, str] | None:
        """For a run shown beside another (:meth:`beside_runs`): its mark (``subset`` where it read some of the other's
        questions of ``task``, else ``another run``; none for a ``--limit`` run, marked partial) and what it read of
        ``task`` against the other."""
        if self.beside_of is None or task not in self.shown:
            return None
        mine, main = self.shown[task], self.beside_of.shown[task]
        ours, theirs = mine.contents, main.contents
        subset = ours is not None and theirs is not None and ours < theirs
        read = f"{len(ours):,} of the {len(theirs):,} questions" if subset and ours is not None and theirs is not None else "other questions than those"
        mark = "" if mine.partial else "subset" if subset else "another run"  # a --limit run's row is marked partial
        return mark, f"({mine.describe()}) read {read} of {main.describe()}, the model's row without this mark"

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
        """Which results file the values of ``task`` are shown from, which other files of it are shown beside it and
        which are not (superseded); empty when only one file holds it."""
        if task not in self.set_aside:
            return ""
        beside = ", ".join(s.describe() for s in self.beside.get(task, []))
        superseded = ", ".join(old.describe() for old, _ in reversed(self.superseded.get(task, [])))
        return f"{task}: shown from {self.shown[task].describe()}" + (f"; shown beside it, in a row of its own: {beside}" if beside else "") + (f"; not shown: {superseded}" if superseded else "")


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


def _merge_task(run: Run, task: str, sources: Sequence[TaskSource]) -> None:
    """Of the files of one label that hold ``task`` (oldest first): each one a newer one supersedes (the first newer
    that read all its questions), and of the others, the one whose values are shown (a full run, on the release's data,
    that read the most questions, the newer) and those shown beside it, newest first."""
    left = []
    for i, source in enumerate(sources):
        newer = next((other for other in sources[i + 1 :] if _covers(other, source)), None)
        if newer is None:
            left.append(source)
        else:
            run.superseded.setdefault(task, []).append((source, newer))
    if len(left) == 1:
        run.shown[task] = left[0]
        return
    run.shown[task] = max(left, key=lambda s: (s.partial is None, _on_release(s), len(s.contents or ()), left.index(s)))
    run.beside[task] = [source for source in reversed(left) if source is not run.shown[task]]


def merge_runs(found: Sequence[LoggedRun], label: str | None = None) -> list[Run]:
    """One :class:`Run` per model label over ``found``.

    Runs of the same model are merged task by task. When several runs hold the same task, a run that a newer one
    supersedes is kept in :attr:`Run.superseded`, so the commands name it; of the others, a full run's values are shown
    rather than a ``--limit`` run's, a run's on the release's data, the one on the most questions, then the newer
    file's (by the date in its name), and the others are kept in :attr:`Run.beside`. ``label`` overrides the name of
    every run (and so merges them all into one).
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
        for task, sources in tasks.items():
            _merge_task(runs[name], task, sources)
    return list(runs.values())


def load_runs(paths: Iterable[str | Path], label: str | None = None) -> list[Run]:
    """The :class:`Run` of each model label over the results files (or folders of them) ``paths``, each file read once."""
    found: dict[Path, LoggedRun] = {}
    for path in paths:
        found.update((logged.results_path, logged) for logged in find_runs(path, rescored=True) if logged.results_path not in found)
    return merge_runs(list(found.values()), label)
