"""The docs of a task as its YAML's ``process_docs`` builds them from a benchmark's data folder, outside a harness
(the function called with no dataset reads the folder the data variable names, as a plugin run does)."""

import re
from pathlib import Path
from typing import Dict, List, Optional

from temporal_bench.data_locations import data_locations
from temporal_bench.paths import LMMS_EVAL_TASK_DIR

DATA_ENVS = {"tempvs": "TEMPVS_DATA_DIR", "catbench": "CATBENCH_DATA_DIR", "isobench": "ISOBENCH_DATA_DIR"}


def task_yaml(task: str) -> Path:
    """The YAML of ``task``, in its benchmark's folder or its variants'."""
    (path,) = Path(LMMS_EVAL_TASK_DIR).glob(f"*/{task}.yaml")
    return path


def process_docs_of(task: str):
    """The ``process_docs`` function the task's YAML names."""
    import importlib

    path = task_yaml(task)
    name = re.search(r"process_docs:\s*!function\s+utils\.(\w+)", path.read_text(encoding="utf-8")).group(1)
    return getattr(importlib.import_module(f"temporal_bench.lmms_eval_tasks.{path.parent.name}.utils"), name)


def task_docs(task: str, data_dir: Optional[Path] = None, dataset=None) -> List[Dict]:
    """The docs of ``task`` from ``data_dir`` (the benchmark's data variable set to it while they are built)."""
    benchmark = task.split("_", 1)[0]
    with data_locations({DATA_ENVS[benchmark]: str(data_dir)} if data_dir is not None else {}):
        return list(process_docs_of(task)(dataset))


class LoadReport:
    """What a TempVS task logs of its data: ``counts[task id][source]``, the rows at each filter stage."""

    def __init__(self, stages: Dict):
        self.counts: Dict[str, Dict[str, Dict[str, int]]] = {}
        for (task_id, source), counts in stages.items():
            self.counts.setdefault(task_id, {})[source] = counts


def tempvs_main_docs(tests, mode: str = "standard", visual: str = "combined", blind_filter: bool = True, data_dir: Optional[Path] = None, sources=None, with_grounding: bool = True, read=None) -> tuple:
    """(docs, LoadReport) of TempVS test(s) built from the release in ``data_dir`` (as docs.release_docs; ``with_grounding``
    follows the mode)."""
    from temporal_bench.lmms_eval_tasks.tempvs.docs import release_docs, stage_counts
    from temporal_bench.lmms_eval_tasks.tempvs.spec import SOURCES
    from temporal_bench.lmms_eval_tasks.tempvs.tempvs_to_hf import find_root

    tests = [tests] if isinstance(tests, str) else list(tests)
    docs, kept, counts, _ = release_docs(find_root(Path(data_dir)), tests, mode, visual, blind_filter, tuple(sources or SOURCES), read=read)
    return [doc for doc in docs if with_grounding or doc["kind"] == "main"], LoadReport(stage_counts(counts, kept, blind_filter))


def tempvs_grounding_docs(task_id: str, visual: str = "combined", data_dir: Optional[Path] = None) -> tuple:
    """(docs, LoadReport) of a TempVS grounding test alone (its official task id)."""
    from temporal_bench.lmms_eval_tasks.tempvs.spec import TEST_NAMES

    return tempvs_main_docs(TEST_NAMES[task_id], visual=visual, blind_filter=False, data_dir=data_dir)


def catbench_split(split: str, data_dir: Optional[Path] = None, pool: bool = False) -> List[Dict]:
    """The questions of a CaT-Bench split in ``data_dir`` (else where the environment says)."""
    from temporal_bench.lmms_eval_tasks.catbench.data import split_questions

    with data_locations({"CATBENCH_DATA_DIR": str(data_dir)} if data_dir is not None else {}):
        return split_questions(split, pool=pool)[0]


def isobench_records(data_dir: Optional[Path] = None, column_map=None, split: Optional[str] = None) -> List[Dict]:
    """The normalised ISO-Bench records of the release in ``data_dir`` (else where the environment says), each with the
    data's fingerprint (``data``)."""
    from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.data_source import local_data_dir
    from temporal_bench.lmms_eval_tasks.isobench.isobench_to_hf import DATA_DIR_ENV, LOCAL_LAYOUT, release_records

    records, source = release_records(Path(data_dir) if data_dir is not None else local_data_dir(DATA_DIR_ENV, LOCAL_LAYOUT), column_map, split)
    return [{**record, "data": source["fingerprint"]} for record in records]
