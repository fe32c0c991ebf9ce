"""``--tasks NAME`` where the working folder has a folder ``NAME``: lmms-eval reads it as a folder of task
YAMLs before any task name (docs/harness.md "Install").

The repository root holds ``tempvs/``, ``catbench/`` and ``isobench/``; each carries a one-line YAML,
``task: <name>``, so the command means there what it means anywhere else. lmms-eval 0.7.x builds a
task given as such a config with ``TaskManager.load_config``, which ignores the model's task type
(``get_task_dict``: only names are loaded with it): a chat model (``openai``) then gets requests
built for a simple model and fails (``'function' object has no attribute 'get'``). ``install`` wraps
the evaluator's ``get_task_dict`` so a config that only names a task is loaded by that name.

A user's own folder of that name (data kept in ``./tempvs``) holds no such YAML: lmms-eval then finds
no task; :func:`shadowing_folders` names such folders, and the plugin warns about them.
"""

from pathlib import Path
from typing import Iterable, List

from loguru import logger

_warned: set = set()


def named_task(entry):
    """The task name of a config that names one and sets nothing else (``{"task": "catbench"}``), else the entry."""
    if isinstance(entry, dict) and set(entry) == {"task"} and isinstance(entry["task"], str):
        return entry["task"]
    return entry


def shadowing_folders(names: Iterable[str], cwd: Path) -> List[str]:
    """Our task and group names for which ``cwd`` has a folder holding no YAML that names them."""
    found = []
    for name in names:
        folder = cwd / name
        if folder.is_dir() and not any(f"task: {name}" in path.read_text(encoding="utf-8", errors="replace").splitlines()
                                       for path in folder.glob("*.yaml")):
            found.append(name)
    return found


def warn_about_shadowing_folders(names: Iterable[str]) -> None:
    """Warn (once per folder) about each folder of the working folder named like one of our tasks."""
    for name in shadowing_folders(names, Path.cwd()):
        if name not in _warned:
            _warned.add(name)
            logger.warning(f"the working folder has a folder {name}/: lmms-eval reads `--tasks {name}` as that folder of "
                           f"task YAMLs, not as the task (it finds no task there). Run from another folder or rename "
                           f"the folder (docs/harness.md).")


def install() -> None:
    """Wrap ``lmms_eval.evaluator.get_task_dict`` (once)."""
    from lmms_eval import evaluator

    original = evaluator.get_task_dict
    if getattr(original, "loads_named_tasks_by_name", False):
        return

    def get_task_dict(task_name_list, *args, **kwargs):
        if isinstance(task_name_list, list):
            task_name_list = [named_task(entry) for entry in task_name_list]
        return original(task_name_list, *args, **kwargs)

    get_task_dict.loads_named_tasks_by_name = True
    evaluator.get_task_dict = get_task_dict
