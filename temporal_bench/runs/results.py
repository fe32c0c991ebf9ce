"""The results of one model, merged over its results files, as the report reads them.

Each task's values come from one results file (a full run before a ``--limit`` one, then the
newer); a task holding several tests (the benchmark's ``per_test_results``: TempVS's
``tempvs_ordering_*``) is read as each test's own task; breakdown keys are added from the samples
beside each file (temporal_bench/runs/breakdowns.py).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from temporal_bench import benchmarks
from temporal_bench.models.arguments import arguments_text, used_arguments_text
from temporal_bench.runs.breakdowns import with_breakdowns
from temporal_bench.runs.files import file_order, find_result_files, read_results_file
from temporal_bench.runs.limits import Limit, partial_limit
from temporal_bench.runs.logged import logged_run
from temporal_bench.runs.records import task_data


def per_test_results(task: str, entry: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """``{task: entry}``, or the benchmark's split of a task holding several tests (each under its own task name)."""
    benchmark = benchmarks.of_task(task)
    if benchmark is None or benchmark.per_test_results is None:
        return {task: entry}
    return benchmark.per_test_results(task, entry)


@dataclass(frozen=True)
class TaskSource:
    """One results file's values of one task."""

    path: Path
    values: dict[str, Any]
    config: dict[str, Any]
    partial: Limit | None
    data: Any = None  # the data the task read, as its samples show it (temporal_bench/runs/data_read.py; None: no samples)
    model_class: str = ""  # the harness's model class that ran it (``config.model``)

    def describe(self) -> str:
        return describe_file(self.path, self.partial)


def describe_file(path: Path, partial: Limit | None) -> str:
    """A results file as the report's notes name it, with its limit if partial."""
    return f"`{path.as_posix()}`" + (f" (partial: {partial})" if partial else "")


@dataclass
class Run:
    """The results of one model, merged over one or more results files."""

    label: str
    paths: list[Path] = field(default_factory=list)
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    configs: dict[str, dict[str, Any]] = field(default_factory=dict)  # task -> the config the harness recorded
    data_sources: dict[str, Any] = field(default_factory=dict)  # task -> the DataRead of its samples (None: no samples)
    model_classes: dict[str, str] = field(default_factory=dict)  # task -> the harness's model class that ran it
    # tasks whose breakdowns could not be computed: their results file has no samples beside it
    without_samples: list[str] = field(default_factory=list)
    sources: dict[str, Path] = field(default_factory=dict)  # task -> the results file its values came from
    partial: dict[str, Limit] = field(default_factory=dict)  # task -> how its shown values left out docs
    # task -> the other results files of this label that hold it, whose values are not shown
    set_aside: dict[str, list[TaskSource]] = field(default_factory=dict)

    @property
    def tasks(self) -> list[str]:
        return sorted(self.results)

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

    def sampling(self, task: str) -> tuple[Any, Any]:
        """(samples per question, temperature) as the run recorded them for ``task``: the task
        config's ``repeats`` and ``generation_kwargs.temperature`` (both harnesses write
        ``--gen_kwargs`` into the latter); None where not recorded."""
        config = self.configs.get(task) or {}
        generation = config.get("generation_kwargs") or {}
        return config.get("repeats"), generation.get("temperature")

    def sources_note(self, task: str) -> str:
        """Which results file the values of ``task`` are shown from, and which other files hold it
        (empty when only one does)."""
        if task not in self.set_aside:
            return ""
        shown = describe_file(self.sources[task], self.partial.get(task))
        return f"{task}: shown from {shown}; not shown: " + ", ".join(s.describe() for s in self.set_aside[task])

    def undefined(self, task: str, metric: str) -> bool:
        """Whether the task reports the metric as null: computed but undefined (e.g. a ratio
        with an empty denominator), unlike an absent metric or lmms-eval's "N/A"."""
        return _null_metric(self.results.get(task), metric)


def _null_metric(entry: dict[str, Any] | None, metric: str) -> bool:
    return any(key.partition(",")[0] == metric and value is None for key, value in (entry or {}).items())


def run_label(data: dict[str, Any], path: Path) -> str:
    """The model name the harness recorded, else ``<model> (<model_args>)`` (for our baselines the
    arguments they used: models/arguments.py), else the file stem."""
    config = data.get("config") or {}
    model = str(config.get("model") or data.get("model_source") or "")
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


def _logged(path: Path):
    try:
        return logged_run(path)
    except ValueError:  # no samples beside it
        return None


def load_runs(paths: Iterable[str | Path], label: str | None = None) -> list[Run]:
    """Read results files (or folders of them) into one :class:`Run` per model label.

    Files of the same model are merged task by task. When several files hold the same task, a full
    run's values are shown rather than a ``--limit`` run's, and the newer file's (by the date in its
    name) among equals; the others are kept in :attr:`Run.set_aside`, so the report names them.
    ``label`` overrides the name of every run (and so merges them all into one). Each task's
    breakdown keys are computed from the samples beside its file (temporal_bench/runs/breakdowns.py).
    """
    files: list[Path] = []
    for p in paths:
        files.extend(f for f in find_result_files(p) if f not in files)
    runs: dict[str, Run] = {}
    held: dict[str, dict[str, list[TaskSource]]] = {}  # label -> task -> its sources, oldest first
    without: dict[Path, list[str]] = {}
    tests_of: dict[tuple[Path, str], list[str]] = {}  # (file, task) -> the names its values are read under
    for path in sorted(files, key=file_order):
        data = read_results_file(path)
        name = label or run_label(data, path)
        runs.setdefault(name, Run(name)).paths.append(path)
        without[path] = with_breakdowns(path, data["results"])
        configs = data.get("configs") if isinstance(data.get("configs"), dict) else {}
        logged = _logged(path)
        for task, entry in data["results"].items():
            if isinstance(entry, dict):
                read = task_data(logged, task) if logged is not None and task in logged.samples else None
                source = (configs.get(task) or {}, partial_limit(data, task), read, str((data.get("config") or {}).get("model") or ""))
                tests = per_test_results(task, entry)
                tests_of[path, task] = list(tests)
                for test, values in tests.items():
                    held.setdefault(name, {}).setdefault(test, []).append(TaskSource(path, values, *source))
    for name, tasks in held.items():
        run = runs[name]
        for task, sources in tasks.items():
            shown = shown_source(sources)
            run.results[task], run.configs[task], run.sources[task] = shown.values, shown.config, shown.path
            run.data_sources[task], run.model_classes[task] = shown.data, shown.model_class
            if shown.partial:
                run.partial[task] = shown.partial
            if len(sources) > 1:
                run.set_aside[task] = [s for s in sources if s is not shown]
        run.without_samples = [task for path in run.paths for task in without[path] if any(run.sources.get(test) == path for test in tests_of.get((path, task), [task]))]
    return list(runs.values())
