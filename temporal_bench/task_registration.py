"""Makes lmms-eval find this package's task folder without ``--include_path``: the one lmms-eval function this
package replaces.

lmms-eval 0.7.x has no entry-point group for tasks, and ``LMMS_EVAL_PLUGINS`` adds a plugin's task folder only
after the TaskManager was built. :func:`register` wraps ``TaskManager.initialize_tasks`` so that every
TaskManager indexes ``temporal_bench/lmms_eval_tasks`` after the tasks it was asked for (lmms-eval's own win a
name clash, so every task here is prefixed). The plugin entry point calls it, unless ``TEMPORAL_BENCH_NO_AUTO_TASKS=1``.

The repository root's benchmark folders hold each a YAML naming its task as a :class:`TaskName`, so that lmms-eval,
which reads ``--tasks tempvs`` there as the folder, loads it for every model class.

The task folders need lmms-eval 0.7.3's YAML loading (a ``data_files`` path relative to the YAML, an aggregation
named by module path): the 0.7.2 release has neither, so there the tasks are not registered and the run says why.
"""

from temporal_bench.paths import REGISTERED_TASK_DIRS

OPT_OUT_ENV = "TEMPORAL_BENCH_NO_AUTO_TASKS"
# a function of lmms_eval.utils -> what the task folders need it for (both came with lmms-eval 0.7.3)
HARNESS_FEATURES = {"_maybe_resolve_yaml_local_data_files": "data_files paths relative to the task YAML"}


def missing_harness_features() -> list:
    """What the installed lmms-eval lacks of what the task folders need."""
    from lmms_eval import utils

    return [what for name, what in HARNESS_FEATURES.items() if not hasattr(utils, name)]


def register() -> None:
    """Wrap ``TaskManager.initialize_tasks`` (once) to add our task folder to the include path."""
    from lmms_eval.tasks import TaskManager
    from loguru import logger

    missing = missing_harness_features()
    if missing:
        logger.error(
            f"lmms-eval-temporal-bench: the installed lmms-eval lacks {', '.join(missing)}, which the TempVS, CaT-Bench and ISO-Bench "
            "tasks need: install lmms-eval 0.7.3 or newer (or its main branch from source). Their tasks are not registered."
        )
        return
    original = TaskManager.initialize_tasks
    if getattr(original, "adds_temporal_bench_tasks", False):
        return

    def initialize_tasks(self, include_path=None, include_defaults=True):
        paths = [include_path] if isinstance(include_path, str) else list(include_path or [])
        paths += [str(folder) for folder in REGISTERED_TASK_DIRS if str(folder) not in paths]
        return original(self, include_path=paths, include_defaults=include_defaults)

    initialize_tasks.__dict__["adds_temporal_bench_tasks"] = True  # a function attribute (mypy refuses one set as initialize_tasks.name = ...)
    TaskManager.initialize_tasks = initialize_tasks


class TaskName(str):
    """A task name as the YAML of a folder named like the task holds it (``tempvs/tempvs.yaml`` in the repository
    root: ``!function temporal_bench.task_registration.TEMPVS``).

    lmms-eval 0.7.3 reads ``--tasks tempvs`` as the folder ``./tempvs`` where one exists and evaluates what its
    YAMLs load to: a config mapping (``task: tempvs``) it loads for a simple model class whatever the model
    (``TaskManager.load_config`` passes no task type: a chat class then fails on its first request), a name as it
    loads every ``--tasks`` name. This name passes the loader's one lookup (``get``: no key is set). The fix in
    lmms-eval: docs/upstream.md."""

    def get(self, key, default=None):
        return default


def __getattr__(name: str) -> TaskName:
    """``TEMPVS``: the task named like a benchmark, which the repository root's benchmark folders' YAMLs name
    (tests/e2e/test_registration.py)."""
    from temporal_bench.manifest import manifests

    if name.isupper() and name.lower() in manifests():
        return TaskName(name.lower())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
