"""The functions the TempVS task YAMLs name (``!function utils.<name>``).

The task folder's ``utils.py`` builds one ``process_docs_<task>`` per task YAML with
:func:`make_process_docs` (lmms-eval's process_docs gets no task config; each reads the name and
metadata of the task being built when it runs, utils/task_options.py). One ``process_results`` serves every task: the doc
names its task, whose settings say which metrics it reports. Images are opened lazily here, never
held for the whole set.
"""

import io
from pathlib import Path
from typing import Dict, List, Union

import datasets

from temporal_bench.tempvs import model_settings
from temporal_bench.tempvs.hub_dataset import as_dataset
from temporal_bench.tempvs.loading import TempVSDataError, load_task_docs
from temporal_bench.tempvs.metrics import headline_keys, make_record, values_of
from temporal_bench.tempvs.settings import TaskConfig, TaskSettings, TempVSSettingsError, refuse_removed_env
from temporal_bench.utils.data_dir import DataNotFoundError
from temporal_bench.utils.data_fingerprint import log_source
from temporal_bench.utils.fail_fast import stops_run_on
from temporal_bench.utils.task_options import TaskOptionsError, applied_settings, settings_of


def docs_of(task: TaskConfig, data_dir=None) -> List[Dict]:
    """The task's docs, from the release or a converted dataset (loading.load_task_docs), each naming the
    task, the smallest ``--limit`` that asks a main question (0 for a grounding test; for the warning when
    a limit asks none, metrics.warn_incomplete) and the fingerprint of the data files read (``data``, also
    logged with the data source)."""
    refuse_removed_env()
    docs, report, source = load_task_docs(task.settings, data_dir)
    report.log(task.name)
    data = log_source(f"TempVS {task.name}", source, report.files)
    first_main = next((i for i, doc in enumerate(docs) if doc["kind"] == "main"), -1)
    for doc in docs:
        doc.update(task=task.name, main_limit=first_main + 1, data=data)
    return docs


_PARSED: Dict[tuple, TaskSettings] = {}


def settings_of_task(task: str) -> TaskSettings:
    """The settings ``task`` runs with (its YAML metadata, with any task_options override)."""
    metadata = settings_of(task)
    key = (task, repr(sorted(metadata.items())))
    if key not in _PARSED:
        _PARSED[key] = TaskSettings.from_metadata(task, metadata)
    return _PARSED[key]


def make_process_docs(task: str):
    @stops_run_on((TempVSDataError, DataNotFoundError, TempVSSettingsError, TaskOptionsError))
    def process_docs(placeholder: datasets.Dataset) -> datasets.Dataset:
        name, _ = applied_settings(task)  # the task being built: ours, or a YAML's that includes ours
        return as_dataset(docs_of(TaskConfig(name, settings_of_task(name))))

    process_docs.__name__ = f"process_docs_{task}"
    return process_docs


def open_image(image: Union[str, Dict], doc: Dict):
    """An image file of the release, or an encoded image of a converted dataset (``{"bytes", "path"}``: docs rebuilt outside a harness)."""
    from PIL import Image

    if isinstance(image, str) and doc.get("images"):  # a converted doc's image name (browse): its encoded image
        image = next((shown for shown in doc["images"] if isinstance(shown, dict) and shown.get("path") == image), image)
    where = image.get("path") if isinstance(image, dict) else image
    if not isinstance(image, dict) and (not image or not Path(image).is_file()):
        raise FileNotFoundError(f"TempVS image {image!r} of doc {doc.get('doc_key')} not found (image paths are re-rooted at the release folder the docs were read from)")
    try:
        with Image.open(io.BytesIO(image["bytes"]) if isinstance(image, dict) else image) as opened:
            return opened.convert("RGB")
    except Exception as error:  # noqa: BLE001 - any decoding failure is reported with its file and doc
        raise TempVSDataError(f"TempVS image {where!r} of doc {doc.get('doc_key')} cannot be read ({type(error).__name__}: {error}); a corrupt or truncated file?") from error


def image_paths(doc: Dict) -> List[str]:
    """The images the doc sends: none (blind), one per frame (separate) or the combined strip."""
    if doc["visual"] == "none":
        return []
    if doc["visual"] == "separate":
        return list(doc["frames"])
    return [doc["image"]]


def doc_to_visual(doc: Dict) -> List:
    """The images the doc shows: a converted dataset's (``images``, decoded by the harness) or the release's files."""
    if doc.get("images") is not None:
        return [open_image(image, doc) if isinstance(image, dict) else image.convert("RGB") for image in doc["images"]]
    return [open_image(path, doc) for path in image_paths(doc)]


def doc_to_text(doc: Dict, lmms_eval_specific_kwargs=None) -> str:
    """The prompt, with the images' tokens where the model class takes them from the text
    (model_settings.with_image_tokens); also keeps the model settings lmms-eval resolved for this
    task, which process_results needs and is not given (model_settings.py)."""
    settings = model_settings.stash(doc["task"], lmms_eval_specific_kwargs)
    return model_settings.with_image_tokens(doc["prompt"], len(image_paths(doc)), settings)


def doc_to_target(doc: Dict) -> str:
    return doc["answer"]


def doc_to_messages(doc: Dict, lmms_eval_specific_kwargs=None) -> List[Dict]:
    """The user turn for chat model classes: one image part per image (the combined strip or each
    frame), placed around the prompt as the model family's official wrapper placed them
    (docs/protocol/tempvs.md §4.5)."""
    layout = model_settings.stash(doc["task"], lmms_eval_specific_kwargs)["layout"]
    return [{"role": "user", "content": model_settings.message_content(doc_to_visual(doc), doc["prompt"], layout)}]


def process_results(doc: Dict, results: List[str]) -> Dict:
    task = doc["task"]
    settings = settings_of_task(task)
    record = make_record(doc, results[0] if results else None, family=model_settings.stashed(task)["extractor"],
                         fixes=frozenset(settings.fixes))
    return values_of(record, headline_keys(settings.tests), joins_suite=settings.shared_grounding and settings.is_main)


__all__ = ["doc_to_visual", "doc_to_text", "doc_to_target", "doc_to_messages", "process_results", "make_process_docs"]
