"""The functions the TempVS task YAMLs name (``!function utils.<name>``).

``process_docs_<task>`` for every task of ``task_registry.TASKS`` (lmms-eval's process_docs gets no task
config, so each task has its own), one ``process_results_<family>`` per metric family, and the
shared ``doc_to_*`` hooks. Images are opened lazily here, never held for the whole set.
"""

from pathlib import Path
from typing import Dict, List

import datasets

from temporal_bench.tempvs.loading import TempVSDataError, build_grounding_docs, build_main_docs
from temporal_bench.tempvs.metrics import make_process_results, metric_names
from temporal_bench.tempvs.spec import GROUNDING_TESTS
from temporal_bench.tempvs.task_registry import TASKS, TaskConfig, fn_name
from temporal_bench.utils.data_dir import DataNotFoundError
from temporal_bench.utils.fail_fast import stops_run_on


def docs_of(task: TaskConfig, data_dir=None) -> List[Dict]:
    """The task's docs, each naming the task and the smallest ``--limit`` that asks a main question
    (0 for a grounding test), for the warning when a limit asks none (metrics.main_count)."""
    if task.is_main:
        docs, report = build_main_docs(task.test, mode=task.mode, visual=task.visual, blind_filter=task.blind_filter,
                                       with_grounding=task.mode != "blind", data_dir=data_dir)
    else:
        docs, report = build_grounding_docs(GROUNDING_TESTS[task.test], visual=task.visual, data_dir=data_dir)
    report.log(task.name)
    first_main = next((i for i, doc in enumerate(docs) if doc["kind"] == "main"), -1)
    for doc in docs:
        doc.update(task=task.name, main_limit=first_main + 1)
    return docs


def make_process_docs(task: TaskConfig):
    @stops_run_on((TempVSDataError, DataNotFoundError))
    def process_docs(placeholder: datasets.Dataset) -> datasets.Dataset:
        return datasets.Dataset.from_list(docs_of(task))

    process_docs.__name__ = fn_name("process_docs", task.name)
    return process_docs


def open_image(path: str, doc: Dict):
    from PIL import Image

    if not path or not Path(path).is_file():
        raise FileNotFoundError(f"TempVS image {path!r} of doc {doc.get('doc_key')} not found "
                                f"(image paths are re-rooted at TEMPVS_DATA_DIR / the hub snapshot)")
    try:
        with Image.open(path) as image:
            return image.convert("RGB")
    except Exception as error:  # noqa: BLE001 - any decoding failure is reported with its file and doc
        raise TempVSDataError(f"TempVS image {path!r} of doc {doc.get('doc_key')} cannot be read "
                              f"({type(error).__name__}: {error}); a corrupt or truncated file?") from error


def doc_to_visual(doc: Dict) -> List:
    if doc["visual"] == "none":
        return []
    if doc["visual"] == "separate":
        return [open_image(path, doc) for path in doc["frames"]]
    return [open_image(doc["image"], doc)]


def doc_to_text(doc: Dict, lmms_eval_specific_kwargs=None) -> str:
    return doc["prompt"]


def doc_to_target(doc: Dict) -> str:
    return doc["answer"]


def doc_to_messages(doc: Dict, lmms_eval_specific_kwargs=None) -> List[Dict]:
    """Separate-image mode for chat models: one image part per frame, in order, then the prompt
    (the official wrappers put the images before the text, docs/protocol/tempvs.md §4.5)."""
    content = [{"type": "image", "url": image} for image in doc_to_visual(doc)]
    content.append({"type": "text", "text": doc_to_text(doc)})
    return [{"role": "user", "content": content}]


for _task in TASKS.values():
    globals()[fn_name("process_docs", _task.name)] = make_process_docs(_task)

process_results_mt1_two = make_process_results(metric_names("mt1_two"))
process_results_mt1_three = make_process_results(metric_names("mt1_three"))
process_results_ordering = make_process_results(metric_names("ordering"))
process_results_grounding = make_process_results(metric_names("grounding"))

__all__ = ["doc_to_visual", "doc_to_text", "doc_to_target", "doc_to_messages", "process_results_mt1_two",
           "process_results_mt1_three", "process_results_ordering", "process_results_grounding"] + [
    fn_name("process_docs", name) for name in TASKS]
