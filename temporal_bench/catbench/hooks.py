"""The functions the CaT-Bench task YAMLs name (``!function utils.<name>``)."""

import os
from typing import Dict, List

import datasets

from temporal_bench.catbench import prompts
from temporal_bench.catbench.fewshot import fewshot_prompt
from temporal_bench.catbench.loading import load_split
from temporal_bench.catbench.metrics import METRIC_NAMES, make_process_results
from temporal_bench.catbench.parsing import PARSERS
from temporal_bench.catbench.questions import with_switched_twins
from temporal_bench.catbench.self_consistency import vote_each_doc

SPLIT_ENV = "CATBENCH_SPLIT"


def evaluated_split() -> str:
    """The split a run evaluates: ``test`` (the paper's) unless ``CATBENCH_SPLIT`` says otherwise."""
    return os.environ.get(SPLIT_ENV, "test")


def load_questions(switched: bool = False, split: str = None) -> datasets.Dataset:
    questions = load_split(split or evaluated_split())
    return datasets.Dataset.from_list(with_switched_twins(questions) if switched else questions)


# lmms-eval reads the data through process_docs (the YAML's dataset is a one-row placeholder).
def process_docs(placeholder: datasets.Dataset) -> datasets.Dataset:
    return load_questions()


def process_docs_with_switched(placeholder: datasets.Dataset) -> datasets.Dataset:
    return load_questions(switched=True)


# lm-eval reads it through custom_dataset, which also receives --metadata.
def custom_dataset(split: str = None, **metadata) -> Dict[str, datasets.Dataset]:
    return {"test": load_questions(split=split)}


def custom_dataset_with_switched(split: str = None, **metadata) -> Dict[str, datasets.Dataset]:
    return {"test": load_questions(switched=True, split=split)}


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
    options = {"k": 5, "pool_split": "train", **(lmms_eval_specific_kwargs or {})}
    if options["pool_split"] == evaluated_split():
        raise ValueError(f"few-shot exemplars must not come from the evaluated split {evaluated_split()!r}")
    return fewshot_prompt(doc, int(options["k"]), options["pool_split"])


process_results_answer_only = make_process_results(PARSERS["answer_only"], METRIC_NAMES)
process_results_json = make_process_results(PARSERS["json"], METRIC_NAMES)
process_results_nl = make_process_results(PARSERS["nl"], METRIC_NAMES)

self_consistency_vote = vote_each_doc
