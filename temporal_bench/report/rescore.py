"""``temporal-bench rescore``: a run's metrics recomputed from its ``--log_samples`` output, without
the model, optionally under other task settings, next to the values in its results JSON.

A run is a results JSON with its samples files beside it: lmms-eval's ``<date>_results.json`` and
``<date>_samples_<task>.jsonl``, lm-eval's ``results_<date>.json`` and
``samples_<task>_<date>.jsonl``. Each task is rebuilt through the harness's own TaskManager (which
loads its docs again, so the run's data must be reachable); the logged responses then go through
the task's filters, its ``process_results`` and its aggregation functions as in the harness's
evaluator, over the logged samples in their logged order (so joins across docs, repeats and
multi-process runs come out as in the run).

Where re-scoring starts depends on what the harness logged:

* lm-eval logs the raw outputs (all samples of a repeated request): the filters run again.
* lmms-eval 0.7.3 drops the doc (it is matched back by ``doc_id`` and checked against the logged
  target). Without reasoning tags for the task (TempVS sets ``reasoning_tags: none``) ``resps``
  holds the raw outputs and the filters run again. With reasoning tags (the CLI default, so
  CaT-Bench and ISO-Bench) it holds each filter's output before the tags were stripped (for
  self-consistency the vote, not the samples): the tags are stripped again and scoring starts there.

Every setting that changes a score is task configuration the results JSON records
(``configs.<task>.metadata``, ``configs.<task>.lmms_eval_specific_kwargs``), so a task is re-scored
under the run's recorded settings, whatever its YAML says now, with ``--set key=value`` on top:

* lmms-eval: the recorded ``metadata`` (and ``--set``) are applied through
  ``temporal_bench.utils.task_options.overridden``, which the tasks' hooks read when they run. A
  recorded value the YAML now sets otherwise is re-scored as recorded and reported; a setting only
  one side has cannot be matched up and is an error (``--set`` gives the YAML's new one a value).
  Per-model settings (``lmms_eval_specific_kwargs``) are resolved by the harness for the model the
  run names (``config.model``), as in the run; if they now resolve differently it is an error.
* lm-eval: the recorded ``metadata`` (the YAML's, ``--metadata`` and the model arguments, as lm-eval
  merged them) goes to the TaskManager with ``--set`` on top, as ``--metadata`` would.

The docs are loaded from the data the run recorded (``metadata.data_source``, run_data.py) unless
``--data`` or the environment names another folder; a task whose data now has another fingerprint
is re-scored with a warning, and ``--write-results`` records the data it was re-scored on.
"""

from __future__ import annotations

import contextlib
import copy
import csv
import io
import json
import logging
import math
import re
import sys
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from numbers import Real
from pathlib import Path
from typing import Any

import yaml

from temporal_bench.cli_style import CommandParser, command_parser
from temporal_bench.paths import LM_EVAL_TASK_DIR, LMMS_EVAL_TASK_DIR
from temporal_bench.report.results import find_result_files
from temporal_bench.report.run_data import data_change, data_locations_of, recorded_source
from temporal_bench.utils.data_dir import data_locations, parse_locations
from temporal_bench.utils.data_fingerprint import DATA_SOURCE_KEY
from temporal_bench.tempvs.suite import with_joined_tasks
from temporal_bench.utils.fail_fast import DataErrorExit

STDERR_KEY = re.compile(r"_stderr(_clt|_clustered)?$")
DATA_HINT = ("re-scoring loads the task's docs again, so it needs the run's data (the command line takes the folder "
             "the run's results JSON records unless TEMPVS_DATA_DIR, CATBENCH_DATA_DIR or ISOBENCH_DATA_DIR is given)")
_ABSENT = object()
# lmms-eval's own metadata key: the harness reads it, not the hooks
HARNESS_METADATA = frozenset({"version"})


def logged_filter_names(names: Sequence[str], lines: list[dict]) -> list[str]:
    """Each lmms-eval sample line's filter: lmms-eval logs no filter name, but every doc once per
    filter ensemble (``names``), in ensemble order."""
    seen: dict[int, int] = defaultdict(int)
    keys = []
    for line in lines:
        keys.append(names[seen[line["doc_id"]] % len(names)])
        seen[line["doc_id"]] += 1
    return keys


class RescoreError(Exception):
    """A run that cannot be re-scored: no samples, a task that cannot be rebuilt, other data."""


@dataclass
class LoggedRequest:
    """Stands in for the harness's Instance: what its filter ensembles read and write."""

    resps: Any
    doc: dict
    filtered_resps: dict = field(default_factory=dict)


def _apply_filters(task, requests: list[LoggedRequest]) -> None:
    task._instances = requests
    task.apply_filters()


def _root_cause(exc: BaseException) -> BaseException:
    """The exception behind a harness's retry wrapper (tenacity's RetryError) or our DataErrorExit."""
    if isinstance(exc, DataErrorExit):
        return exc.__cause__
    attempt = getattr(exc, "last_attempt", None)
    cause = attempt.exception() if attempt is not None else None
    return cause or exc


def _build_task(name: str, known: Sequence[str], build) -> Any:
    if name not in known:
        raise RescoreError(f"task {name!r} cannot be rebuilt: the harness does not know it "
                           "(it is not in the harness's tasks nor in the run's task folders)")
    try:
        return build()
    except (Exception, DataErrorExit) as exc:
        cause = _root_cause(exc)
        raise RescoreError(f"task {name!r} cannot be rebuilt ({type(cause).__name__}: {cause}); {DATA_HINT}") from exc


# ---- task settings --------------------------------------------------------------------------------

def _as_dict(metadata: Any) -> dict:
    return dict(metadata) if isinstance(metadata, dict) else {}


def _recorded_settings(run: LoggedRun, name: str) -> dict:
    """The task's metadata as the run recorded it, less the data source it read (not a setting)."""
    recorded = _as_dict(run.task_config(name).get("metadata"))
    recorded.pop(DATA_SOURCE_KEY, None)
    return recorded


@dataclass
class TaskSettings:
    """The settings one task is re-scored under: the run's recorded ones with ``--set`` on top."""

    task: str
    recorded: dict
    overrides: dict  # the --set values naming one of the task's settings
    current: dict  # the task YAML's now (lmms-eval; empty where not comparable)

    @classmethod
    def of(cls, task: str, recorded: dict, values: dict[str, Any], current: dict | None = None) -> TaskSettings:
        """Refuses a setting only one of the run and the YAML has (unless ``--set`` gives it)."""
        current = current or {}
        settings = cls(task, recorded, {k: v for k, v in values.items() if k in recorded or k in current}, current)
        if current:
            only_run = sorted(set(recorded) - set(current))
            if only_run:
                raise RescoreError(f"task {task!r}: the run's setting(s) {only_run} are not in its YAML now, so it "
                                   "cannot be re-scored as run")
            only_yaml = sorted(set(current) - set(recorded) - set(settings.overrides))
            if only_yaml:
                raise RescoreError(f"task {task!r}: its YAML now has setting(s) {only_yaml}, which the run did not "
                                   f"record; give the run's value with --set {only_yaml[0]}=VALUE")
        return settings

    @property
    def effective(self) -> dict:
        return {**self.recorded, **self.overrides}

    @property
    def changed(self) -> dict[str, tuple[Any, Any]]:
        """setting -> (the run's, re-scored with) for each ``--set`` value other than the run's."""
        return {k: (self.recorded.get(k, _ABSENT), v) for k, v in self.overrides.items() if self.recorded.get(k, _ABSENT) != v}

    @property
    def yaml_differs(self) -> dict[str, tuple[Any, Any]]:
        """setting -> (the run's, the YAML's now) where the task YAML changed since the run."""
        return {k: (v, self.current[k]) for k, v in self.recorded.items() if k in self.current and self.current[k] != v}


# ---- the two harnesses ----------------------------------------------------------------------------

class LmmsEval:
    """lmms-eval 0.7.3: samples without the doc; ``resps`` depends on the reasoning tags."""

    name = "lmms-eval"
    results_name = re.compile(r"(?P<date>.+)_results\.json")

    def samples_file(self, folder: Path, date: str, task: str) -> Path:
        return folder / f"{date}_samples_{task}.jsonl"

    def task_manager(self, run: LoggedRun, names: Sequence[str]):
        """The harness's TaskManager over our task folders and the run's ``--include_path``, resolving
        per-model settings for the model the run names, as the run's did."""
        from lmms_eval.tasks import TaskManager

        if run.task_manager is None:
            include = [str(LMMS_EVAL_TASK_DIR)] + [p for p in [(run.cli_args or {}).get("include_path")] if p]
            # Indexing lmms-eval's ~2,000 built-in tasks takes seconds: only when a task is not in the
            # task folders (built-ins would win a name clash, but ours are prefixed so that none clash).
            manager = TaskManager("WARNING", include_path=include, include_defaults=False, model_name=run.model)
            if not set(names) <= set(manager.all_tasks):
                manager = TaskManager("WARNING", include_path=include, model_name=run.model)
            run.task_manager = manager
        return run.task_manager

    def task_settings(self, run: LoggedRun, names: Sequence[str], values: dict[str, Any]) -> dict[str, TaskSettings]:
        """Each task's recorded settings, its YAML's settings now, and the ``values`` that name one of them."""
        from lmms_eval.utils import load_yaml_config

        manager = self.task_manager(run, names)
        settings = {}
        for name in names:
            entry = manager.task_index.get(name) or {}
            current = (_as_dict(load_yaml_config(yaml_path=entry["yaml_path"], mode="simple").get("metadata"))
                       if entry.get("yaml_path") else {})
            settings[name] = TaskSettings.of(name, _recorded_settings(run, name), values, current)
        return settings

    @contextlib.contextmanager
    def applied(self, settings: dict[str, TaskSettings]) -> Iterator[None]:
        """The tasks' hooks read ``settings`` (the run's, ``--set`` on top) while the block runs."""
        from temporal_bench.utils.task_options import overridden

        with contextlib.ExitStack() as stack:
            for name, task_settings in settings.items():
                stack.enter_context(overridden(name, task_settings.effective))
            yield

    def build_tasks(self, run: LoggedRun, names: Sequence[str], settings: dict[str, TaskSettings]) -> dict[str, Any]:
        from lmms_eval.tasks import get_task_dict

        manager = self.task_manager(run, names)
        tasks = {name: _build_task(name, manager.all_tasks, lambda name=name: get_task_dict([name], manager)[name])
                 for name in names}
        for name, task in tasks.items():
            self._check_settings_in_effect(name, settings[name])
            self._check_per_model_settings(run, name, task)
        return tasks

    @staticmethod
    def _check_settings_in_effect(name: str, settings: TaskSettings) -> None:
        """Settings other than the YAML's reach only hooks that read them through ``task_options``."""
        from temporal_bench.utils.task_options import TaskOptionsError, settings_of

        other = {k: v for k, v in settings.effective.items()
                 if k not in HARNESS_METADATA and settings.current.get(k, _ABSENT) != v}
        if not other:
            return
        try:
            in_effect = settings_of(name)
        except TaskOptionsError:
            in_effect = {}
        if any(in_effect.get(k, _ABSENT) != v for k, v in other.items()):
            raise RescoreError(f"task {name!r} does not read its settings through temporal_bench.utils.task_options, "
                               f"so it cannot be re-scored with {other} instead of its YAML's settings")

    def _check_per_model_settings(self, run: LoggedRun, name: str, task) -> None:
        recorded = run.task_config(name).get("lmms_eval_specific_kwargs")
        now = self.as_logged(task.config.lmms_eval_specific_kwargs)
        if now != recorded:
            raise RescoreError(f"task {name!r}: its per-model settings (lmms_eval_specific_kwargs) for model "
                               f"{run.model!r} are now {now}, the run's were {recorded}; it cannot be re-scored as run")

    def docs(self, task, run: LoggedRun):
        """The docs the evaluator gave ``process_results``: without media when run from the CLI."""
        if run.cli_args is not None and not run.cli_args.get("process_with_media", False):
            return task.eval_docs_no_media
        return task.eval_docs

    def scored_responses(self, task, run: LoggedRun, name: str, lines: list[dict], docs) -> list[tuple[str, Any]]:
        from lmms_eval.api.reasoning import parse_reasoning_tags_config, strip_reasoning_tags
        from lmms_eval.filters.transformation import StripThinkingFilter

        task_tags = run.task_config(name).get("reasoning_tags", getattr(task.config, "reasoning_tags", None))
        tags = parse_reasoning_tags_config(cli_value=(run.cli_args or {}).get("reasoning_tags"), task_value=task_tags)
        keys = self._filter_keys(task, lines)
        if tags is not None:
            def strip(value):
                if isinstance(value, list):
                    return [strip_reasoning_tags(v, tags) if isinstance(v, str) else v for v in value]
                return strip_reasoning_tags(value, tags) if isinstance(value, str) else value

            return [(key, strip(line.get("resps", line["filtered_resps"]))) for key, line in zip(keys, lines)]
        if getattr(task.config, "auto_strip_thinking", False):  # as the evaluator does without reasoning tags
            for ensemble in task._filters:
                ensemble.filters.insert(0, StripThinkingFilter())
        requests = [LoggedRequest(self._raw_responses(line), docs[line["doc_id"]]) for line in lines]
        _apply_filters(task, requests)
        return [(key, request.filtered_resps[key]) for key, request in zip(keys, requests)]

    @staticmethod
    def _raw_responses(line: dict) -> list:
        """The request's outputs; lmms-eval leaves ``resps`` out when it equals ``[filtered_resps]``."""
        if "resps" in line:
            return line["resps"]
        filtered = line["filtered_resps"]
        return filtered if isinstance(filtered, list) else [filtered]

    @staticmethod
    def _filter_keys(task, lines: list[dict]) -> list[str]:
        return logged_filter_names([ensemble.name for ensemble in task._filters], lines)

    def aggregate(self, name: str, task, sample_metrics: dict) -> dict[str, Any]:
        from lmms_eval.evaluator_utils import TaskOutput

        output = TaskOutput.from_taskdict(name, task)
        output.sample_metrics.update(sample_metrics)
        output.calculate_aggregate_metric(bootstrap_iters=0)
        return dict(output.agg_metrics)

    def as_logged(self, value: Any) -> Any:
        from lmms_eval.utils import handle_non_serializable

        return json.loads(json.dumps(value, default=handle_non_serializable, ensure_ascii=False))


class LmEval:
    """lm-eval 0.4.13: samples with the doc, the raw outputs and the filter name."""

    name = "lm-eval"
    results_name = re.compile(r"results_(?P<date>.+)\.json")

    def samples_file(self, folder: Path, date: str, task: str) -> Path:
        return folder / f"samples_{task}_{date}.jsonl"

    def task_settings(self, run: LoggedRun, names: Sequence[str], values: dict[str, Any]) -> dict[str, TaskSettings]:
        """Each task's recorded metadata (the YAML's, ``--metadata`` and the model arguments, as lm-eval merged
        them, so not comparable with the YAML's alone) and the ``values`` that name one of its keys."""
        settings = {}
        for name in names:
            recorded = _recorded_settings(run, name)
            recorded.pop("config_source", None)
            settings[name] = TaskSettings.of(name, recorded, values)
        return settings

    @contextlib.contextmanager
    def applied(self, settings: dict[str, TaskSettings]) -> Iterator[None]:
        yield  # the settings go to the TaskManager as its metadata (build_tasks)

    def build_tasks(self, run: LoggedRun, names: Sequence[str], settings: dict[str, TaskSettings]) -> dict[str, Any]:
        """Each task from the folder its YAML came from, with the run's metadata and ``--set`` on top
        (lm-eval merges a TaskManager's metadata over the YAML's, as it does ``--metadata``)."""
        from lm_eval.tasks import TaskManager

        by_metadata: dict[str, list[str]] = defaultdict(list)
        folders = set()
        for name in names:
            source = _as_dict(run.task_config(name).get("metadata")).get("config_source")
            folders.add(str(Path(source).parent) if source and Path(source).is_file() else str(LM_EVAL_TASK_DIR))
            by_metadata[json.dumps(settings[name].effective, sort_keys=True)].append(name)
        tasks = {}
        for metadata, group in by_metadata.items():
            manager = TaskManager(include_path=sorted(folders), include_defaults=False, metadata=json.loads(metadata))
            for name in group:
                tasks[name] = _build_task(name, manager.all_tasks,
                                          lambda name=name, manager=manager: manager.load([name])["tasks"][name])
        return tasks

    def docs(self, task, run: LoggedRun):
        return task.eval_docs

    def scored_responses(self, task, run: LoggedRun, name: str, lines: list[dict], docs) -> list[tuple[str, Any]]:
        requests = [LoggedRequest(line["resps"][0], docs[line["doc_id"]]) for line in lines]
        _apply_filters(task, requests)
        return [(line["filter"], request.filtered_resps[line["filter"]]) for line, request in zip(lines, requests)]

    def aggregate(self, name: str, task, sample_metrics: dict) -> dict[str, Any]:
        from lm_eval.evaluator_utils import _compute_task_aggregations

        return _compute_task_aggregations(task, sample_metrics, bootstrap_iters=0)[0]

    def as_logged(self, value: Any) -> Any:
        from lm_eval.utils import handle_non_serializable

        return json.loads(json.dumps(value, default=handle_non_serializable, ensure_ascii=False))


HARNESSES = (LmmsEval(), LmEval())


# ---- the files of a run ---------------------------------------------------------------------------

@dataclass
class LoggedRun:
    """One results JSON and the samples files of its tasks."""

    harness: LmmsEval | LmEval
    results_path: Path
    data: dict
    samples: dict[str, Path]
    task_manager: Any = None  # the harness's, once built (lmms-eval)

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


def find_runs(path: str | Path) -> list[LoggedRun]:
    """Every run under ``path`` (a results file or a folder); files written by ``--write-results``
    are skipped."""
    runs = []
    for results_path in find_result_files(path):
        named = [(h, m) for h in HARNESSES if (m := h.results_name.fullmatch(results_path.name))]
        if not named:
            continue
        harness, match = named[0]
        try:
            data = json.loads(results_path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise RescoreError(f"{results_path}: not a readable results JSON file ({exc})") from exc
        if "rescore" in data or not isinstance(data.get("results"), dict):
            continue
        groups = data.get("group_subtasks") or {}
        samples = {task: harness.samples_file(results_path.parent, match.group("date"), task)
                   for task in data["results"] if not groups.get(task)}
        runs.append(LoggedRun(harness, results_path, data, samples))
    return runs


def read_samples(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


# ---- re-scoring -----------------------------------------------------------------------------------

def _is_number(value: Any) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool)


def values_differ(original: Any, rescored: Any) -> bool:
    if _is_number(original) and _is_number(rescored):
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
        if _is_number(self.original) and _is_number(self.rescored):
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
    data_source: dict | None  # the data the docs were rebuilt from (None: not recorded)
    data_note: str | None  # set when that is not the data the run read
    # the breakdown keys the report computes from the per-doc records (temporal_bench/report/breakdowns.py)
    # that the results table does not hold, from the logged records and from the re-scored ones
    breakdowns: list[MetricRow] = field(default_factory=list)


def rescore_task(run: LoggedRun, name: str, task, settings: TaskSettings) -> TaskRescore:
    from temporal_bench.report.records import doc_record  # it reads runs through this module

    harness = run.harness
    output_type = task.config.output_type
    if output_type != "generate_until":
        raise RescoreError(f"task {name!r}: re-scoring supports generate_until tasks, not {output_type}")
    lines = read_samples(run.samples[name])
    docs = harness.docs(task, run)
    for line in lines:
        doc_id = line["doc_id"]
        if doc_id >= len(docs) or str(task.doc_to_target(docs[doc_id])) != line["target"]:
            found = "no such doc" if doc_id >= len(docs) else f"target {task.doc_to_target(docs[doc_id])!r}"
            raise RescoreError(f"task {name!r}: doc {doc_id} is not the run's (logged target {line['target']!r}, "
                               f"now {found}); {DATA_HINT}")
    sample_metrics: dict[tuple[str, str], list] = defaultdict(list)
    changed_docs = 0
    records: list[tuple[dict | None, dict | None]] = []  # (logged, re-scored) per doc
    for line, (key, response) in zip(lines, harness.scored_responses(task, run, name, lines, docs)):
        metrics = task.process_results(docs[line["doc_id"]], [response])
        for metric, value in metrics.items():
            sample_metrics[metric, key].append(value)
        logged = {m: harness.as_logged(v) for m, v in metrics.items()}
        changed_docs += any(values_differ(v, line.get(m)) for m, v in logged.items())
        records.append((doc_record(line), doc_record(logged)))
    values = harness.aggregate(name, task, sample_metrics)
    rescored = {f"{metric},{key}": values.get(f"{metric},{key}") for metric, key in sample_metrics}
    original = {k: v for k, v in run.data["results"].get(name, {}).items()
                if "," in k and not STDERR_KEY.search(k.partition(",")[0])}
    rows = [MetricRow(k, original.get(k), rescored.get(k)) for k in dict.fromkeys([*rescored, *original])]
    filter_name = next(iter(sample_metrics), ("", "none"))[1]
    breakdowns = [row for row in breakdown_rows(name, records, filter_name) if row.key not in {r.key for r in rows}]
    rebuilt = {"metadata": task.config.metadata}
    return TaskRescore(name, len(lines), changed_docs, rows, values, settings, recorded_source(rebuilt),
                       data_change(name, run.task_config(name), rebuilt), breakdowns)


def breakdown_rows(task: str, records: list[tuple[dict | None, dict | None]], filter_name: str) -> list[MetricRow]:
    """The task's breakdown keys from its logged and its re-scored per-doc records (none when the task
    has no breakdowns or a doc has no record)."""
    from temporal_bench.report.breakdowns import breakdown_function  # it finds runs through this module

    compute = breakdown_function(task)
    if compute is None or not records or any(None in pair for pair in records):
        return []
    before, after = compute(task, [pair[0] for pair in records]), compute(task, [pair[1] for pair in records])
    return [MetricRow(f"{k},{filter_name}", before.get(k), after.get(k)) for k in dict.fromkeys([*after, *before])]


@dataclass
class RunRescore:
    run: LoggedRun
    tasks: list[TaskRescore]


def select_tasks(runs: Sequence[LoggedRun], wanted: Sequence[str]) -> list[tuple[LoggedRun, list[str]]]:
    """The tasks to re-score per run (all, or those named); every one must have its samples file."""
    unknown = [t for t in wanted if not any(t in run.tasks for run in runs)]
    if unknown:
        known = sorted({t for run in runs for t in run.tasks})
        raise RescoreError(f"no run has task(s) {', '.join(unknown)} (the runs have: {', '.join(known) or 'none'})")
    chosen = []
    for run in runs:
        names = [t for t in run.tasks if not wanted or t in wanted]
        missing = [t for t in names if not run.samples[t].is_file()]
        if missing:
            raise RescoreError(f"{run.results_path}: no samples file for {', '.join(missing)} "
                               f"(looked for {run.samples[missing[0]].name}); re-scoring needs the samples "
                               "that a run made with --log_samples writes beside its results")
        if names:
            chosen.append((run, names))
    return chosen


def rebuilt_tasks(run: LoggedRun, names: Sequence[str]) -> dict[str, Any]:
    """The run's tasks rebuilt through the harness under the settings the run recorded (their docs
    loaded again), e.g. for showing logged samples next to their docs."""
    settings = run.harness.task_settings(run, names, {})
    with run.harness.applied(settings):
        return run.harness.build_tasks(run, names, settings)


def rescore(runs: Sequence[LoggedRun], wanted: Sequence[str] = (), values: dict[str, Any] | None = None) -> list[RunRescore]:
    """Re-score the tasks of every run under its recorded settings, with ``values`` (``--set``) on top."""
    values = values or {}
    chosen = [(run, names, run.harness.task_settings(run, names, values))
              for run, names in ((run, with_joined_tasks(names, run.tasks)) for run, names in select_tasks(runs, wanted))]
    unused = sorted(set(values) - {k for _, _, settings in chosen for s in settings.values() for k in s.overrides})
    if unused:
        known = sorted({k for _, _, settings in chosen for s in settings.values() for k in {*s.recorded, *s.current}})
        raise RescoreError(f"--set {', '.join(unused)}: no re-scored task has such a setting "
                           f"(theirs: {', '.join(known) or 'none'})")
    done = []
    for run, names, settings in chosen:
        with run.harness.applied(settings):
            tasks = run.harness.build_tasks(run, names, settings)
            done.append(RunRescore(run, [rescore_task(run, name, tasks[name], settings[name]) for name in names]))
    return done


# ---- settings on the command line -----------------------------------------------------------------

def parse_settings(items: Sequence[str]) -> dict[str, Any]:
    """``key=value`` pairs; each value read as YAML (``2`` a number, ``[a, b]`` a list), as in a task YAML."""
    settings = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise RescoreError(f"--set {item!r}: expected a task setting as key=value, e.g. fixes=extraction")
        try:
            settings[name] = yaml.safe_load(value)
        except yaml.YAMLError as exc:
            raise RescoreError(f"--set {item!r}: the value is not valid YAML ({exc})") from exc
    return settings


@contextlib.contextmanager
def quiet_harness_logs() -> Iterator[None]:
    """Keep the harnesses' and our INFO/DEBUG logs (task indexing, row counts) off the terminal."""
    from loguru import logger

    lm_eval_logger = logging.getLogger("lm_eval")
    level = lm_eval_logger.level
    for name in ("lmms_eval", "temporal_bench"):
        logger.disable(name)
    lm_eval_logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        for name in ("lmms_eval", "temporal_bench"):
            logger.enable(name)
        lm_eval_logger.setLevel(level)


# ---- output ---------------------------------------------------------------------------------------

def format_value(value: Any) -> str:
    if value is None:
        return "N/A"
    if isinstance(value, str):
        return value
    if _is_number(value):
        return str(value) if isinstance(value, int) else repr(float(value))
    return json.dumps(value, default=str)


def format_difference(row: MetricRow) -> str:
    if not row.changed:
        return "0"
    difference = row.difference
    return "changed" if difference is None else f"{difference:+.6g}"


def _setting(value: Any) -> str:
    return "(not set)" if value is _ABSENT else json.dumps(value, default=str)


def _tasks(done: Sequence[RunRescore]) -> list[TaskRescore]:
    return [task for item in done for task in item.tasks]


def yaml_warnings(done: Sequence[RunRescore]) -> list[str]:
    """One line per setting the task YAML now gives otherwise than the run recorded (re-scored as recorded)."""
    return [f"{task.task}: warning: its YAML now sets `{k}` = {_setting(now)}; re-scored with the run's {_setting(old)}"
            for task in _tasks(done) for k, (old, now) in task.settings.yaml_differs.items()]


def data_warnings(done: Sequence[RunRescore]) -> list[str]:
    """One line per task re-scored on data other than the run's (another fingerprint)."""
    return [f"{task.data_note}; re-scored on the data found now" for task in _tasks(done) if task.data_note]


def settings_notes(done: Sequence[RunRescore]) -> list[str]:
    """One line per setting re-scored otherwise than the run (``--set``), then the YAML warnings."""
    return [f"{task.task}: `{k}` = {_setting(new)} (--set; the run had {_setting(old)})"
            for task in _tasks(done) for k, (old, new) in task.settings.changed.items()] + yaml_warnings(done)


def render_markdown(done: Sequence[RunRescore]) -> str:
    notes = settings_notes(done)
    out = ["Settings: each task's as the run recorded them" + (", except:" if notes else "."), ""]
    if notes:
        out += [f"- {note}" for note in notes] + [""]
    warnings = data_warnings(done)
    out += [f"Data: {warning}" for warning in warnings] + ([""] if warnings else [])
    for item in done:
        out += [f"# Re-scored {item.run.results_path} ({item.run.harness.name})", ""]
        for task in item.tasks:
            out += [f"## {task.task}", "",
                    f"{task.samples} logged samples; per-doc values changed: {task.changed_docs}.", ""]
            out += _metric_table(task.rows)
            changed_breakdowns = [r for r in task.breakdowns if r.changed]
            if changed_breakdowns:
                out += [f"Breakdowns that changed ({len(changed_breakdowns)} of {len(task.breakdowns)}; computed from the "
                        "per-doc records as `temporal-bench report` computes them):", ""] + _metric_table(changed_breakdowns)
            elif task.breakdowns:
                out += [f"All {len(task.breakdowns)} breakdowns equal the original run's.", ""]
    rows = [r for task in _tasks(done) for r in task.rows]
    changed = sum(r.changed for r in rows)
    out.append(f"{changed} of {len(rows)} metrics differ from the original run." if changed
               else f"All {len(rows)} metrics equal the original run's.")
    breakdowns = [r for task in _tasks(done) for r in task.breakdowns]
    if any(r.changed for r in breakdowns):
        out.append(f"{sum(r.changed for r in breakdowns)} of {len(breakdowns)} breakdowns differ from the original run's.")
    return "\n".join(out) + "\n"


def _metric_table(rows: Sequence[MetricRow]) -> list[str]:
    return (["| metric | filter | original | re-scored | difference |", "|---|---|--:|--:|--:|"]
            + [f"| {r.metric} | {r.filter} | {format_value(r.original)} | {format_value(r.rescored)} | {format_difference(r)} |"
               for r in rows] + [""])


def render_csv(done: Sequence[RunRescore]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["results_file", "task", "settings", "metric", "filter", "original", "rescored", "difference",
                     "changed"])
    for item in done:
        for task in item.tasks:
            settings = " ".join(f"{k}={_setting(new)}" for k, (_, new) in task.settings.changed.items())
            for r in [*task.rows, *task.breakdowns]:
                writer.writerow([item.run.results_path, task.task, settings, r.metric, r.filter, format_value(r.original),
                                 format_value(r.rescored), format_difference(r), int(r.changed)])
    return buffer.getvalue()


def write_results(item: RunRescore, path: Path) -> None:
    """The run's results JSON with the re-scored tasks replaced (standard errors are not recomputed:
    N/A), their configs' ``metadata`` holding the settings and the data source they were re-scored
    with, and a ``rescore`` entry naming the source and the settings changed by ``--set``."""
    data = copy.deepcopy(item.run.data)
    for task in item.tasks:
        alias = data["results"].get(task.task, {}).get("alias", task.task)
        data["results"][task.task] = {"alias": alias, **task.values}
        config = data.setdefault("configs", {}).setdefault(task.task, {})
        config["metadata"] = {**_as_dict(config.get("metadata")), **task.settings.effective}
        if task.data_source is not None:
            config["metadata"][DATA_SOURCE_KEY] = task.data_source
    data["rescore"] = {"source": str(item.run.results_path),
                       "settings": {t.task: {k: new for k, (_, new) in t.settings.changed.items()}
                                    for t in item.tasks if t.settings.changed}}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, default=str, ensure_ascii=False), encoding="utf-8")


# ---- command line ---------------------------------------------------------------------------------

def build_parser() -> CommandParser:
    parser = command_parser("rescore", ["temporal-bench rescore out/ --tasks tempvs_mt1_two --set fixes=extraction"],
                            "Every metric is recomputed from the logged responses, on the docs rebuilt from the data the run recorded, "
                            "and shown next to the value in the run's results JSON (docs/report.md).")
    parser.add_argument("path", type=Path, metavar="RUN_DIR", help="the run's --output_path folder (searched recursively) or one results JSON")
    parser.add_argument("--tasks", action="append", default=[],
                        help="comma-separated tasks to re-score (repeatable; default: every task of the run)")
    parser.add_argument("--set", action="append", default=[], dest="settings", metavar="KEY=VALUE",
                        help="a task setting (a key of the task YAMLs' metadata) to re-score with instead of the "
                             "run's, for every re-scored task that has it (repeatable), e.g. fixes=extraction "
                             "(default: the settings the run recorded)")
    parser.add_argument("--data", action="append", default=[], metavar="NAME=FOLDER",
                        help="where to load a benchmark's data from (repeatable), e.g. TEMPVS_DATA_DIR=/data/tempvs "
                             "(default: the environment's variable, else the folder the run recorded)")
    parser.add_argument("--format", choices=["markdown", "csv"], default="markdown",
                        help="output format (default: %(default)s)")
    parser.add_argument("-o", "--output", type=Path, metavar="FILE",
                        help="write the table here instead of standard output (default: standard output)")
    parser.add_argument("--write-results", type=Path, metavar="FILE",
                        help="also write a results JSON with the re-scored values (one run only; default: none)")
    return parser


def main_rescore(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    wanted = [t for item in args.tasks for t in item.split(",") if t]
    try:
        values = parse_settings(args.settings)
        runs = find_runs(args.path)
        if not runs:
            raise RescoreError(f"no lmms-eval or lm-eval results file under {args.path}")
        if args.write_results and len(runs) > 1:
            raise RescoreError(f"--write-results takes one run; {args.path} holds {len(runs)}: "
                               + ", ".join(str(r.results_path) for r in runs))
        locations = data_locations_of(runs, parse_locations(args.data), "--data", wanted)
        for note in locations.notes:
            print(f"temporal-bench rescore: data: {note}", file=sys.stderr)
        if locations.missing:
            raise RescoreError("; ".join(locations.missing))
        with data_locations(locations.assignments), quiet_harness_logs():
            done = rescore(runs, wanted, values)
    except (RescoreError, FileNotFoundError, ValueError) as exc:
        parser.error(str(exc))
    for warning in data_warnings(done) + yaml_warnings(done):
        print(f"temporal-bench rescore: {warning}", file=sys.stderr)
    text = render_markdown(done) if args.format == "markdown" else render_csv(done)
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    if args.write_results:
        write_results(done[0], args.write_results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main_rescore())
