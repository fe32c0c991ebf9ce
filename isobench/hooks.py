"""The functions the ISO-Bench task YAMLs name (``!function utils.<name>``)."""

from typing import Dict, List, Optional

import datasets

from temporal_bench.isobench import prompts
from temporal_bench.isobench.loading import IsoBenchDataError, load_records, open_image
from temporal_bench.isobench.metrics import METRIC_NAMES, RECORD_FIELDS
from temporal_bench.isobench.parsing import PARSERS
from temporal_bench.utils.data_dir import DataNotFoundError
from temporal_bench.utils.fail_fast import stops_run_on
from temporal_bench.utils.per_doc import make_process_results


def make_process_docs(column_map: Optional[Dict[str, Optional[str]]] = None, split: Optional[str] = None):
    """A ``process_docs`` with an explicit column map / split, for derived tasks (a task's own utils.py:
    ``process_docs = make_process_docs(column_map={"goal": "recipe_name"})``)."""

    @stops_run_on((IsoBenchDataError, DataNotFoundError))
    def process_docs(placeholder: datasets.Dataset) -> datasets.Dataset:
        return datasets.Dataset.from_list(load_records(column_map=column_map, split=split))

    return process_docs


# lmms-eval reads the data through process_docs (the YAML's dataset is a one-row placeholder);
# the column map comes from ISOBENCH_COLUMN_MAP.
process_docs = make_process_docs()


def doc_to_visual(doc: Dict) -> List:
    return [open_image(doc)]


def doc_to_target(doc: Dict) -> str:
    return doc["answer"]


def doc_to_text_answer_only(doc: Dict, lmms_eval_specific_kwargs=None) -> str:
    return prompts.answer_only(doc)


def doc_to_text_explain_then_answer(doc: Dict, lmms_eval_specific_kwargs=None) -> str:
    return prompts.explain_then_answer(doc)


process_results_answer_only = make_process_results(PARSERS["answer_only"], RECORD_FIELDS, METRIC_NAMES)
process_results_explain_then_answer = make_process_results(PARSERS["explain_then_answer"], RECORD_FIELDS, METRIC_NAMES)
