"""Preloaded by tests/preloaded_cli.py: the harnesses' index of their own built-in tasks, built once.

Every lmms-eval or lm-eval run starts by reading every YAML of the harness's built-in task folder
(about 2,000 for lmms-eval, 6 s; about 15,000 for lm-eval, 12 s) to index task names. Those folders
do not change during a test session, so the first process on the machine that needs an index builds it
and keeps it in a pickle in the temporary folder (keyed by the harness's version and the folder's files),
which every later process reads (under a second): the preloaded server of each pytest worker for
lmms-eval's, the first lm-eval run for lm-eval's, and a worker's own lmms-eval ``TaskManager``
(tests/conftest.py ``manager``). The task folder this package registers with lmms-eval (about 400 YAML reads
with their includes, 1 s a run) is kept alike, keyed by the sizes and modification times of the files of the
package's task folders, and read again by a run where any of them changed since. Other folders given by
``--include_path`` are read by every run.
"""

import copy
import functools
import hashlib
import importlib.metadata
import os
import pickle
import tempfile
from pathlib import Path

import lm_eval
import lm_eval.tasks._index as lm_eval_index
import lmms_eval.tasks as lmms_eval_tasks

from temporal_bench.paths import LMMS_EVAL_TASK_DIR, REGISTERED_TASK_DIRS

REGISTERED = {str(folder) for folder in REGISTERED_TASK_DIRS}

LMMS_EVAL_VERSION = importlib.metadata.version("lmms-eval")
LMMS_EVAL_BUILTIN = os.path.dirname(os.path.abspath(lmms_eval_tasks.__file__)) + "/"
LM_EVAL_BUILTIN = Path(lm_eval_index.__file__).parent

_lmms_eval_read = lmms_eval_tasks.TaskManager._get_task_and_group


def _pickled(name: str, key: str, build):
    """What ``build()`` returns, kept in a pickle in the temporary folder under ``name`` and a digest of ``key``."""
    cache = Path(tempfile.gettempdir()) / f"{name}-{hashlib.sha1(key.encode()).hexdigest()[:12]}.pickle"
    try:
        return pickle.loads(cache.read_bytes())
    except (OSError, EOFError, pickle.UnpicklingError):
        value = build()
        partial = cache.with_name(f"{cache.name}.{os.getpid()}")
        partial.write_bytes(pickle.dumps(value))
        os.replace(partial, cache)  # atomic: a concurrent reader sees the whole file or none
        return value


def _files(folder: Path) -> tuple:
    """(path, size, modification time) of every file under ``folder``."""
    return tuple(sorted((str(path), path.stat().st_size, path.stat().st_mtime_ns) for path in folder.rglob("*") if path.is_file() and "__pycache__" not in path.parts))


def _package_files() -> tuple:
    """The files of the package's task folders, which the registered folder's YAMLs include."""
    return _files(LMMS_EVAL_TASK_DIR)


_package_state = _package_files()
_indexes = {}  # task folder -> its index, in this process


def _lmms_eval_task_and_group(self, task_dir):
    if task_dir != LMMS_EVAL_BUILTIN and not (task_dir in REGISTERED and _package_files() == _package_state):
        return _lmms_eval_read(self, task_dir)
    if task_dir not in _indexes:
        state = _files(Path(task_dir)) if task_dir == LMMS_EVAL_BUILTIN else _package_state
        _indexes[task_dir] = _pickled("lmms-eval-task-index", f"{LMMS_EVAL_VERSION}|{task_dir}|{state}", lambda: _lmms_eval_read(self, task_dir))
    return copy.deepcopy(_indexes[task_dir])


_lm_eval_build = lm_eval_index.TaskIndex.build


@functools.lru_cache(maxsize=1)
def _lm_eval_builtin():
    key = f"{lm_eval.__version__}|{LM_EVAL_BUILTIN}|{LM_EVAL_BUILTIN.stat().st_mtime_ns}"
    return _pickled("lm-eval-builtin-index", key, lambda: _lm_eval_build([LM_EVAL_BUILTIN]))


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
lmms_eval_tasks.TaskManager("ERROR")  # the server indexes lmms-eval's folder and ours now, not in each run
