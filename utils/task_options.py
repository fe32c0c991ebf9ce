"""Task settings that change a score, read from the task YAMLs' ``metadata``.

Every setting that changes a score (a parser fix, a data subset, a split, ...) is a key of the task
YAML's ``metadata`` block, so lmms-eval records it in the results JSON (``configs.<task>.metadata``);
a variant is a YAML that includes another and changes its ``metadata``. lmms-eval hands
``process_docs`` no task config (docs/protocol/harness.md §3), so, as lmms-eval's own task folders
do, the folder's ``utils.py`` reads its YAMLs: :func:`process_docs_per_task` builds one
``process_docs_<task>`` per task YAML, each given that task's settings.

Settings that follow the model (not the task) are ``lmms_eval_specific_kwargs`` sections instead.
Re-scoring a logged run under other settings goes through :func:`overridden`.
"""

import contextlib
from pathlib import Path
from typing import Callable, Dict, Iterator

# lmms-eval copies the metadata into every request's metadata, next to these keys (lmms_eval/api/task.py
# ``build_all_requests``): a setting with one of these names would overwrite them.
RESERVED = frozenset({"task", "doc_id", "repeats", "split"})

_DECLARED: Dict[str, Dict] = {}
_READ: Dict[tuple, Dict[str, Dict]] = {}
_OVERRIDES: Dict[str, Dict] = {}


class TaskOptionsError(ValueError):
    """A task YAML whose settings cannot be used."""


@contextlib.contextmanager
def _function_tag_kept() -> Iterator[None]:
    """lmms-eval's ``load_yaml_config`` registers its ``!function`` constructor on PyYAML's loaders
    globally, and runs a task folder's utils.py while it loads that task's YAML: reading the folder's
    YAMLs from utils.py must give the loader back the constructor it was using."""
    import yaml

    loaders = (yaml.Loader, yaml.FullLoader, yaml.UnsafeLoader)
    saved = [dict(loader.yaml_constructors) for loader in loaders]
    try:
        yield
    finally:
        for loader, constructors in zip(loaders, saved):
            loader.yaml_constructors = constructors


def task_settings(folder: Path) -> Dict[str, Dict]:
    """``{task name: metadata}`` of every task YAML in ``folder``, includes resolved as the harness
    resolves them (an including file's top-level keys replace the included file's). lmms-eval
    executes utils.py anew for each ``!function`` tag it loads: the folder is read once per state
    of its files."""
    from lmms_eval.utils import load_yaml_config

    state = (str(folder), tuple((p.name, p.stat().st_mtime_ns) for p in sorted(Path(folder).glob("*yaml"))))
    if state not in _READ:
        _READ[state] = _task_settings(Path(folder), load_yaml_config)
    return {task: dict(metadata) for task, metadata in _READ[state].items()}


def _task_settings(folder: Path, load_yaml_config) -> Dict[str, Dict]:
    settings = {}
    for path in sorted(Path(folder).glob("*.yaml")):
        with _function_tag_kept():
            config = load_yaml_config(yaml_path=str(path), mode="simple")
        if "task" not in config or "group" in config:
            continue
        metadata = dict(config.get("metadata") or {})
        clash = RESERVED & set(metadata)
        if clash:
            raise TaskOptionsError(f"{path.name}: metadata key(s) {sorted(clash)} would overwrite lmms-eval's request metadata")
        settings[config["task"]] = metadata
    return settings


def settings_of(task: str) -> Dict:
    """The settings ``task`` runs with: its YAML's metadata (read by :func:`process_docs_per_task`),
    with any :func:`overridden` values on top."""
    if task not in _DECLARED:
        raise TaskOptionsError(f"no settings known for task {task!r}: its YAML was not read by process_docs_per_task")
    return {**_DECLARED[task], **_OVERRIDES.get(task, {})}


def process_docs_per_task(folder: Path, make: Callable[[str], Callable]) -> Dict[str, Callable]:
    """``{"process_docs_<task>": make(task)}`` for every task YAML in ``folder`` (a task YAML names its
    own: ``process_docs: !function utils.process_docs_<task>``); the hook ``make`` returns reads its
    settings with :func:`settings_of` when it runs."""
    declared = task_settings(folder)
    _DECLARED.update(declared)
    return {f"process_docs_{task}": make(task) for task in declared}


@contextlib.contextmanager
def overridden(task: str, values: Dict) -> Iterator[None]:
    """Within the block, ``task`` runs with ``values`` over its YAML settings (used to re-score a
    logged run under other settings; a harness run never sets any)."""
    saved = _OVERRIDES.get(task)
    _OVERRIDES[task] = {**(saved or {}), **values}
    try:
        yield
    finally:
        if saved is None:
            _OVERRIDES.pop(task, None)
        else:
            _OVERRIDES[task] = saved
