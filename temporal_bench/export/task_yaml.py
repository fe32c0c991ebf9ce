"""Read a task folder's YAML files as lmms-eval resolves them (its ``load_yaml_config``), without importing any
``utils.py``."""

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class TaskYaml:
    path: Path
    config: dict  # with its ``include`` chain merged in; a ``!function`` value is left unresolved

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


def read_folder(folder: Path) -> list[TaskYaml]:
    """The tasks and groups of ``folder`` (its ``*.yaml`` files; templates only through ``include``)."""
    from lmms_eval.utils import load_yaml_config

    return [TaskYaml(path, load_yaml_config(yaml_path=str(path), mode="simple")) for path in sorted(folder.glob("*.yaml"))]
