"""Each harness's way of scoring a logged run again: its own command line, run in this process, evaluates the run's
tasks under the settings chosen, with the replay model (temporal_bench/models/replay.py) answering each request as the
run's model did, into a run folder of its own; filters, ``process_results``, aggregations and the results and samples
files are the harness's."""

from __future__ import annotations

import functools
import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from temporal_bench.harness_runs import last_error, lmms_eval_main, run_logged
from temporal_bench.paths import LM_EVAL_TASK_DIR, REGISTERED_TASK_DIRS
from temporal_bench.rescore.errors import EvaluationError, RescoreError
from temporal_bench.rescore.settings import TaskSettings
from temporal_bench.rescore.variant import REPLAY_MODEL, TaskVariant, resolved_per_model, write_variants
from temporal_bench.runs.files import LM_EVAL_FILES, LMMS_EVAL_FILES
from temporal_bench.runs.logged import LoggedRun, as_dict, find_runs

LOG_NAME = "harness.log"
# lmms-eval's command-line settings that decide which requests a run sent and how it scored them, passed on as the run
# recorded them (its resolved_cli_args)
LMMS_EVAL_RUN_OPTIONS = ("limit", "offset", "reasoning_tags", "process_with_media", "num_fewshot", "system_instruction", "apply_chat_template", "fewshot_as_multiturn")


def _evaluate(main, argv: list[str], out: Path, what: str) -> list[LoggedRun]:
    """The harness's command line ``argv`` run into ``out``; the runs it wrote (an error naming the harness's own where it
    failed)."""
    before = {run.results_path for run in find_runs(out, rescored=True)} if out.exists() else set()
    log = out / LOG_NAME
    status = run_logged(main, argv, log)
    written = [run for run in find_runs(out, rescored=True) if run.results_path not in before] if out.exists() else []
    if status or not written:
        raise EvaluationError(f"{what} could not evaluate the run's tasks again: {last_error(log) or f'status {status}, no results written'} (its log: {log})")
    return written


class LmmsEval:
    """lmms-eval: the tasks as variants of their YAMLs (temporal_bench/rescore/variant.py) in the run folder."""

    name = LMMS_EVAL_FILES.name

    @staticmethod
    @functools.cache
    def _task_manager(include: tuple[str, ...]):
        from lmms_eval.tasks import TaskManager

        return TaskManager("WARNING", include_path=list(include), include_defaults=False)

    def _yaml_paths(self, run: LoggedRun, names: Sequence[str]) -> dict[str, str]:
        """Each task's YAML, among the registered task folders and the run's ``--include_path``."""
        include = (*map(str, REGISTERED_TASK_DIRS), *[p for p in [(run.cli_args or {}).get("include_path")] if p])
        index = self._task_manager(include).task_index
        unknown = [name for name in names if not (index.get(name) or {}).get("yaml_path")]
        if unknown:
            raise RescoreError(f"task {unknown[0]!r} cannot be rebuilt: the harness does not know it (it is not in this package's task folders nor in the run's --include_path)")
        return {name: index[name]["yaml_path"] for name in names}

    def task_settings(self, run: LoggedRun, names: Sequence[str], values: dict[str, Any]) -> dict[str, TaskSettings]:
        """Each task's recorded settings, its YAML's settings now, and the ``values`` that name one of them."""
        from lmms_eval.utils import load_yaml_config

        settings = {}
        for name, path in self._yaml_paths(run, names).items():
            config = load_yaml_config(yaml_path=path, mode="simple")
            settings[name] = TaskSettings.of(name, run.recorded_settings(name), values, as_dict(config.get("metadata")))
            recorded, now = (resolved_per_model(kwargs, run.model) for kwargs in (run.task_config(name).get("lmms_eval_specific_kwargs"), config.get("lmms_eval_specific_kwargs")))
            if recorded != now:
                settings[name].per_model_differs = (recorded, now)
        return settings

    def variants(self, run: LoggedRun, names: Sequence[str], settings: dict[str, TaskSettings]) -> list[TaskVariant]:
        from lmms_eval.utils import load_yaml_config

        found = []
        for name, path in self._yaml_paths(run, names).items():
            process_docs = load_yaml_config(yaml_path=path, mode="full").get("process_docs")
            takes = isinstance(process_docs, functools.partial)
            wanted = {k: v for k, v in settings[name].effective.items() if k != "version"}
            if not takes and settings[name].changed:
                raise RescoreError(f"task {name!r} takes its settings from no process_docs of ours, so it cannot be re-scored with {settings[name].overrides}")
            recorded = run.task_config(name).get("lmms_eval_specific_kwargs")
            found.append(TaskVariant(name, path, settings[name].effective, wanted if takes else None, resolved_per_model(recorded, run.model)))
        return found

    def rescore(self, run: LoggedRun, names: Sequence[str], settings: dict[str, TaskSettings], out: Path) -> list[LoggedRun]:
        tasks = write_variants(out / "tasks", self.variants(run, names, settings))
        recorded = run.cli_args or {}
        options = [word for key in LMMS_EVAL_RUN_OPTIONS if recorded.get(key) not in (None, False, "") for word in ([f"--{key}"] if recorded[key] is True else [f"--{key}", str(recorded[key])])]
        if "limit" not in recorded and (run.data.get("config") or {}).get("limit") is not None:
            options += ["--limit", str(run.data["config"]["limit"])]
        argv = [
            "lmms-eval",
            "--model",
            REPLAY_MODEL,
            "--model_args",
            f"source={run.results_path.resolve()}",
            "--tasks",
            ",".join(names),
            "--include_path",
            str(tasks),
            "--output_path",
            str(out),
            "--log_samples",
            "--verbosity",
            "WARNING",
            *options,
        ]
        return _evaluate(lmms_eval_main, argv, out, "lmms-eval")


class LmEval:
    """lm-eval: the tasks from the folder their YAMLs came from, the settings as ``--metadata`` (lm-eval merges it over a
    task's metadata)."""

    name = LM_EVAL_FILES.name

    def task_settings(self, run: LoggedRun, names: Sequence[str], values: dict[str, Any]) -> dict[str, TaskSettings]:
        """Each task's recorded metadata (the YAML's, ``--metadata`` and the model arguments, as lm-eval merged them, so not
        comparable with the YAML's alone) and the ``values`` that name one of its keys."""
        settings = {}
        for name in names:
            recorded = run.recorded_settings(name)
            recorded.pop("config_source", None)
            settings[name] = TaskSettings.of(name, recorded, values)
        return settings

    def rescore(self, run: LoggedRun, names: Sequence[str], settings: dict[str, TaskSettings], out: Path) -> list[LoggedRun]:
        from temporal_bench.lm_eval_cli import main_lm_eval

        groups: dict[tuple[str, str], list[str]] = defaultdict(list)  # (task folder, metadata) -> its tasks
        for name in names:
            source = as_dict(run.task_config(name).get("metadata")).get("config_source")
            folder = str(Path(source).parent) if source and Path(source).is_file() else str(LM_EVAL_TASK_DIR)
            groups[folder, json.dumps(settings[name].effective, sort_keys=True)].append(name)
        limit = (run.data.get("config") or {}).get("limit")
        written = []
        for (folder, metadata), group in groups.items():
            argv = [
                "run",
                "--model",
                REPLAY_MODEL,
                "--model_args",
                f"source={run.results_path.resolve()}",
                "--tasks",
                ",".join(group),
                "--include_path",
                folder,
                "--metadata",
                metadata,
                "--output_path",
                str(out),
                "--log_samples",
                *(["--limit", str(limit)] if limit is not None else []),
            ]
            written += _evaluate(lambda argv=argv: main_lm_eval(argv), ["temporal-bench", "lm-eval", *argv], out, "lm-eval")
        return written


HARNESSES = {harness.name: harness for harness in (LmmsEval(), LmEval())}


def harness_of(run: LoggedRun) -> LmmsEval | LmEval:
    """The harness that wrote ``run``, as re-scoring drives it."""
    return HARNESSES[run.harness.name]
