"""ISO-Bench as a hub dataset: which config a task reads and the task's docs built from that config's rows.

The dataset (converted from the official release; its card says how)
keeps the release's columns as they are, with the image column embedded as an image feature; config
``default`` holds the split a task without the ``data_split`` setting evaluates, and each release split is
also a config of its name. Nothing here reads a file, an environment variable or the network.

:func:`make_process_docs` is the task's ``process_docs`` where lmms-eval loads this dataset itself
(``dataset_path`` / ``dataset_name``): the task folder exported for lmms-eval's repository uses it, with
:func:`open_image` for the embedded images.
"""

import io
from typing import Callable, Dict, List

import datasets

from temporal_bench.isobench.records import (
    COLUMN_MAP_SETTING,
    SPLIT_SETTING,
    IsoBenchDataError,
    normalise_table,
    table_from_hf,
)
from temporal_bench.utils.fail_fast import stops_run_on
from temporal_bench.utils.task_options import TaskOptionsError, applied_settings

HUB_DATASET_ID = "lmms-lab-eval/ISO-Bench"
DEFAULT_CONFIG = "default"


def config_name(settings: dict) -> str:
    """The config a task with these YAML ``metadata`` settings reads: its ``data_split``, else ``default``."""
    return settings.get(SPLIT_SETTING) or DEFAULT_CONFIG


def docs_from_dataset(dataset: datasets.Dataset, settings: dict) -> List[Dict]:
    """The normalised records of the config's rows, under the task setting ``column_map`` (the release's column names)."""
    return normalise_table(table_from_hf(dataset, HUB_DATASET_ID), settings.get(COLUMN_MAP_SETTING))


def make_process_docs(task: str) -> Callable[[datasets.Dataset], datasets.Dataset]:
    """``process_docs_<task>`` on the config lmms-eval loaded: the records under the settings of the task being
    built (task_options.applied_settings), each naming the dataset it came from (``data``)."""

    @stops_run_on((IsoBenchDataError, TaskOptionsError))
    def process_docs(dataset: datasets.Dataset) -> datasets.Dataset:
        _, settings = applied_settings(task)
        data = f"{HUB_DATASET_ID}/{config_name(settings)}"
        return datasets.Dataset.from_list([{**record, "data": data} for record in docs_from_dataset(dataset, settings)])

    return process_docs


def open_image(doc: Dict):
    """The doc's embedded image as an RGB PIL image; an error naming the doc id when it cannot be read."""
    from PIL import Image

    try:
        with Image.open(io.BytesIO(doc["image_bytes"])) as image:
            return image.convert("RGB")
    except Exception as error:  # noqa: BLE001 - any decoding failure is reported with its doc
        raise IsoBenchDataError(f"ISO-Bench doc {doc.get('id')!r}: cannot read its embedded image: {type(error).__name__}: {error}") from error
