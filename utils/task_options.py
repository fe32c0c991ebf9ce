"""Task settings that change a score, read from the task's ``metadata``.

Every setting that changes a score (a parser fix, a data subset, a split, ...) is a key of the task
YAML's ``metadata`` block, so lmms-eval records it in the results JSON (``configs.<task>.metadata``);
a variant is a YAML that includes another and changes its ``metadata``, in our folder or in the
user's (``--include_path``). lmms-eval hands ``process_docs`` no task config
(docs/protocol/harness.md §3): each ``process_docs_<task>`` (:func:`process_docs_per_task`, one per
task YAML of our folder, as lmms-eval's own task folders do) reads the settings of the task being
built from its config (:func:`applied_settings`), so the settings applied are the ones the results
record, whichever YAML set them; ``process_results`` then reads the same with :func:`settings_of`.

Settings that follow the model (not the task) are ``lmms_eval_specific_kwargs`` sections instead.
Re-scoring a logged run under other settings goes through :func:`overridden`.
"""

import contextlib
from pathlib import Path
from typing import Callable, Dict, Iterator, Tuple

from temporal_bench.utils.data_fingerprint import DATA_SOURCE_KEY
from temporal_bench.utils.harness_task import calling_task

# lmms-eval copies the metadata into every request's metadata, next to these keys (lmms_eval/api/task.py
# ``build_all_requests``): a setting with one of these names would overwrite them.
RESERVED = frozenset({"task", "doc_id", "repeats", "split"})

_DECLARED: Dict[str, Dict] = {}  # task -> its YAML's metadata, for the tasks of our folders
_APPLIED: Dict[str, Dict] = {}  # task -> the metadata of the config its process_docs last ran for
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
        settings[config["task"]] = _checked(path.name, config.get("metadata"))
    return settings


def _checked(where: str, metadata) -> Dict:
    """``metadata`` as settings: a mapping (or nothing) whose keys leave lmms-eval's request keys alone,
    without the data source a run records next to them."""
    if metadata is not None and not isinstance(metadata, dict):
        raise TaskOptionsError(f"{where}: metadata is a {type(metadata).__name__}, not a mapping of settings")
    clash = RESERVED & set(metadata or {})
    if clash:
        raise TaskOptionsError(f"{where}: metadata key(s) {sorted(clash)} would overwrite lmms-eval's request metadata")
    return {key: value for key, value in (metadata or {}).items() if key != DATA_SOURCE_KEY}


def applied_settings(task: str) -> Tuple[str, Dict]:
    """(name, settings) of the task a ``process_docs`` made for ``task`` runs for. Under a harness,
    the task being built: its name and its config's ``metadata``, which the results record (set by
    our YAML or by one that includes it); called directly, ``task`` and its YAML's settings. Any
    :func:`overridden` values on top."""
    harness_task = calling_task()
    if harness_task is None:
        return task, settings_of(task)
    name = harness_task.config.task
    _APPLIED[name] = _checked(f"task {name}", harness_task.config.metadata)
    return name, settings_of(name)


def settings_of(task: str) -> Dict:
    """The settings ``task`` runs with: the metadata its ``process_docs`` last applied
    (:func:`applied_settings`), else its YAML's (read by :func:`process_docs_per_task`), with any
    :func:`overridden` values on top."""
    declared = _APPLIED.get(task, _DECLARED.get(task))
    if declared is None:
        raise TaskOptionsError(f"no settings known for task {task!r}: its YAML was not read by process_docs_per_task")
    return {**declared, **_OVERRIDES.get(task, {})}


def process_docs_per_task(folder: Path, make: Callable[[str], Callable]) -> Dict[str, Callable]:
    """``{"process_docs_<task>": make(task)}`` for every task YAML in ``folder`` (a task YAML names its
    own: ``process_docs: !function utils.process_docs_<task>``, which a YAML including it inherits);
    the hook ``make`` returns reads its task's name and settings with :func:`applied_settings` when it runs."""
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
