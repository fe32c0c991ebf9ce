"""The settings each task is re-scored under: the ones the run recorded, with ``--set`` on top."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from temporal_bench.rescore.errors import RescoreError

ABSENT = object()  # a setting one side does not have
# the type of the value the run recorded -> the types a --set value may have (a bool only where listed), and what to say
KINDS = {bool: ((bool,), "true or false"), int: ((int,), "a whole number"), float: ((int, float), "a number"), list: ((list, str), "a list, e.g. [a, b], or one item"), str: ((str,), "text")}


def check_kind(task: str, key: str, value: Any, reference: Any) -> None:
    """A ``--set`` value of another kind than the setting's (``close_max_distance=abc`` for a whole number)
    is refused, naming the value and what the setting takes, before any task is rebuilt with it."""
    accepted, kind = KINDS.get(type(reference), (None, ""))
    if accepted and (not isinstance(value, accepted) or (isinstance(value, bool) and bool not in accepted)):
        raise RescoreError(f"--set {key}={shown_value(value)}: `{key}` takes {kind} ({task} recorded {shown_value(reference)}), not {value!r}")


def shown_value(value: Any) -> str:
    """A setting's value as ``--set`` would give it (``[a, b]``, ``true``)."""
    return value if isinstance(value, str) else yaml.safe_dump(value, default_flow_style=True).strip().removesuffix("\n...")


@dataclass
class TaskSettings:
    """The settings one task is re-scored under: the run's recorded ones with ``--set`` on top."""

    task: str
    recorded: dict
    overrides: dict  # the --set values naming one of the task's settings
    current: dict  # the task YAML's now (lmms-eval; empty where not comparable)
    per_model_differs: tuple[Any, Any] | None = None  # (the run's, the YAML's now) per-model settings where they differ

    @classmethod
    def of(cls, task: str, recorded: dict, values: dict[str, Any], current: dict | None = None) -> TaskSettings:
        """Refuses a setting only one of the run and the YAML has (unless ``--set`` gives it)."""
        current = current or {}
        settings = cls(task, recorded, {k: v for k, v in values.items() if k in recorded or k in current}, current)
        for key, value in settings.overrides.items():
            check_kind(task, key, value, recorded.get(key, current.get(key)))
        if current:
            only_run = sorted(set(recorded) - set(current))
            if only_run:
                raise RescoreError(f"task {task!r}: the run's setting(s) {only_run} are not in its YAML now, so it cannot be re-scored as run")
            only_yaml = sorted(set(current) - set(recorded) - set(settings.overrides))
            if only_yaml:
                raise RescoreError(f"task {task!r}: its YAML now has setting(s) {only_yaml}, which the run did not record; give the run's value with --set {only_yaml[0]}=VALUE")
        return settings

    @property
    def effective(self) -> dict:
        return {**self.recorded, **self.overrides}

    @property
    def changed(self) -> dict[str, tuple[Any, Any]]:
        """setting -> (the run's, re-scored with) for each ``--set`` value other than the run's."""
        return {k: (self.recorded.get(k, ABSENT), v) for k, v in self.overrides.items() if self.recorded.get(k, ABSENT) != v}

    @property
    def yaml_differs(self) -> dict[str, tuple[Any, Any]]:
        """setting -> (the run's, the YAML's now) where the task YAML changed since the run."""
        return {k: (v, self.current[k]) for k, v in self.recorded.items() if k in self.current and self.current[k] != v}


def parse_settings(items: Sequence[str]) -> dict[str, Any]:
    """``key=value`` pairs; each value read as YAML (``2`` a number, ``[a, b]`` a list), as in a task YAML."""
    settings = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not (name.isascii() and name.isidentifier()):
            raise RescoreError(f"--set {item!r}: expected a task setting as key=value, e.g. fixes=extraction")
        try:
            settings[name] = yaml.safe_load(value)
        except yaml.YAMLError as exc:
            raise RescoreError(f"--set {item!r}: the value is not valid YAML ({exc})") from exc
    return settings
