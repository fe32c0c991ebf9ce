"""A logged run: one results JSON and the samples files of its tasks, as the harness wrote them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from temporal_bench import benchmarks
from temporal_bench.runs.files import HARNESS_FILES, HarnessFiles, find_result_files, read_samples


class RunReadError(ValueError):
    """A run that cannot be read as asked: an unreadable results JSON, a task no run has, a missing samples file."""


def as_dict(value: Any) -> dict:
    """``value`` if it is a mapping (a copy), else empty: recorded configs may hold null or a string."""
    return dict(value) if isinstance(value, dict) else {}


@dataclass
class LoggedRun:
    """One results JSON and the samples files of its tasks."""

    harness: HarnessFiles
    results_path: Path
    data: dict
    samples: dict[str, Path]
    task_manager: Any = None  # the harness's TaskManager, kept by temporal_bench/rescore once it rebuilt the run's tasks
    _lines: dict[str, list[dict]] = field(default_factory=dict, repr=False)  # each samples file, read once

    def lines(self, task: str) -> list[dict]:
        """The logged requests of ``task``'s samples file, in logged order (read at the first call)."""
        if task not in self._lines:
            self._lines[task] = read_samples(self.samples[task])
        return self._lines[task]

    @property
    def tasks(self) -> list[str]:
        return list(self.samples)

    @property
    def cli_args(self) -> dict | None:
        """lmms-eval's resolved command line (None for runs made through the Python API)."""
        return (self.data.get("config") or {}).get("resolved_cli_args")

    @property
    def model(self) -> str | None:
        """The model name the run resolved per-model task settings for (lmms-eval's ``--model``)."""
        return (self.data.get("config") or {}).get("model")

    def task_config(self, name: str) -> dict:
        return (self.data.get("configs") or {}).get(name) or {}

    def recorded_settings(self, name: str) -> dict:
        """The task's metadata as the run recorded it."""
        return as_dict(self.task_config(name).get("metadata"))


def find_runs(path: str | Path) -> list[LoggedRun]:
    """Every run under ``path`` (a results file or a folder); files written by ``rescore --write-results``
    are skipped."""
    runs = []
    for results_path in find_result_files(path):
        named = [(h, m) for h in HARNESS_FILES if (m := h.results_name.fullmatch(results_path.name))]
        if not named:
            continue
        harness, match = named[0]
        try:
            data = json.loads(results_path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise RunReadError(f"{results_path}: not a readable results JSON file ({exc})") from exc
        if "rescore" in data or not isinstance(data.get("results"), dict):
            continue
        groups = data.get("group_subtasks") or {}
        samples = {task: harness.samples_file(results_path.parent, match.group("date"), task) for task in data["results"] if not groups.get(task)}
        runs.append(LoggedRun(harness, results_path, data, samples))
    return runs


def model_runs(runs: Sequence[LoggedRun]) -> list[LoggedRun]:
    """The runs of a model among ``runs``: results files holding a release's scored outputs (a benchmark's
    ``is_released_outputs``: the TempVS release's predictions that the demo scores beside its runs) left out."""
    released = [b.is_released_outputs for b in benchmarks.all_benchmarks() if b.is_released_outputs is not None]
    return [run for run in runs if not any(is_released(run.data) for is_released in released)]


def logged_run(results_path: Path) -> LoggedRun:
    """The run of one results file (lmms-eval's or lm-eval's naming)."""
    runs = find_runs(results_path)
    if not runs:
        raise RunReadError(f"{results_path}: not an lmms-eval or lm-eval results file with samples beside it")
    return runs[0]


def _held_tests(task: str) -> list[str]:
    benchmark = benchmarks.of_task(task)
    return benchmark.held_tests(task) if benchmark else []


def named_tasks(runs: Sequence[LoggedRun], wanted: Sequence[str]) -> list[str]:
    """The tasks of the runs that the names given with ``--tasks`` mean (every command takes the same
    names): a task's name, or the name of a test a task holds as the report shows it (``tempvs_mt2_event``:
    the task ``tempvs`` that asks it) when no run has a task of that name. An unknown name is an error listing the names known."""
    logged = {task for run in runs for task in run.tasks}
    tests = {test: task for task in sorted(logged) for test in _held_tests(task)}
    unknown = [name for name in wanted if name not in logged and name not in tests]
    if unknown:
        known = sorted(logged) + [f"{test} (in {task})" for test, task in sorted(tests.items()) if test not in logged]
        raise RunReadError(f"--tasks: no run has task(s) {', '.join(unknown)} (the runs have: {', '.join(known) or 'none'})")
    return list(dict.fromkeys(name if name in logged else tests[name] for name in wanted))


def select_tasks(runs: Sequence[LoggedRun], wanted: Sequence[str]) -> list[tuple[LoggedRun, list[str]]]:
    """The tasks to read per run (all, or those ``wanted`` names: :func:`named_tasks`); every one must have its samples file."""
    wanted = named_tasks(runs, wanted)
    chosen = []
    for run in runs:
        names = [t for t in run.tasks if not wanted or t in wanted]
        missing = [t for t in names if not run.samples[t].is_file()]
        if missing:
            raise RunReadError(f"{run.results_path}: no samples file for {', '.join(missing)} (looked for {run.samples[missing[0]].name}); re-scoring needs the samples that a run made with --log_samples writes beside its results")
        if names:
            chosen.append((run, names))
    return chosen
