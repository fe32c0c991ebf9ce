"""The functions the CaT-Bench task YAMLs name: ``process_docs`` with each task's data settings (which its YAML's
``metadata`` states for the results file), the prompts and parsers of the paper's prompt modes (answer only,
answer then explain, explain then answer) and the metrics' aggregations."""

import inspect
from functools import partial
from typing import Callable, Dict, List

import datasets

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.data_source import DataNotFoundError
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.fail_fast import stops_run_on
from temporal_bench.lmms_eval_tasks.catbench import prompts
from temporal_bench.lmms_eval_tasks.catbench.data import split_questions
from temporal_bench.lmms_eval_tasks.catbench.metrics import make_record, per_metric
from temporal_bench.lmms_eval_tasks.catbench.parsing import PARSERS
from temporal_bench.lmms_eval_tasks.catbench.questions import CatBenchDataError, with_switched_twins


def check_settings(close_max_distance: int = 3, switched: bool = False) -> None:
    """A setting of another kind or out of range is an error naming it (``switched: "no"`` would otherwise read as true)."""
    problems = []
    if isinstance(close_max_distance, bool) or not isinstance(close_max_distance, int) or close_max_distance < 0:
        problems.append(f"close_max_distance {close_max_distance!r}: the largest step distance a pair counts as close, a whole number >= 0")
    if not isinstance(switched, bool):
        problems.append(f"switched {switched!r}: true or false")
    if problems:
        raise CatBenchDataError("CaT-Bench task settings: " + "; ".join(problems))


def docs_of(questions: List[Dict], task: str, record: Dict, close_max_distance: int = 3, switched: bool = False) -> List[Dict]:
    """The docs of a task: the questions (with a NonDep-S twin per NonDep question when ``switched``), each naming its
    task, the ``close_max_distance`` setting and the data's fingerprint and record."""
    check_settings(close_max_distance, switched)
    questions = with_switched_twins(questions) if switched else questions
    return [{**q, "task": task, "close_max_distance": close_max_distance, "data": record["fingerprint"], "data_source": record} for q in questions]


@stops_run_on((CatBenchDataError, DataNotFoundError))
def process_docs(dataset: datasets.Dataset, task: str, close_max_distance: int = 3, switched: bool = False) -> datasets.Dataset:
    """The task's docs from the split lmms-eval loaded (``CATBENCH_DATA_DIR`` or the hub instead where it loaded a task
    folder's one-row placeholder; no dataset: the test split)."""
    split = str(dataset.split) if dataset is not None else "test"
    questions, record = split_questions(split, dataset if dataset is not None and "steps" in dataset.column_names else None)
    return datasets.Dataset.from_list(docs_of(questions, task, record, close_max_distance, switched))


def variant(name: str, **settings) -> partial:
    """The ``process_docs`` of the task ``name`` with these settings (which its YAML's metadata states); a setting it does
    not take is an error when the task's YAML is loaded."""
    inspect.signature(process_docs).bind(None, task=name, **settings)
    check_settings(**settings)
    return partial(process_docs, task=name, **settings)


process_docs_catbench = variant("catbench")
process_docs_catbench_switched = variant("catbench_switched", switched=True)
process_docs_catbench_explain = variant("catbench_explain")
process_docs_catbench_explain_switched = variant("catbench_explain_switched", switched=True)
process_docs_catbench_cot = variant("catbench_cot")
process_docs_catbench_cot_switched = variant("catbench_cot_switched", switched=True)


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
        return {**per_metric(make_record(doc, results[0] if results else None, parse)), "data_source": doc["data_source"]}

    return process_results


process_results_answer_only = process_results_with(PARSERS["answer_only"])
process_results_json = process_results_with(PARSERS["json"])
