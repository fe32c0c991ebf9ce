"""Reading the results JSON files that lmms-eval and lm-eval write.

lmms-eval writes ``<out>/<model>/<date>_results.json`` (or ``<out>/<date>_results.json`` when the
model name is empty), lm-eval ``<out>/<model>/results_<date>.json``. Both hold
``{"results": {task: {"<metric>,<filter>": value, ...}}, "model_name": ..., "config": {...}}``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from temporal_bench.tempvs.task_tests import per_test_results

RESULT_GLOBS = ("*_results.json", "results_*.json")


@dataclass(frozen=True)
class Limit:
    """How a run made with ``--limit`` (or lmms-eval's ``--offset``) left out docs of a task."""

    limit: int | float | None  # as recorded: a count, or (below 1) a fraction of the docs
    offset: int = 0
    evaluated: int | None = None  # docs evaluated / docs the task has (``n-samples``), where recorded
    total: int | None = None

    @property
    def flags(self) -> str:
        """The options as given on the command line, e.g. ``--limit 40``."""
        flags = [f"--limit {self.limit:g}"] if self.limit is not None else []
        return " ".join(flags + ([f"--offset {self.offset}"] if self.offset else []))

    def __str__(self) -> str:
        counted = self.evaluated is not None and self.total is not None
        return self.flags + (f": {self.evaluated:,} of {self.total:,} docs" if counted else "")


def _recorded_limit(value: Any) -> int | float | None:
    """The harnesses' ``config.limit``: None (or -1, lmms-eval's "no limit") for every doc."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value == -1:
        return None
    return value


def partial_limit(data: dict[str, Any], task: str) -> Limit | None:
    """The :class:`Limit` of ``task`` in a results file's data when the run left out some of its docs,
    else None (a full run).

    A run made with ``--limit`` is partial unless its ``n-samples`` record shows every doc of the task
    evaluated (a limit above the task's size); an ``--offset`` always is. ``task`` is a task name as
    the file's ``results`` holds it.
    """
    config = data.get("config") if isinstance(data.get("config"), dict) else {}
    limit, offset = _recorded_limit(config.get("limit")), config.get("offset") or 0
    if limit is None and not offset:
        return None
    counts = (data.get("n-samples") or {}).get(task) or {}
    evaluated, total = counts.get("effective"), counts.get("original")
    if not offset and isinstance(evaluated, int) and isinstance(total, int) and evaluated >= total:
        return None
    return Limit(limit, int(offset), evaluated, total)


@dataclass(frozen=True)
class TaskSource:
    """One results file's values of one task."""

    path: Path
    values: dict[str, Any]
    config: dict[str, Any]
    partial: Limit | None

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
    # tasks whose breakdowns could not be computed: their results file has no samples beside it
    without_samples: list[str] = field(default_factory=list)
    sources: dict[str, Path] = field(default_factory=dict)  # task -> the results file its values came from
    partial: dict[str, Limit] = field(default_factory=dict)  # task -> how its shown values left out docs
    # task -> the other results files of this label that hold it, whose values are not shown
    set_aside: dict[str, list[TaskSource]] = field(default_factory=dict)

    @property
    def tasks(self) -> list[str]:
        return sorted(self.results)

    def metric(
        self, task: str, metric: str, filters: Iterable[str] = ("none",)
    ) -> float | None:
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
        order = [f for f in filters if f in by_filter] + sorted(
            f for f in by_filter if f not in filters
        )
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


def find_result_files(path: str | Path) -> list[Path]:
    """A results file itself, or every results file under a folder (recursively), sorted."""
    path = Path(path)
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise FileNotFoundError(f"no results file or folder: {path}")
    found = {p for pattern in RESULT_GLOBS for p in path.rglob(pattern) if p.is_file()}
    return sorted(found, key=_file_order)


def _file_order(path: Path) -> tuple[str, str]:
    digits = re.sub(r"\D", "", path.name)[:14]
    return (digits, str(path))


def _model_args_text(model_args: Any) -> str:
    if isinstance(model_args, dict):
        return ",".join(f"{k}={v}" for k, v in model_args.items())
    return str(model_args or "")


def run_label(data: dict[str, Any], path: Path) -> str:
    """The model name the harness recorded, else ``<model> (<model_args>)``, else the file stem."""
    config = data.get("config") or {}
    model_args = _model_args_text(config.get("model_args"))
    name = str(data.get("model_name") or "")
    if (
        name and name in model_args
    ):  # a name taken from pretrained=/model=/... (not a random id)
        return name
    model = str(config.get("model") or data.get("model_source") or "")
    if model:
        return f"{model} ({model_args})" if model_args else model
    return name or path.stem


def read_results_file(path: str | Path) -> dict[str, Any]:
    """The data of a results file, checked to hold a ``results`` object."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: not a readable results JSON file ({exc})") from exc
    if not isinstance(data, dict) or not isinstance(data.get("results"), dict):
        raise ValueError(
            f"{path}: no 'results' object; is this an lmms-eval/lm-eval results file?"
        )
    return data


def shown_source(sources: Sequence[TaskSource]) -> TaskSource:
    """Of the files of one label that hold a task (oldest first), the one whose values are shown: the
    newest full run, else (every one partial) the newest partial run."""
    full = [s for s in sources if s.partial is None]
    return (full or list(sources))[-1]


def load_runs(paths: Iterable[str | Path], label: str | None = None) -> list[Run]:
    """Read results files (or folders of them) into one :class:`Run` per model label.

    Files of the same model are merged task by task. When several files hold the same task, a full
    run's values are shown rather than a ``--limit`` run's, and the newer file's (by the date in its
    name) among equals; the others are kept in :attr:`Run.set_aside`, so the report names them.
    ``label`` overrides the name of every run (and so merges them all into one). Each task's
    breakdown keys are computed from the samples beside its file (temporal_bench/report/breakdowns.py).
    """
    from temporal_bench.report.breakdowns import with_breakdowns  # it reads samples through rescore, which imports this module

    files: list[Path] = []
    for p in paths:
        files.extend(f for f in find_result_files(p) if f not in files)
    runs: dict[str, Run] = {}
    held: dict[str, dict[str, list[TaskSource]]] = {}  # label -> task -> its sources, oldest first
    without: dict[Path, list[str]] = {}
    tests_of: dict[tuple[Path, str], list[str]] = {}  # (file, task) -> the names its values are read under
    for path in sorted(files, key=_file_order):
        data = read_results_file(path)
        name = label or run_label(data, path)
        runs.setdefault(name, Run(name)).paths.append(path)
        without[path] = with_breakdowns(path, data["results"])
        configs = data.get("configs") if isinstance(data.get("configs"), dict) else {}
        for task, entry in data["results"].items():
            if isinstance(entry, dict):
                source = (configs.get(task) or {}, partial_limit(data, task))
                tests = per_test_results(task, entry)
                tests_of[path, task] = list(tests)
                for test, values in tests.items():
                    held.setdefault(name, {}).setdefault(test, []).append(TaskSource(path, values, *source))
    for name, tasks in held.items():
        run = runs[name]
        for task, sources in tasks.items():
            shown = shown_source(sources)
            run.results[task], run.configs[task], run.sources[task] = shown.values, shown.config, shown.path
            if shown.partial:
                run.partial[task] = shown.partial
            if len(sources) > 1:
                run.set_aside[task] = [s for s in sources if s is not shown]
        run.without_samples = [task for path in run.paths for task in without[path]
                               if any(run.sources.get(test) == path for test in tests_of.get((path, task), [task]))]
    return list(runs.values())
