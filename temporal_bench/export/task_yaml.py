"""Read a task folder's YAML files as lmms-eval resolves them, without importing any ``utils.py``."""

from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List

import yaml


@dataclass(frozen=True)
class Hook:
    """The value of a ``!function`` tag (what lmms-eval would import)."""

    target: str


class _Loader(yaml.SafeLoader):
    pass


_Loader.add_constructor("!function", lambda loader, node: Hook(loader.construct_scalar(node)))


def _read(path: Path) -> Dict:
    """One file with its ``include`` chain merged in (the including file's keys win, then the first file it includes, as
    in lmms-eval)."""
    config = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader) or {}
    include = config.pop("include", None)
    merged: Dict = {}
    for name in reversed([include] if isinstance(include, str) else include or []):
        merged.update(_read(path.parent / name))
    return {**merged, **config}


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
        """The comment lines that open the file, joined (a task's description)."""
        lines = []
        for line in self.path.read_text(encoding="utf-8").splitlines():
            if not line.startswith("#"):
                break
            lines.append(line.lstrip("#").strip())
        return " ".join(lines)


def read_folder(folder: Path) -> List[TaskYaml]:
    """The tasks and groups of ``folder`` (its ``*.yaml`` files; templates only through ``include``)."""
    return [TaskYaml(path, _read(path)) for path in sorted(folder.glob("*.yaml"))]
