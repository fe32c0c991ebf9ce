"""TempVS as a hub dataset: which config a task reads and the task's docs built from that config's rows.

The dataset (converted from the official release; its card says how)
has one config per data need of a task: per main test (its main rows and its grounding test's rows),
per pair of main tests sharing a grounding test, per grounding test, and ``suite_grounding`` (the four
grounding tests). A row is one annotation row of the release: ``source``, ``task_id`` (the official task
id), ``question_id``, ``fields`` (the row's columns as JSON), ``blind_correct`` (whether each text-only
LLM of the filter answered it correctly, ``BLIND_MODELS`` order; empty where no filter applies) and the
images it can show (``image_names``, the stored paths re-rooted at the release folder, and ``images``).
Nothing here reads a file, an environment variable or the network.

:func:`make_process_docs` is the task's ``process_docs`` where lmms-eval loads this dataset itself
(``dataset_path`` / ``dataset_name``): the task folder exported for lmms-eval's repository uses it.
"""

import json
from collections import defaultdict
from pathlib import Path
from typing import Callable, Dict, List, Sequence, Tuple

import datasets

from temporal_bench.tempvs.docs import LoadReport, shown_images, task_docs
from temporal_bench.tempvs.settings import TaskSettings, TempVSSettingsError
from temporal_bench.tempvs.spec import (
    GROUNDING_TESTS,
    MAIN_TESTS,
    SHARED_GROUNDING_TASKS,
    TempVSDataError,
)
from temporal_bench.utils.fail_fast import stops_run_on
from temporal_bench.utils.task_options import TaskOptionsError, applied_settings

HUB_DATASET_ID = "lmms-lab-eval/TempVS"
SUITE_GROUNDING_CONFIG = "suite_grounding"
FEATURES = datasets.Features(
    {
        "source": datasets.Value("string"),
        "task_id": datasets.Value("string"),
        "question_id": datasets.Value("string"),
        "fields": datasets.Value("string"),
        "blind_correct": datasets.List(datasets.Value("bool")),
        "image_names": datasets.List(datasets.Value("string")),
        "images": datasets.List(datasets.Image()),
    }
)


def config_task_ids() -> Dict[str, Tuple[str, ...]]:
    """config -> the official task ids whose rows it holds."""
    configs = {test: (spec.task_id, spec.grounding_task_id) for test, spec in MAIN_TESTS.items()}
    for name, tests in SHARED_GROUNDING_TASKS.items():
        configs[name] = tuple(MAIN_TESTS[test].task_id for test in tests) + (MAIN_TESTS[tests[0]].grounding_task_id,)
    configs.update({test: (task_id,) for test, task_id in GROUNDING_TESTS.items()})
    configs[SUITE_GROUNDING_CONFIG] = tuple(GROUNDING_TESTS.values())
    return configs


def config_of(settings: TaskSettings) -> str:
    """The config a task with ``settings`` reads."""
    if not settings.is_main:
        return SUITE_GROUNDING_CONFIG if settings.shared_grounding else settings.tests[0]
    if len(settings.tests) == 1:
        return settings.tests[0]
    return next(name for name, tests in SHARED_GROUNDING_TASKS.items() if set(tests) == set(settings.tests))


def config_name(settings: dict) -> str:
    """The config a task with these YAML ``metadata`` settings reads."""
    return config_of(TaskSettings.from_metadata("TempVS task", settings))


class DatasetRows:
    """The rows of one converted config as a docs.RowSource; images stay encoded until a model asks for them."""

    root = Path("")  # image names are relative to the release folder

    def __init__(self, dataset: datasets.Dataset):
        missing = [column for column in FEATURES if column not in dataset.column_names]
        if missing:
            raise TempVSDataError(f"the dataset lacks the column(s) {missing} of a converted TempVS config (it has {dataset.column_names}): was it written by build-dataset?")
        dataset = dataset.cast_column("images", datasets.List(datasets.Image(decode=False)))
        self.by_file: Dict[Tuple[str, str], List[Dict]] = defaultdict(list)
        self.verdicts: Dict[Tuple[str, str, str], List[bool]] = {}
        self.images: Dict[str, Dict] = {}
        for index, row in enumerate(dataset):
            fields = json.loads(row["fields"])
            fields["_where"] = f"converted TempVS row {index} ({row['source']} {row['task_id']}, question_id {row['question_id']!r})"
            self.by_file[row["source"], row["task_id"]].append(fields)
            self.verdicts[row["source"], row["task_id"], row["question_id"]] = row["blind_correct"]
            for name, image in zip(row["image_names"], row["images"]):
                self.images.setdefault(name, image)

    def rows(self, source: str, task_id: str) -> List[Dict]:
        if (source, task_id) not in self.by_file:
            held = sorted({f"{s}/{t}" for s, t in self.by_file})
            raise TempVSDataError(f"the dataset holds no {source}/{task_id} rows (it holds {held}): is it the config this task reads (hub_dataset.config_name)?")
        return self.by_file[source, task_id]

    def blind_correct(self, source: str, task_id: str, question_ids: Sequence[str]) -> Dict[str, int]:
        missing = [question_id for question_id in question_ids if not self.verdicts.get((source, task_id, question_id))]
        if missing:
            raise TempVSDataError(f"no text-only-LLM verdicts (blind_correct) for {len(missing)} {source}/{task_id} question(s), e.g. question_id {missing[:3]}")
        return {question_id: sum(self.verdicts[source, task_id, question_id]) for question_id in question_ids}

    def attach_images(self, docs: List[Dict]) -> None:
        """Each doc's ``images``: the encoded images it shows, in order."""
        missing = [(name, doc["doc_key"]) for doc in docs for name in shown_images(doc) if name not in self.images]
        if missing:
            examples = "; ".join(f"{name} (doc {key})" for name, key in missing[:5])
            raise TempVSDataError(f"{len(missing)} image(s) the docs show are not in the dataset, e.g. {examples}")
        for doc in docs:
            doc["images"] = [self.images[name] for name in shown_images(doc)]


def docs_and_report(dataset: datasets.Dataset, settings: TaskSettings) -> Tuple[List[Dict], LoadReport]:
    rows = DatasetRows(dataset)
    docs, report = task_docs(rows, settings)
    rows.attach_images(docs)
    return docs, report


def docs_from_dataset(dataset: datasets.Dataset, settings: dict) -> List[Dict]:
    """The docs of the task with these YAML ``metadata`` settings, from the rows of its config (:func:`config_name`);
    the same docs as the release gives, each with its ``images`` (:func:`as_dataset` types them)."""
    return docs_and_report(dataset, TaskSettings.from_metadata("TempVS task", settings))[0]


def as_dataset(docs: List[Dict]) -> datasets.Dataset:
    """The docs as the dataset ``process_docs`` returns: ``images`` typed as images, so lmms-eval leaves them out of
    the logged docs and ``doc_to_visual`` gets them decoded."""
    dataset = datasets.Dataset.from_list(docs)
    if "images" in dataset.features:
        dataset = dataset.cast_column("images", datasets.List(datasets.Image()))
    return dataset


def make_process_docs(task: str) -> Callable[[datasets.Dataset], datasets.Dataset]:
    """``process_docs_<task>`` on the config lmms-eval loaded: the docs of the task being built (its name and
    metadata, task_options.applied_settings), each naming its task (which ``process_results`` reads), the smallest
    ``--limit`` that asks a main question (0 for a grounding test) and the dataset it came from (``data``)."""

    @stops_run_on((TempVSDataError, TempVSSettingsError, TaskOptionsError))
    def process_docs(dataset: datasets.Dataset) -> datasets.Dataset:
        name, settings = applied_settings(task)
        docs = docs_from_dataset(dataset, settings)
        first_main = next((i for i, doc in enumerate(docs) if doc["kind"] == "main"), -1)
        for doc in docs:
            doc.update(task=name, main_limit=first_main + 1, data=f"{HUB_DATASET_ID}/{config_name(settings)}")
        return as_dataset(docs)

    return process_docs
