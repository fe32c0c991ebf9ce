"""The functions the CaT-Bench task YAMLs name: ``process_docs`` (with or without the switched twins), the prompts and
parsers of the paper's prompt modes (answer only, answer then explain, explain then answer) and the per-doc records of
the metrics."""

from functools import partial

import datasets

from temporal_bench.lmms_eval_tasks.catbench import prompts
from temporal_bench.lmms_eval_tasks.catbench.metrics import process_results_with
from temporal_bench.lmms_eval_tasks.catbench.parsing import PARSERS
from temporal_bench.lmms_eval_tasks.catbench.questions import task_docs


def process_docs(dataset: datasets.Dataset, switched: bool = False) -> datasets.Dataset:
    return datasets.Dataset.from_list(task_docs(dataset, str(dataset.split), switched))


process_docs_catbench = partial(process_docs, switched=False)
process_docs_catbench_switched = partial(process_docs, switched=True)


def doc_to_visual(doc: dict) -> list:
    return []


def doc_to_target(doc: dict) -> str:
    return doc["answer"]


def doc_to_text_answer_only(doc: dict) -> str:
    return prompts.answer_only(doc)


def doc_to_text_explain(doc: dict) -> str:
    return prompts.answer_then_explain(doc)


def doc_to_text_cot(doc: dict) -> str:
    return prompts.explain_then_answer(doc)


process_results_answer_only = process_results_with(PARSERS["answer_only"])
process_results_json = process_results_with(PARSERS["json"])
