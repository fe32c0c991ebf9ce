"""lmms-eval entry point (group ``lmms_eval.models``).

lmms-eval 0.7.3 has no entry-point group for tasks, and ``LMMS_EVAL_PLUGINS`` adds a plugin's task
folder only after the TaskManager was built. Every evaluation run, however, imports
``lmms_eval.models``, which loads this module through the entry point before any TaskManager is
created. Loading it therefore (1) adds our task folder to every TaskManager's include path, so
``lmms-eval --model M --tasks catbench`` needs no flag, (2) registers our baseline models and the
family names of lmms-eval chat classes (:data:`FAMILY_MODELS`), and (3) when
a TaskManager first indexes tasks, installs the run checks of ``temporal_bench.run_checks`` (backend
settings at start-up, failed requests at aggregation) and ``temporal_bench.task_folders`` (a task named
by a folder of the working folder). ``TEMPORAL_BENCH_NO_AUTO_TASKS=1`` turns (1) off.
"""

import os

from lmms_eval.models.registry_v2 import ModelManifest

from temporal_bench.paths import LMMS_EVAL_TASK_DIR

MODEL_CLASSES = {
    "random_choice": "temporal_bench.models.lmms_eval_models.RandomChoice",
    "majority_class": "temporal_bench.models.lmms_eval_models.MajorityClass",
    "scripted": "temporal_bench.models.lmms_eval_models.Scripted",
    "decode_only": "temporal_bench.models.lmms_eval_models.DecodeOnly",
    "request_hash": "temporal_bench.models.lmms_eval_models.RequestHash",
}
# lmms-eval's own chat classes under names that pick a model family's section of the TempVS tasks'
# lmms_eval_specific_kwargs (lmms-eval chooses a section by the --model name): these classes serve
# several families, and the text-first ones of TempVS Table 12 need their own (docs/tempvs.md "Image order").
FAMILY_MODELS = {
    "llava_interleave_hf": "lmms_eval.models.chat.llava_hf.LlavaHf",  # llava-hf/llava-interleave-qwen-*-hf
    "llava_next_video_hf": "lmms_eval.models.chat.huggingface.Huggingface",  # llava-hf/LLaVA-NeXT-Video-*-hf
}
OPT_OUT_ENV = "TEMPORAL_BENCH_NO_AUTO_TASKS"


def add_task_folder_to_task_manager(add_folder: bool) -> None:
    """Make every lmms-eval TaskManager index our task folder after the built-in tasks (``add_folder``)
    and install the run checks."""
    from lmms_eval.tasks import TaskManager

    original = TaskManager.initialize_tasks
    if getattr(original, "adds_temporal_bench_tasks", False):
        return

    def initialize_tasks(self, include_path=None, include_defaults=True):
        from temporal_bench import run_checks, task_folders

        run_checks.install()
        task_folders.install()
        paths = [include_path] if isinstance(include_path, str) else list(include_path or [])
        if add_folder and str(LMMS_EVAL_TASK_DIR) not in paths:
            paths.append(str(LMMS_EVAL_TASK_DIR))
        index = original(self, include_path=paths, include_defaults=include_defaults)
        task_folders.warn_about_shadowing_folders(name for name, entry in index.items()
                                                  if str(entry.get("yaml_path", "")).startswith(str(LMMS_EVAL_TASK_DIR)))
        return index

    initialize_tasks.adds_temporal_bench_tasks = True
    TaskManager.initialize_tasks = initialize_tasks


def model_manifests():
    add_task_folder_to_task_manager(add_folder=os.environ.get(OPT_OUT_ENV, "") in ("", "0"))
    return ([ModelManifest(model_id=name, simple_class_path=path) for name, path in MODEL_CLASSES.items()]
            + [ModelManifest(model_id=name, chat_class_path=path) for name, path in FAMILY_MODELS.items()])
