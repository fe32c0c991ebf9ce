"""The functions the CaT-Bench task YAMLs name (``!function utils.<name>``)."""

import os
from typing import Dict, List

import datasets

from temporal_bench.catbench import prompts
from temporal_bench.catbench.fewshot import fewshot_prompt
from temporal_bench.catbench.loading import SPLIT_ENV, CatBenchDataError, load_split
from temporal_bench.catbench.metrics import METRIC_NAMES, RECORD_FIELDS
from temporal_bench.catbench.parsing import PARSERS
from temporal_bench.catbench.questions import with_switched_twins
from temporal_bench.utils.data_dir import DataNotFoundError
from temporal_bench.utils.fail_fast import stops_run_on
from temporal_bench.utils.per_doc import make_process_results

DATA_ERRORS = (CatBenchDataError, DataNotFoundError)


def evaluated_split() -> str:
    """The split a run evaluates: ``test`` (the paper's) unless ``CATBENCH_SPLIT`` says otherwise."""
    return os.environ.get(SPLIT_ENV, "test")


def load_questions(switched: bool = False, split: str = None) -> datasets.Dataset:
    questions = load_split(split or evaluated_split())
    return datasets.Dataset.from_list(with_switched_twins(questions) if switched else questions)


# lmms-eval reads the data through process_docs (the YAML's dataset is a one-row placeholder).
@stops_run_on(DATA_ERRORS)
def process_docs(placeholder: datasets.Dataset) -> datasets.Dataset:
    return load_questions()


@stops_run_on(DATA_ERRORS)
def process_docs_with_switched(placeholder: datasets.Dataset) -> datasets.Dataset:
    return load_questions(switched=True)


# lm-eval reads it through custom_dataset, which receives the YAML's metadata and dataset_kwargs
# and lm-eval's --metadata (e.g. --metadata '{"split": "validation", "fewshot_k": 3}').
def custom_dataset(split: str = None, switched: bool = False, fewshot_k: int = 0, pool_split: str = "train", **metadata) -> Dict[str, datasets.Dataset]:
    dataset = load_questions(switched=switched, split=split)
    if fewshot_k:
        _check_pool_split(pool_split, split or evaluated_split())
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
    """lmms-eval: k and pool_split come from the YAML's lmms_eval_specific_kwargs."""
    options = {"k": 5, "pool_split": "train", **(lmms_eval_specific_kwargs or {})}
    _check_pool_split(options["pool_split"], evaluated_split())
    return fewshot_prompt(doc, int(options["k"]), options["pool_split"])


def doc_to_text_precomputed_fewshot(doc: Dict) -> str:
    """lm-eval: the few-shot prompt built by custom_dataset."""
    return doc["fewshot_prompt"]


process_results_answer_only = make_process_results(PARSERS["answer_only"], RECORD_FIELDS, METRIC_NAMES)
process_results_json = make_process_results(PARSERS["json"], RECORD_FIELDS, METRIC_NAMES)
process_results_nl = make_process_results(PARSERS["nl"], RECORD_FIELDS, METRIC_NAMES)

