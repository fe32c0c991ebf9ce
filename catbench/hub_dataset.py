"""CaT-Bench as a hub dataset: lmms-eval loads ``vanyacohen/CaT-Bench`` as it is (its ``train``, ``validation`` and
``test`` splits of step-pair rows); a task's docs are the questions of its split's rows. No conversion is needed
(docs/catbench.md "Data"). Nothing here reads a file, an environment variable or the network.
"""

from typing import Dict, List

import datasets

from temporal_bench.catbench.questions import expand_hf_rows, with_switched_twins
from temporal_bench.catbench.settings import with_defaults

HUB_DATASET_ID = "vanyacohen/CaT-Bench"


def config_name(settings: dict) -> str:
    """The hub dataset has one config; the split is the task's ``test_split``."""
    return "default"


def as_docs(questions: List[Dict], settings: dict) -> List[Dict]:
    """The questions (plus their NonDep-S twins for a ``switched`` task), each carrying the task's ``close_max_distance``."""
    options = with_defaults(settings)
    if options["switched"]:
        questions = with_switched_twins(questions)
    return [{**question, "close_max_distance": options["close_max_distance"]} for question in questions]


def docs_from_dataset(dataset: datasets.Dataset, settings: dict) -> List[Dict]:
    """The docs of the task with these YAML ``metadata`` settings from the rows of one split: two questions per step pair."""
    return as_docs(expand_hf_rows((f"{HUB_DATASET_ID}[{dataset.split}] row {index}", row) for index, row in enumerate(dataset)), settings)
