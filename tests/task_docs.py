"""The docs of a task as this package's tasks build them from a benchmark's data folder, outside a harness (the
function called on a one-row placeholder reads the folder the data variable names, as a run does)."""

import re
from pathlib import Path

import datasets

from temporal_bench.data_locations import data_locations
from temporal_bench.manifest import manifests
from temporal_bench.paths import PLUGIN_TASK_DIR


def task_yaml(task: str) -> Path:
    """The YAML of ``task`` as this package registers it."""
    (path,) = Path(PLUGIN_TASK_DIR).glob(f"*/{task}.yaml")
    return path


def process_docs_of(task: str):
    """The ``process_docs`` function the task's YAML names."""
    import importlib

    path = task_yaml(task)
    name = re.search(r"process_docs:\s*!function\s+utils\.(\w+)", path.read_text(encoding="utf-8"))
    name = name.group(1) if name else f"process_docs_{path.parent.name}"  # a task whose template names it
    return getattr(importlib.import_module(f"temporal_bench.lmms_eval_tasks.plugin.{path.parent.name}.utils"), name)


def placeholder(split: str = "test") -> datasets.Dataset:
    """What lmms-eval loads for this package's tasks: a one-row placeholder of the split."""
    return datasets.Dataset.from_list([{"placeholder": ""}], split=datasets.Split(split))


def task_docs(task: str, data_dir: Path | None = None, split: str = "test") -> list[dict]:
    """The docs of ``task`` from ``data_dir`` (the benchmark's data variable set to it while they are built)."""
    benchmark = task.split("_", 1)[0]
    with data_locations({manifests()[benchmark].data_variable: str(data_dir)} if data_dir is not None else {}):
        return list(process_docs_of(task)(placeholder(split)))


class LoadReport:
    """The rows a TempVS release gives: ``counts[task id][source]``, the rows at each filter stage."""

    def __init__(self, stages: dict):
        self.counts: dict[str, dict[str, dict[str, int]]] = {}
        for (task_id, source), counts in stages.items():
            self.counts.setdefault(task_id, {})[source] = counts


def tempvs_main_docs(tests, mode: str = "standard", visual: str = "combined", blind_filter: bool = True, data_dir: Path | None = None, sources=None, with_grounding: bool = True, read=None) -> tuple:
    """(docs, LoadReport) of TempVS test(s) built from the release in ``data_dir``, as this package's tasks build them
    (``with_grounding``: with the grounding questions the mode asks)."""
    from temporal_bench.lmms_eval_tasks.plugin.tempvs.release import find_root, release_question_rows
    from temporal_bench.lmms_eval_tasks.plugin.tempvs.utils import variant_docs
    from temporal_bench.lmms_eval_tasks.tempvs.spec import MAIN_TESTS, SOURCES

    tests = [tests] if isinstance(tests, str) else list(tests)
    sources = tuple(sources or SOURCES)
    questions = release_question_rows(find_root(Path(data_dir)), tests, ("standard", mode), blind_filter or mode == "blind", sources, read, visual == "separate")
    docs = list(variant_docs(datasets.Dataset.from_list(questions.rows), tests, False, mode, visual, blind_filter, (), sources))
    filtered = {spec.task_id for spec in MAIN_TESTS.values() if spec.blind_filtered} if blind_filter else set()
    stages = {key: {**counts, **({"after_blind_filter": sum(d["kind"] == "main" and (d["task_id"], d["source"]) == key for d in docs)} if key[0] in filtered else {})} for key, counts in questions.counts.items()}
    return [doc for doc in docs if with_grounding or doc["kind"] == "main"], LoadReport(stages)


def tempvs_grounding_docs(task_id: str, visual: str = "combined", data_dir: Path | None = None) -> tuple:
    """(docs, LoadReport) of a TempVS grounding test alone (its official task id)."""
    from temporal_bench.lmms_eval_tasks.tempvs.spec import TEST_NAMES

    return tempvs_main_docs(TEST_NAMES[task_id], visual=visual, blind_filter=False, data_dir=data_dir)


def catbench_split(split: str, data_dir: Path | None = None, pool: bool = False) -> list[dict]:
    """The questions of a CaT-Bench split in ``data_dir`` (else where the environment says): its step pairs' before and
    after questions (the few-shot pool's: in the order of its files)."""
    from temporal_bench.lmms_eval_tasks.catbench.questions import questions_of_rows
    from temporal_bench.lmms_eval_tasks.plugin.catbench.release import pool_questions, split_rows

    with data_locations({"CATBENCH_DATA_DIR": str(data_dir)} if data_dir is not None else {}):
        return pool_questions(split) if pool else questions_of_rows(split_rows(split), split)


def isobench_records(data_dir: Path | None = None, column_map=None, split: str | None = None) -> list[dict]:
    """The ISO-Bench rows of the release in ``data_dir`` (else where the environment says), as this package's tasks read
    them (each with ``image_path``)."""
    from temporal_bench.lmms_eval_tasks.plugin.isobench.release import release_rows

    with data_locations({"ISOBENCH_DATA_DIR": str(data_dir)} if data_dir is not None else {}):
        return [{key: value for key, value in row.items() if key != "image"} for row in release_rows(split, column_map).cast_column("image", datasets.Image(decode=False))]
