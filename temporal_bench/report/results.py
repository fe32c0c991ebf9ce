"""Reading the results JSON files that lmms-eval and lm-eval write.

lmms-eval writes ``<out>/<model>/<date>_results.json`` (or ``<out>/<date>_results.json`` when the
model name is empty), lm-eval ``<out>/<model>/results_<date>.json``. Both hold
``{"results": {task: {"<metric>,<filter>": value, ...}}, "model_name": ..., "config": {...}}``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RESULT_GLOBS = ("*_results.json", "results_*.json")


@dataclass
class Run:
    """The results of one model, merged over one or more results files."""

    label: str
    paths: list[Path] = field(default_factory=list)
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    # tasks whose breakdowns could not be computed: their results file has no samples beside it
    without_samples: list[str] = field(default_factory=list)

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


def read_results_file(path: str | Path) -> tuple[str, dict[str, dict[str, Any]]]:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: not a readable results JSON file ({exc})") from exc
    if not isinstance(data, dict) or not isinstance(data.get("results"), dict):
        raise ValueError(
            f"{path}: no 'results' object; is this an lmms-eval/lm-eval results file?"
        )
    return run_label(data, path), data["results"]


def load_runs(paths: Iterable[str | Path], label: str | None = None) -> list[Run]:
    """Read results files (or folders of them) into one :class:`Run` per model label.

    Files of the same model are merged task by task; when two files report the same task, the
    newer file (by the date in its name) wins. ``label`` overrides the name of every run (and so
    merges them all into one). Each task's breakdown keys are computed from the samples beside its
    file (temporal_bench/report/breakdowns.py).
    """
    from temporal_bench.report.breakdowns import with_breakdowns  # it reads samples through rescore, which imports this module

    files: list[Path] = []
    for p in paths:
        files.extend(f for f in find_result_files(p) if f not in files)
    runs: dict[str, Run] = {}
    for path in sorted(files, key=_file_order):
        name, results = read_results_file(path)
        name = label or name
        run = runs.setdefault(name, Run(name))
        run.paths.append(path)
        run.without_samples.extend(with_breakdowns(path, results))
        for task, entry in results.items():
            if isinstance(entry, dict):
                run.results[task] = entry
    return list(runs.values())
