"""The functions the CaT-Bench task YAMLs name (``!function utils.<name>``).

Data (docs/catbench.md "Data"): lmms-eval loads the hub dataset ``vanyacohen/CaT-Bench`` itself
(``dataset_path``) and each task's ``process_docs`` expands its step pairs into questions (the
plugin can read a local copy of the release instead, see ``data_source``).
"""

import os
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

import datasets

from temporal_bench.catbench import prompts
from temporal_bench.catbench.fewshot import fewshot_prompt
from temporal_bench.catbench.loading import (
    DATA_DIR_ENV, HUB_ID, LOCAL_LAYOUT, SPLITS, CatBenchDataError, hub_questions, read_split,
)
from temporal_bench.catbench.metrics import make_record, per_metric
from temporal_bench.catbench.parsing import PARSERS
from temporal_bench.catbench.hub_dataset import as_docs
from temporal_bench.catbench.settings import RemovedSettingError, refuse_removed_env
from temporal_bench.utils.data_dir import OFFLINE_ENVS, DataNotFoundError, from_hub
from temporal_bench.utils.fail_fast import stops_run_on
from temporal_bench.utils.task_options import TaskOptionsError, applied_settings

DATA_ERRORS = (CatBenchDataError, DataNotFoundError, RemovedSettingError, TaskOptionsError)


def data_source(placeholder: Path) -> Tuple[str, Optional[Dict]]:
    """lmms-eval's ``dataset_path`` and ``dataset_kwargs`` (computed when lmms-eval imports the task's
    utils, so they raise nothing): the hub dataset, or the one-row ``placeholder`` as each split (a
    task's test_split still names the split that ``process_docs`` reads, which it checks) when
    ``CATBENCH_DATA_DIR`` is set, or when offline mode is on and the hub dataset is not cached: then
    ``process_docs`` raises the error that says so when the data is loaded (lmms-eval would retry its
    own load and end on a bare RetryError)."""
    if _local() or (_offline() and not _hub_cached()):
        return "json", {"data_files": {split: str(placeholder) for split in SPLITS}}
    return HUB_ID, None


def _local() -> bool:
    """Whether the data comes from ``CATBENCH_DATA_DIR`` (checked where it is read)."""
    return bool(os.environ.get(DATA_DIR_ENV, "").strip())


def _offline() -> bool:
    return any(os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on") for name in OFFLINE_ENVS)


def _check_cached() -> None:
    """Offline, a DataNotFoundError naming the fix unless the hub dataset is in the datasets cache
    (a read-only look-up: no network, no file written)."""
    from_hub(lambda: datasets.load_dataset_builder(HUB_ID), HUB_ID, DATA_DIR_ENV, LOCAL_LAYOUT)


def _hub_cached() -> bool:
    try:
        _check_cached()
    except DataNotFoundError:
        return False
    return True


def questions_dataset(questions: List[Dict], fingerprint: str, settings: Dict) -> datasets.Dataset:
    """The docs of a task (hub_dataset.as_docs), each carrying the data fingerprint into its record."""
    return datasets.Dataset.from_list([{**doc, "data": fingerprint} for doc in as_docs(questions, settings)])


def make_process_docs(task: str) -> Callable[[datasets.Dataset], datasets.Dataset]:
    """lmms-eval's ``process_docs_<task>`` (utils/task_options.py): the split lmms-eval loaded,
    expanded into questions, or the same split read from ``CATBENCH_DATA_DIR``."""

    @stops_run_on(DATA_ERRORS)
    def process_docs(dataset: datasets.Dataset) -> datasets.Dataset:
        refuse_removed_env()
        settings = applied_settings(task)[1]
        if not _local():
            if _offline():
                _check_cached()
            questions, fingerprint = hub_questions(dataset)
        else:
            questions, fingerprint = read_split(str(dataset.split))
        return questions_dataset(questions, fingerprint, settings)

    return process_docs


def custom_dataset(data_split: str = "test", fewshot_k: int = 0, pool_split: str = "train", **metadata) -> Dict[str, datasets.Dataset]:
    """lm-eval: the task's docs from its metadata (and ``--metadata``; lm-eval also passes the model
    arguments, which are ignored), loaded the same ways as ``process_docs`` does, as lm-eval hands the
    task settings only to ``custom_dataset``. The evaluated split is ``data_split``, served as ``test``."""
    refuse_removed_env()
    questions, fingerprint = read_split(data_split)
    dataset = questions_dataset(questions, fingerprint, metadata)
    if fewshot_k:
        _check_pool_split(pool_split, data_split)
        dataset = dataset.map(lambda doc: {"fewshot_prompt": fewshot_prompt(doc, int(fewshot_k), pool_split)})
    return {"test": dataset}


def _check_pool_split(pool_split: str, split: str) -> None:
    if pool_split == split:
        raise ValueError(f"few-shot exemplars must not come from the evaluated split {split!r}")


def doc_to_visual(doc: Dict) -> List:
    return []


def doc_to_target(doc: Dict) -> str:
    return doc["answer"]


def doc_to_text_answer_only(doc: Dict, lmms_eval_specific_kwargs=None) -> str:
    return prompts.answer_only(doc)


def doc_to_text_explain(doc: Dict, lmms_eval_specific_kwargs=None) -> str:
    return prompts.answer_then_explain(doc)


def doc_to_text_explain_nl(doc: Dict, lmms_eval_specific_kwargs=None) -> str:
    return prompts.answer_then_explain_nl(doc)


def doc_to_text_cot(doc: Dict, lmms_eval_specific_kwargs=None) -> str:
    return prompts.explain_then_answer(doc)


def doc_to_text_fewshot(doc: Dict, lmms_eval_specific_kwargs=None) -> str:
    """lmms-eval: k and pool_split come from the YAML's lmms_eval_specific_kwargs; a pool that is
    the evaluated split fails (fewshot.ExemplarRetriever finds the question in it)."""
    options = {"k": 5, "pool_split": "train", **(lmms_eval_specific_kwargs or {})}
    return fewshot_prompt(doc, int(options["k"]), options["pool_split"])


def doc_to_text_precomputed_fewshot(doc: Dict) -> str:
    """lm-eval: the few-shot prompt built by custom_dataset."""
    return doc["fewshot_prompt"]


def _process_results(parse: Callable[[str], str]) -> Callable:
    """``process_results``: the doc's record (metrics.make_record), spread over the metric keys by metrics.per_metric."""

    def process_results(doc: Dict, results: List[str]) -> Dict:
        return per_metric(make_record(doc, results[0] if results else None, parse))

    return process_results


process_results_answer_only = _process_results(PARSERS["answer_only"])
process_results_json = _process_results(PARSERS["json"])
process_results_nl = _process_results(PARSERS["nl"])
