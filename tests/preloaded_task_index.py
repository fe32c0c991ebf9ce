"""Preloaded by tests/preloaded_cli.py: the harnesses' index of their own built-in tasks, built once.

Every lmms-eval or lm-eval run starts by reading every YAML of the harness's built-in task folder
(about 2,000 for lmms-eval) to index task names, a few seconds per run. Those folders do not change
during a test session, so the preloaded server indexes each once and its forked runs reuse the
result; folders given by ``--include_path`` (ours among them) are still read by every run.
"""

import copy
import os
from pathlib import Path

import lm_eval.tasks._index as lm_eval_index
import lmms_eval.tasks as lmms_eval_tasks

LMMS_EVAL_BUILTIN = os.path.dirname(os.path.abspath(lmms_eval_tasks.__file__)) + "/"
LM_EVAL_BUILTIN = Path(lm_eval_index.__file__).parent

_lmms_eval_read = lmms_eval_tasks.TaskManager._get_task_and_group
_lmms_eval_builtin = lmms_eval_tasks.TaskManager("ERROR").task_index


def _lmms_eval_task_and_group(self, task_dir):
    if task_dir == LMMS_EVAL_BUILTIN:
        return copy.deepcopy(_lmms_eval_builtin)
    return _lmms_eval_read(self, task_dir)


_lm_eval_build = lm_eval_index.TaskIndex.build
_lm_eval_builtin = _lm_eval_build([LM_EVAL_BUILTIN])


def _lm_eval_index(paths, *, resolve_includes=True):
    paths = list(paths)
    if not paths or Path(paths[0]) != LM_EVAL_BUILTIN or not resolve_includes:
        return _lm_eval_build(paths, resolve_includes=resolve_includes)
    index = dict(_lm_eval_builtin)
    for name, entry in _lm_eval_build(paths[1:]).items():
        if name in index:  # as TaskIndex.build warns when a later path overrides a task
            lm_eval_index.log.warning(
                "Task '%s' from %s overrides existing task from %s", name, entry.yaml_path, index[name].yaml_path)
        index[name] = entry
    return index


lmms_eval_tasks.TaskManager._get_task_and_group = _lmms_eval_task_and_group
lm_eval_index.TaskIndex.build = staticmethod(_lm_eval_index)
