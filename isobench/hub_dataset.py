"""ISO-Bench as a hub dataset: which config a task reads and the task's docs built from that config's rows.

The dataset (converted from the official release; its card says how)
keeps the release's columns as they are, with the image column embedded as an image feature; config
``default`` holds the split a task without the ``data_split`` setting evaluates, and each release split is
also a config of its name. Nothing here reads a file, an environment variable or the network.
"""

from typing import Dict, List

import datasets

from temporal_bench.isobench.records import (
    COLUMN_MAP_SETTING,
    SPLIT_SETTING,
    normalise_table,
    table_from_hf,
)

HUB_DATASET_ID = "lmms-lab-eval/ISO-Bench"
DEFAULT_CONFIG = "default"


def config_name(settings: dict) -> str:
    """The config a task with these YAML ``metadata`` settings reads: its ``data_split``, else ``default``."""
    return settings.get(SPLIT_SETTING) or DEFAULT_CONFIG


def docs_from_dataset(dataset: datasets.Dataset, settings: dict) -> List[Dict]:
    """The normalised records of the config's rows, under the task setting ``column_map`` (the release's column names)."""
    return normalise_table(table_from_hf(dataset, HUB_DATASET_ID), settings.get(COLUMN_MAP_SETTING))
