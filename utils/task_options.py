"""Task settings that change a score, read from the task YAMLs' ``metadata``.

Every setting that changes a score (a parser fix, a data subset, a split, ...) is a key of the task
YAML's ``metadata`` block, so lmms-eval records it in the results JSON (``configs.<task>.metadata``);
a variant is a YAML that includes another and changes its ``metadata``. lmms-eval hands
``process_docs`` no task config (docs/protocol/harness.md §3), so, as lmms-eval's own task folders
do, the folder's ``utils.py`` reads its YAMLs: :func:`process_docs_per_task` builds one
``process_docs_<task>`` per task YAML, each given that task's settings.

Settings that follow the model (not the task) are ``lmms_eval_specific_kwargs`` sections instead.
``temporal-bench rescore --set`` re-scores under other settings through :func:`overridden`.
"""

import contextlib
from pathlib import Path
from typing import Callable, Dict, Iterator

# lmms-eval copies the metadata into every request's metadata, next to these keys (lmms_eval/api/task.py
# ``build_all_requests``): a setting with one of these names would overwrite them.
RESERVED = frozenset({"task", "doc_id", "repeats", "split"})

_DECLARED: Dict[str, Dict] = {}
_OVERRIDES: Dict[str, Dict] = {}


class TaskOptionsError(ValueError):
    """A task YAML whose settings cannot be used."""


@contextlib.contextmanager
def _function_tags_kept() -> Iterator[None]:
    """lmms-eval's ``load_yaml_config`` registers its ``!function`` constructor globally, per call. A
    folder's ``utils.py`` runs while lmms-eval loads one of its YAMLs in full mode, so a simple-mode
    load from it would leave that YAML's later ``!function`` tags unresolved: restore the constructor."""
    import yaml

    loaders = (yaml.Loader, yaml.FullLoader, yaml.UnsafeLoader)
    saved = [loader.yaml_constructors.get("!function") for loader in loaders]
    try:
        yield
    finally:
        for loader, constructor in zip(loaders, saved):
            if constructor is None:
                loader.yaml_constructors.pop("!function", None)
            else:
                loader.yaml_constructors["!function"] = constructor


def task_settings(folder: Path) -> Dict[str, Dict]:
    """``{task name: metadata}`` of every task YAML in ``folder``, includes resolved as the harness
    resolves them (an including file's top-level keys replace the included file's)."""
    from lmms_eval.utils import load_yaml_config

    settings = {}
    for path in sorted(Path(folder).glob("*.yaml")):
        with _function_tags_kept():
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
