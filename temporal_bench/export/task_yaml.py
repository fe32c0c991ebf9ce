"""Read a task folder's YAML files as lmms-eval resolves them, without importing any ``utils.py``."""

from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterator, List, Set

import yaml


@dataclass(frozen=True)
class Hook:
    """The value of a ``!function`` tag (what lmms-eval would import)."""

    target: str


class _Loader(yaml.SafeLoader):
    pass


_Loader.add_constructor("!function", lambda loader, node: Hook(loader.construct_scalar(node)))


def _read(path: Path) -> Dict:
    """One file with its ``include`` chain merged in (the including file's keys win, as in lmms-eval)."""
    config = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader) or {}
    if "include" in config:
        config = {**_read(path.parent / config.pop("include")), **config}
    return config


@dataclass(frozen=True)
class TaskYaml:
    path: Path
    config: Dict

    @property
    def is_group(self) -> bool:
        return "group" in self.config

    @property
    def name(self) -> str:
        return self.config["group" if self.is_group else "task"]

    @property
    def comment(self) -> str:
        """The comment line that opens the file (a task's one-line description)."""
        first = (self.path.read_text(encoding="utf-8").splitlines() or [""])[0]
        return first.lstrip("#").strip() if first.startswith("#") else ""

    def hooks(self) -> Set[str]:
        return set(_hooks(self.config))


def _hooks(value) -> Iterator[str]:
    if isinstance(value, Hook):
        yield value.target
    elif isinstance(value, dict):
        for item in value.values():
            yield from _hooks(item)
    elif isinstance(value, list):
        for item in value:
            yield from _hooks(item)


def read_folder(folder: Path) -> List[TaskYaml]:
    """The tasks and groups of ``folder`` (its ``*.yaml`` files; templates only through ``include``)."""
    return [TaskYaml(path, _read(path)) for path in sorted(folder.glob("*.yaml"))]


def hook_names(folder: Path) -> Set[str]:
    """Every ``<name>`` that a task of ``folder`` names as ``!function utils.<name>``."""
    targets = set().union(*(task.hooks() for task in read_folder(folder)))
    foreign = sorted(t for t in targets if not t.startswith("utils."))
    if foreign:
        raise ValueError(f"{folder}: hooks outside utils.py cannot be exported: {foreign}")
    return {t.split(".", 1)[1] for t in targets}
