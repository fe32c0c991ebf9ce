"""The functions the CaT-Bench task YAMLs name: ``process_docs`` (with or without the switched twins, as its YAML's
``metadata`` states), the prompts and parsers of the paper's prompt modes (answer only, answer then explain, explain
then answer) and the per-doc records of the metrics."""

from functools import partial
from typing import Callable, Dict, List

import datasets

from temporal_bench.lmms_eval_tasks.catbench import prompts
from temporal_bench.lmms_eval_tasks.catbench.metrics import make_record, per_metric
from temporal_bench.lmms_eval_tasks.catbench.parsing import PARSERS
from temporal_bench.lmms_eval_tasks.catbench.questions import questions_of_rows, with_switched_twins


def process_docs(dataset: datasets.Dataset, switched: bool = False) -> datasets.Dataset:
    """The questions of the split's step pairs; with ``switched``, each NonDep question followed by its twin."""
    questions = questions_of_rows(dataset, str(dataset.split))
    questions = with_switched_twins(questions) if switched else questions
    return datasets.Dataset.from_list([{**question, "switched": switched} for question in questions])


process_docs_catbench = partial(process_docs, switched=False)
process_docs_catbench_switched = partial(process_docs, switched=True)


def doc_to_visual(doc: Dict) -> List:
    return []


def doc_to_target(doc: Dict) -> str:
    return doc["answer"]


def doc_to_text_answer_only(doc: Dict, lmms_eval_specific_kwargs=None) -> str:
    return prompts.answer_only(doc)


def doc_to_text_explain(doc: Dict, lmms_eval_specific_kwargs=None) -> str:
    return prompts.answer_then_explain(doc)


def doc_to_text_cot(doc: Dict, lmms_eval_specific_kwargs=None) -> str:
    return prompts.explain_then_answer(doc)


def process_results_with(parse: Callable[[str], str]) -> Callable:
    def process_results(doc: Dict, results: List[str]) -> Dict:
        return per_metric(make_record(doc, results[0] if results else None, parse), doc["switched"])

    return process_results


process_results_answer_only = process_results_with(PARSERS["answer_only"])
process_results_json = process_results_with(PARSERS["json"])
