"""Preloaded by tests/preloaded_cli.py: the harnesses' index of their own built-in tasks, built once.

Every lmms-eval or lm-eval run starts by reading every YAML of the harness's built-in task folder
(about 2,000 for lmms-eval, 6 s; about 15,000 for lm-eval, 12 s) to index task names. Those folders
do not change during a test session, so the preloaded server indexes lmms-eval's once and its forked
runs reuse the result. lm-eval's, which fewer runs need, is built by the first lm-eval run on the
machine and kept in a pickle in the temporary folder (keyed by lm-eval's version and folder), which
later runs of any worker read (under a second). The task folder this package registers with lmms-eval
(about 400 YAML reads with their includes, 1 s a run) is indexed once too, and read again by a run
where any file of the package's task folders changed since (each run compares their sizes and
modification times). Other folders given by ``--include_path`` are read by every run.
"""

import copy
import functools
import hashlib
import os
import pickle
import tempfile
from pathlib import Path

import lm_eval
import lm_eval.tasks._index as lm_eval_index
import lmms_eval.tasks as lmms_eval_tasks

from temporal_bench.paths import LMMS_EVAL_TASK_DIR, REGISTERED_TASK_DIRS

LMMS_EVAL_BUILTIN = os.path.dirname(os.path.abspath(lmms_eval_tasks.__file__)) + "/"
LM_EVAL_BUILTIN = Path(lm_eval_index.__file__).parent

_lmms_eval_read = lmms_eval_tasks.TaskManager._get_task_and_group
_manager = lmms_eval_tasks.TaskManager("ERROR")
_lmms_eval_builtin = _manager.task_index


def _package_files() -> tuple:
    """(path, size, modification time) of every file of the package's task folders, which the registered folder's
    YAMLs include."""
    return tuple(sorted((str(path), path.stat().st_size, path.stat().st_mtime_ns) for path in LMMS_EVAL_TASK_DIR.rglob("*") if path.is_file() and "__pycache__" not in path.parts))


_package_state = _package_files()
_registered = {str(folder): _lmms_eval_read(_manager, str(folder)) for folder in REGISTERED_TASK_DIRS}


def _lmms_eval_task_and_group(self, task_dir):
    if task_dir == LMMS_EVAL_BUILTIN:
        return copy.deepcopy(_lmms_eval_builtin)
    if task_dir in _registered and _package_files() == _package_state:
        return copy.deepcopy(_registered[task_dir])
    return _lmms_eval_read(self, task_dir)


_lm_eval_build = lm_eval_index.TaskIndex.build


@functools.lru_cache(maxsize=1)
def _lm_eval_builtin():
    key = f"{lm_eval.__version__}|{LM_EVAL_BUILTIN}|{LM_EVAL_BUILTIN.stat().st_mtime_ns}"
    cache = Path(tempfile.gettempdir()) / f"lm-eval-builtin-index-{hashlib.sha1(key.encode()).hexdigest()[:12]}.pickle"
    try:
        return pickle.loads(cache.read_bytes())
    except (OSError, EOFError, pickle.UnpicklingError):
        index = _lm_eval_build([LM_EVAL_BUILTIN])
        partial = cache.with_name(f"{cache.name}.{os.getpid()}")
        partial.write_bytes(pickle.dumps(index))
        os.replace(partial, cache)  # atomic: a concurrent reader sees the whole file or none
        return index


def _lm_eval_index(paths, *, resolve_includes=True):
    paths = list(paths)
    if not paths or Path(paths[0]) != LM_EVAL_BUILTIN or not resolve_includes:
        return _lm_eval_build(paths, resolve_includes=resolve_includes)
    index = dict(_lm_eval_builtin())
    for name, entry in _lm_eval_build(paths[1:]).items():
        if name in index:  # as TaskIndex.build warns when a later path overrides a task
            lm_eval_index.log.warning("Task '%s' from %s overrides existing task from %s", name, entry.yaml_path, index[name].yaml_path)
        index[name] = entry
    return index


lmms_eval_tasks.TaskManager._get_task_and_group = _lmms_eval_task_and_group
lm_eval_index.TaskIndex.build = staticmethod(_lm_eval_index)
