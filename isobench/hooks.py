"""The functions the ISO-Bench task YAMLs name (``!function utils.<name>``)."""

from typing import Callable, Dict, List

import datasets

from temporal_bench.isobench import prompts
from temporal_bench.isobench.loading import load_records, open_image
from temporal_bench.isobench.records import COLUMN_MAP_SETTING, SPLIT_SETTING, IsoBenchDataError
from temporal_bench.isobench.metrics import FIELDS_READ, METRIC_NAMES, RECORD_FIELDS
from temporal_bench.isobench.parsing import PARSERS
from temporal_bench.utils.data_dir import DataNotFoundError
from temporal_bench.utils.fail_fast import stops_run_on
from temporal_bench.utils.per_doc import make_process_results
from temporal_bench.utils.task_options import TaskOptionsError, applied_settings


def make_process_docs(task: str) -> Callable:
    """``process_docs_<task>``: the examples under the settings ``column_map`` and ``data_split`` of the
    task being built (its config's metadata, utils/task_options.py; the YAML's dataset is a one-row
    placeholder), from the release or a converted dataset (loading.load_records). Our task folder's utils.py builds one per task YAML:
    ``globals().update(process_docs_per_task(Path(__file__).parent, make_process_docs))``."""

    @stops_run_on((IsoBenchDataError, DataNotFoundError, TaskOptionsError))
    def process_docs(placeholder: datasets.Dataset) -> datasets.Dataset:
        _, settings = applied_settings(task)
        records = load_records(column_map=settings.get(COLUMN_MAP_SETTING), split=settings.get(SPLIT_SETTING))
        return datasets.Dataset.from_list(records)

    return process_docs


def doc_to_visual(doc: Dict) -> List:
    return [open_image(doc)]


def doc_to_target(doc: Dict) -> str:
    return doc["answer"]


def doc_to_text_answer_only(doc: Dict, lmms_eval_specific_kwargs=None) -> str:
    return prompts.answer_only(doc)


def doc_to_text_explain_then_answer(doc: Dict, lmms_eval_specific_kwargs=None) -> str:
    return prompts.explain_then_answer(doc)


process_results_answer_only = make_process_results(PARSERS["answer_only"], RECORD_FIELDS, METRIC_NAMES, FIELDS_READ)
process_results_explain_then_answer = make_process_results(PARSERS["explain_then_answer"], RECORD_FIELDS, METRIC_NAMES, FIELDS_READ)
