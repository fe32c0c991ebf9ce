"""Each harness's way of rebuilding a logged run's tasks and scoring their logged responses again."""

from __future__ import annotations

import contextlib
import functools
import inspect
import json
import logging
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from temporal_bench.lmms_eval_tasks.plugin.data_routes import DataErrorExit
from temporal_bench.paths import LM_EVAL_TASK_DIR, REGISTERED_TASK_DIRS
from temporal_bench.rescore.errors import RescoreError, TaskBuildError
from temporal_bench.rescore.settings import ABSENT, TaskSettings
from temporal_bench.runs.files import LM_EVAL_FILES, LMMS_EVAL_FILES, logged_filter_names
from temporal_bench.runs.logged import LoggedRun, as_dict

# lmms-eval's own metadata key: the harness reads it, not the hooks
HARNESS_METADATA = frozenset({"version"})


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
        raise RescoreError(f"task {name!r} cannot be rebuilt: the harness does not know it (it is not in the harness's tasks nor in the run's task folders)")
    try:
        return build()
    except (Exception, DataErrorExit) as exc:
        cause = _root_cause(exc)
        raise TaskBuildError(name, f"{type(cause).__name__}: {cause}") from exc


@functools.lru_cache(maxsize=None)
def _lmms_eval_task_manager(include: tuple[str, ...], model: str | None, include_defaults: bool):
    """One TaskManager per task folders and model: indexing them is the slow part of rebuilding a task."""
    from lmms_eval.tasks import TaskManager

    return TaskManager("WARNING", include_path=list(include), include_defaults=include_defaults, model_name=model)


class LmmsEval:
    """lmms-eval 0.7.3: samples without the doc; ``resps`` depends on the reasoning tags."""

    name = LMMS_EVAL_FILES.name

    def task_manager(self, run: LoggedRun, names: Sequence[str]):
        """The harness's TaskManager over our task folders and the run's ``--include_path``, resolving
        per-model settings for the model the run names, as the run's did."""
        include = (*map(str, REGISTERED_TASK_DIRS), *[p for p in [(run.cli_args or {}).get("include_path")] if p])
        # Indexing lmms-eval's ~2,000 built-in tasks takes seconds: only when a task is not in the
        # task folders (built-ins would win a name clash, but ours are prefixed so that none clash).
        manager = _lmms_eval_task_manager(include, run.model, include_defaults=False)
        return manager if set(names) <= set(manager.all_tasks) else _lmms_eval_task_manager(include, run.model, include_defaults=True)

    def task_settings(self, run: LoggedRun, names: Sequence[str], values: dict[str, Any]) -> dict[str, TaskSettings]:
        """Each task's recorded settings, its YAML's settings now, and the ``values`` that name one of them."""
        from lmms_eval.utils import load_yaml_config

        manager = self.task_manager(run, names)
        settings = {}
        for name in names:
            entry = manager.task_index.get(name) or {}
            current = as_dict(load_yaml_config(yaml_path=entry["yaml_path"], mode="simple").get("metadata")) if entry.get("yaml_path") else {}
            settings[name] = TaskSettings.of(name, run.recorded_settings(name), values, current)
        return settings

    def build_tasks(self, run: LoggedRun, names: Sequence[str], settings: dict[str, TaskSettings]) -> dict[str, Any]:
        """Each task as the harness builds it, its ``process_docs`` given the run's settings (``--set`` on top): a task's
        settings are the keyword arguments of its ``process_docs`` (a ``functools.partial``), which its YAML's
        ``metadata`` states."""
        from lmms_eval.tasks import get_task_dict
        from lmms_eval.utils import load_yaml_config

        manager = self.task_manager(run, names)
        tasks = {}
        for name in names:
            if name not in manager.all_tasks:
                raise RescoreError(f"task {name!r} cannot be rebuilt: the harness does not know it (it is not in the harness's tasks nor in the run's task folders)")
            config = load_yaml_config(yaml_path=manager.task_index[name]["yaml_path"], mode="full")
            overrides = {"task": name, "metadata": {**as_dict(config.get("metadata")), **settings[name].effective}}
            wanted = {k: v for k, v in settings[name].effective.items() if k not in HARNESS_METADATA}
            process_docs = config.get("process_docs")
            if wanted and isinstance(process_docs, functools.partial):
                unknown = sorted(set(wanted) - set(inspect.signature(process_docs.func).parameters))
                if unknown:
                    raise RescoreError(f"task {name!r}: its process_docs takes no setting {', '.join(unknown)}, so it cannot be re-scored with {wanted}")
                overrides["process_docs"] = functools.partial(process_docs.func, *process_docs.args, **{**process_docs.keywords, **wanted})
            elif any(settings[name].current.get(k, ABSENT) != v for k, v in wanted.items()):
                raise RescoreError(f"task {name!r} takes its settings from no process_docs of ours, so it cannot be re-scored with {wanted} instead of its YAML's settings")
            tasks[name] = _build_task(name, manager.all_tasks, lambda overrides=overrides: next(iter(get_task_dict([overrides], manager).values())))
            self._check_per_model_settings(run, name, tasks[name])
        return tasks

    def _check_per_model_settings(self, run: LoggedRun, name: str, task) -> None:
        recorded = run.task_config(name).get("lmms_eval_specific_kwargs")
        now = self.as_logged(task.config.lmms_eval_specific_kwargs)
        if now != recorded:
            raise RescoreError(f"task {name!r}: its per-model settings (lmms_eval_specific_kwargs) for model {run.model!r} are now {now}, the run's were {recorded}; it cannot be re-scored as run")

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
        keys = logged_filter_names([ensemble.name for ensemble in task._filters], lines)
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

    def aggregate(self, name: str, task, sample_metrics: dict) -> dict[str, Any]:
        from lmms_eval.evaluator_utils import TaskOutput

        task.args = getattr(task, "args", None)  # the command line the evaluator hands aggregations: none here
        output = TaskOutput.from_taskdict(name, task)
        output.sample_metrics.update(sample_metrics)
        output.calculate_aggregate_metric(bootstrap_iters=0)
        return dict(output.agg_metrics)

    def as_logged(self, value: Any) -> Any:
        from lmms_eval.utils import handle_non_serializable

        return json.loads(json.dumps(value, default=handle_non_serializable, ensure_ascii=False))


class LmEval:
    """lm-eval 0.4.13: samples with the doc, the raw outputs and the filter name."""

    name = LM_EVAL_FILES.name

    def task_settings(self, run: LoggedRun, names: Sequence[str], values: dict[str, Any]) -> dict[str, TaskSettings]:
        """Each task's recorded metadata (the YAML's, ``--metadata`` and the model arguments, as lm-eval merged
        them, so not comparable with the YAML's alone) and the ``values`` that name one of its keys."""
        settings = {}
        for name in names:
            recorded = run.recorded_settings(name)
            recorded.pop("config_source", None)
            settings[name] = TaskSettings.of(name, recorded, values)
        return settings

    def build_tasks(self, run: LoggedRun, names: Sequence[str], settings: dict[str, TaskSettings]) -> dict[str, Any]:
        """Each task from the folder its YAML came from, with the run's metadata and ``--set`` on top
        (lm-eval merges a TaskManager's metadata over the YAML's, as it does ``--metadata``)."""
        from lm_eval.tasks import TaskManager

        by_metadata: dict[str, list[str]] = defaultdict(list)
        folders = set()
        for name in names:
            source = as_dict(run.task_config(name).get("metadata")).get("config_source")
            folders.add(str(Path(source).parent) if source and Path(source).is_file() else str(LM_EVAL_TASK_DIR))
            by_metadata[json.dumps(settings[name].effective, sort_keys=True)].append(name)
        tasks = {}
        for metadata, group in by_metadata.items():
            manager = TaskManager(include_path=sorted(folders), include_defaults=False, metadata=json.loads(metadata))
            for name in group:
                tasks[name] = _build_task(name, manager.all_tasks, lambda name=name, manager=manager: manager.load([name])["tasks"][name])
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


HARNESSES = {harness.name: harness for harness in (LmmsEval(), LmEval())}


def harness_of(run: LoggedRun) -> LmmsEval | LmEval:
    """The harness that wrote ``run``, as re-scoring drives it."""
    return HARNESSES[run.harness.name]


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
