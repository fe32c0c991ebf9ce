"""The harness task a data hook is running for, found on the call stack.

Neither harness hands its loader hooks the task: lmms-eval 0.7.3 calls ``process_docs(dataset)``
and lm-eval 0.4.13 ``custom_dataset(**metadata)``, both from ``ConfigurableTask.download`` while the
task is being built, before the evaluator dumps the task's config into the results JSON
(``configs.<task>``; docs/protocol/harness.md §3). The task object is the ``self`` of that caller:
from it a hook reads the settings the run records (the loaded YAML's ``metadata``, whichever file
set it) and writes what the run read into that record.
"""

import sys
from typing import Any, Optional, Tuple

HARNESS_TASK_MODULES = ("lmms_eval.api.task", "lm_eval.api.task")


def _task_classes() -> Tuple[type, ...]:
    """The harnesses' ``Task`` classes, of those already imported (a harness running a task has)."""
    return tuple(module.Task for module in map(sys.modules.get, HARNESS_TASK_MODULES) if module is not None)


def calling_task() -> Optional[Any]:
    """The harness task whose construction called this hook, or None when no harness task is on
    the call stack (a hook called directly, e.g. by a test or a script)."""
    classes = _task_classes()
    frame = sys._getframe(1)
    while classes and frame is not None:
        candidate = frame.f_locals.get("self")
        if isinstance(candidate, classes):
            return candidate
        frame = frame.f_back
    return None
