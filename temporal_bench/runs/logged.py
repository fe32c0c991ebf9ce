"""A logged run: one results JSON and the samples files of its tasks, as the harness wrote them, each file read once.

:class:`LoggedRun` is the one model every command reads a run through: the results JSON parsed when it is found,
each samples file at the first use, and what follows from them kept on it: each task's records
(temporal_bench/runs/records.py), what it read (temporal_bench/runs/data_read.py) and its breakdowns (the
benchmark's ``breakdown_metrics``). :class:`temporal_bench.runs.results.Run` shows one model over its runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from temporal_bench import benchmarks
from temporal_bench.runs.data_read import DataRead, data_read, image_digests
from temporal_bench.runs.files import HARNESS_FILES, HarnessFiles, NotResults, UnreadableResults, find_result_files, read_results_file, read_samples
from temporal_bench.runs.records import line_facts, read_record


class RunReadError(ValueError):
    """A run that cannot be read as asked: an unreadable results JSON, a task no run has, a missing samples file."""


class RecordsError(RunReadError):
    """A task whose records cannot be read back: no samples file, or lines without a record."""


def as_dict(value: Any) -> dict:
    """``value`` if it is a mapping (a copy), else empty: recorded configs may hold null or a string."""
    return dict(value) if isinstance(value, dict) else {}


@dataclass
class LoggedRun:
    """One results JSON and the samples files of its tasks, and what they give, each computed once."""

    harness: HarnessFiles
    results_path: Path
    data: dict
    samples: dict[str, Path]
    _lines: dict[str, list[dict]] = field(default_factory=dict, repr=False)
    _records: dict[str, list[dict]] = field(default_factory=dict, repr=False)
    _reads: dict[str, DataRead | None] = field(default_factory=dict, repr=False)
    _breakdowns: dict[str, dict] = field(default_factory=dict, repr=False)

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

    def has_samples(self, task: str) -> bool:
        return task in self.samples and self.samples[task].is_file()

    def lines(self, task: str) -> list[dict]:
        """The logged requests of ``task``'s samples file, in logged order."""
        if task not in self._lines:
            self._lines[task] = read_samples(self.samples[task])
        return self._lines[task]

    def records(self, task: str) -> list[dict]:
        """Every logged record of ``task``, in the logged order, as its benchmark reads it (one filter: lm-eval logs
        the filter's name; a task logged under several filters is refused rather than mixed)."""
        if task not in self._records:
            if not self.has_samples(task):
                name = self.samples[task].name if task in self.samples else f"a samples file of {task}"
                raise RecordsError(f"{self.results_path}: no {name} beside it (run with --log_samples)")
            lines = self.lines(task)
            filters = {line["filter"] for line in lines if "filter" in line}
            if len(filters) > 1:
                raise RecordsError(f"{self.samples[task]}: logged under several filters ({', '.join(sorted(filters))}); intervals need one record per doc")
            config, model_config, digest = self.task_config(task), self.data.get("config") or {}, image_digests()
            read = [read_record(task, line, config, model_config, digest) for line in lines]
            records = [record for record in read if record is not None]
            if len(records) < len(lines):
                raise RecordsError(f"{self.samples[task]}: {len(lines) - len(records)} of {len(lines)} sample lines hold no per-doc record")
            self._records[task] = records
        return self._records[task]

    def data_read(self, task: str) -> DataRead | None:
        """What ``task`` read and how its requests fared (temporal_bench/runs/data_read.py); None without its samples
        file (a run made without ``--log_samples``)."""
        if task not in self._reads:
            config, model_config = self.task_config(task), self.data.get("config") or {}
            self._reads[task] = data_read(task, self.lines(task), self._facts(task), config, model_config) if self.has_samples(task) else None
        return self._reads[task]

    def _facts(self, task: str) -> list[dict]:
        """The task's records, or for lines holding none (a task of no benchmark of this package) what every line tells."""
        try:
            return self.records(task)
        except RecordsError:
            config, model_config = self.task_config(task), self.data.get("config") or {}
            digest = image_digests()
            return [read_record(task, line, config, model_config, digest) or line_facts(task, line, None, config, model_config, digest) for line in self.lines(task)]

    def breakdowns(self, task: str) -> dict:
        """The task's breakdown keys computed from its records (its benchmark's ``breakdown_metrics``; none without)."""
        if task not in self._breakdowns:
            benchmark = benchmarks.of_task(task)
            compute = benchmark.breakdown_metrics if benchmark is not None else None
            self._breakdowns[task] = compute(task, self.records(task)) if compute is not None and self.has_samples(task) else {}
        return self._breakdowns[task]


def find_runs(path: str | Path, rescored: bool = False) -> list[LoggedRun]:
    """Every run under ``path`` (a results file or a folder), each file read once; files written by ``rescore
    --write-results`` only with ``rescored``. A results file named as neither harness names one (given by name) is read
    as lmms-eval's, with no samples beside it."""
    runs = []
    for results_path in find_result_files(path):
        named = [(h, m) for h in HARNESS_FILES if (m := h.results_name.fullmatch(results_path.name))]
        harness, match = named[0] if named else (HARNESS_FILES[0], None)
        try:
            data = read_results_file(results_path)
        except UnreadableResults as exc:
            raise RunReadError(str(exc)) from exc
        except NotResults:
            continue
        if "rescore" in data and not rescored:
            continue
        groups = data.get("group_subtasks") or {}
        samples = {task: harness.samples_file(results_path.parent, match.group("date"), task) for task in data["results"] if not groups.get(task)} if match else {}
        runs.append(LoggedRun(harness, results_path, data, samples))
    return runs


def model_runs(runs: Sequence[LoggedRun]) -> list[LoggedRun]:
    """The runs of a model among ``runs``: results files holding a release's scored outputs (a benchmark's
    ``is_released_outputs``: the TempVS release's predictions that the demo scores beside its runs) left out."""
    released = [b.is_released_outputs for b in benchmarks.all_benchmarks() if b.is_released_outputs is not None]
    return [run for run in runs if not any(is_released(run.data) for is_released in released)]


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
