"""Makes lmms-eval find this package's task folder without ``--include_path``: the one lmms-eval function this
package replaces.

lmms-eval 0.7.x has no entry-point group for tasks, and ``LMMS_EVAL_PLUGINS`` adds a plugin's task folder only
after the TaskManager was built. :func:`register` wraps ``TaskManager.initialize_tasks`` so that every
TaskManager indexes ``temporal_bench/lmms_eval_tasks`` after the tasks it was asked for (lmms-eval's own win a
name clash, so every task here is prefixed). The plugin entry point calls it, unless ``TEMPORAL_BENCH_NO_AUTO_TASKS=1``.
"""

from temporal_bench.paths import LMMS_EVAL_TASK_DIR

OPT_OUT_ENV = "TEMPORAL_BENCH_NO_AUTO_TASKS"


def register() -> None:
    """Wrap ``TaskManager.initialize_tasks`` (once) to add our task folder to the include path."""
    from lmms_eval.tasks import TaskManager

    original = TaskManager.initialize_tasks
    if getattr(original, "adds_temporal_bench_tasks", False):
        return

    def initialize_tasks(self, include_path=None, include_defaults=True):
        paths = [include_path] if isinstance(include_path, str) else list(include_path or [])
        if str(LMMS_EVAL_TASK_DIR) not in paths:
            paths.append(str(LMMS_EVAL_TASK_DIR))
        return original(self, include_path=paths, include_defaults=include_defaults)

    initialize_tasks.adds_temporal_bench_tasks = True
    TaskManager.initialize_tasks = initialize_tasks
