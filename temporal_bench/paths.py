"""Where the installed task definitions live.

The task folder is found through the import system, not by walking up from this file: in the
repository it sits at the top level (``lmms_eval_tasks/``) and is mapped into the package by
``setup.cfg``'s ``package_dir``, so only the importer knows where it is.
"""

import importlib.util
from pathlib import Path


def package_folder(module: str) -> Path:
    """The folder of an installed (sub)package of ``temporal_bench``."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"{module} is not an installed package")
    return Path(spec.submodule_search_locations[0]).resolve()


LMMS_EVAL_TASK_DIR = package_folder("temporal_bench.lmms_eval_tasks")
# what this package registers with lmms-eval: its own task folders, whose tasks include the upstream folders' tasks
# (the same names, on its data routes) and add the variants; lmms-eval indexes nothing else of LMMS_EVAL_TASK_DIR
PLUGIN_TASK_DIR = package_folder("temporal_bench.lmms_eval_tasks.plugin")
REGISTERED_TASK_DIRS = [PLUGIN_TASK_DIR]
# what this package registers with lm-eval (``--include_path``): its CaT-Bench tasks; lm_eval_tasks/catbench/ is the
# folder an lm-eval pull request adds (temporal_bench/export), which lm-eval indexes only there
LM_EVAL_TASK_DIR = package_folder("temporal_bench.lm_eval_tasks.plugin")
