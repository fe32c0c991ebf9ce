"""CaT-Bench as a hub dataset: lmms-eval loads ``vanyacohen/CaT-Bench`` as it is (its ``train``, ``validation`` and
``test`` splits of step-pair rows); a task's docs are the questions of its split's rows. No conversion is needed
(docs/catbench.md "Data"). Nothing here reads a file, an environment variable or the network.

:func:`make_process_docs` is the task's ``process_docs`` where lmms-eval loads the dataset itself
(``dataset_path``): the task folder exported for lmms-eval's repository uses it, and :func:`load_split`
for the few-shot pool, another split of the same dataset.
"""

from typing import Callable, Dict, List, Optional, Tuple

import datasets

from temporal_bench.catbench.questions import CatBenchDataError, expand_hf_rows, with_switched_twins
from temporal_bench.catbench.settings import with_defaults
from temporal_bench.utils.fail_fast import stops_run_on
from temporal_bench.utils.harness_task import calling_task
from temporal_bench.utils.task_options import TaskOptionsError, applied_settings

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


def _questions(dataset: datasets.Dataset) -> List[Dict]:
    return expand_hf_rows((f"{HUB_DATASET_ID}[{dataset.split}] row {index}", row) for index, row in enumerate(dataset))


def docs_from_dataset(dataset: datasets.Dataset, settings: dict) -> List[Dict]:
    """The docs of the task with these YAML ``metadata`` settings from the rows of one split: two questions per step pair."""
    return as_docs(_questions(dataset), settings)


_LOADED_FROM: Dict[str, Tuple[str, Optional[str]]] = {}  # "dataset": (dataset_path, dataset_name) of the last task built


def make_process_docs(task: str) -> Callable[[datasets.Dataset], datasets.Dataset]:
    """``process_docs_<task>`` on the split lmms-eval loaded: its questions under the settings of the task being
    built (task_options.applied_settings), each naming the split it came from (``data``); the dataset's location is kept
    for :func:`load_split`."""

    @stops_run_on((CatBenchDataError, TaskOptionsError))
    def process_docs(dataset: datasets.Dataset) -> datasets.Dataset:
        _, settings = applied_settings(task)
        harness_task = calling_task()
        if harness_task is not None:
            _LOADED_FROM["dataset"] = (harness_task.config.dataset_path, harness_task.config.dataset_name)
        data = f"{HUB_DATASET_ID}[{dataset.split}]"
        return datasets.Dataset.from_list([{**doc, "data": data} for doc in docs_from_dataset(dataset, settings)])

    return process_docs


def load_split(split: str) -> List[Dict]:
    """The questions of another ``split`` of the dataset the tasks loaded (the few-shot pool); the hub dataset
    when no task has been built."""
    path, name = _LOADED_FROM.get("dataset", (HUB_DATASET_ID, None))
    return _questions(datasets.load_dataset(path, name, split=split))
