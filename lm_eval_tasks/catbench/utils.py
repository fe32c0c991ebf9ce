"""The functions the CaT-Bench task YAMLs name: the docs (each step pair of the split asked before and after, with or
without the NonDep-S twins), the prompts and parsers of the paper's prompt modes (answer only, answer then explain,
explain then answer), and the per-doc records and aggregations of the metrics (metrics.py).
"""

from functools import partial

import datasets

from temporal_bench.lmms_eval_tasks.catbench import metrics, prompts
from temporal_bench.lmms_eval_tasks.catbench.parsing import PARSERS
from temporal_bench.lmms_eval_tasks.catbench.questions import task_docs


def process_docs(dataset: datasets.Dataset, switched: bool) -> datasets.Dataset:
    """The split's questions, each NonDep one followed by its twin where ``switched``."""
    return datasets.Dataset.from_list(task_docs(dataset, str(dataset.split), switched))


process_docs_catbench = partial(process_docs, switched=False)
process_docs_catbench_switched = partial(process_docs, switched=True)


def doc_to_target(doc: dict) -> str:
    return doc["answer"]


doc_to_text_answer_only = prompts.answer_only
doc_to_text_explain = prompts.answer_then_explain
doc_to_text_cot = prompts.explain_then_answer
process_results_answer_only = metrics.process_results_with(PARSERS["answer_only"])
process_results_json = metrics.process_results_with(PARSERS["json"])
# the aggregations the YAMLs name (lm-eval finds a YAML's functions in the utils.py beside it)
f1_macro = metrics.f1_macro
precision_macro = metrics.precision_macro
recall_macro = metrics.recall_macro
precision_dep = metrics.precision_dep
recall_dep = metrics.recall_dep
f1_dep = metrics.f1_dep
precision_nondep = metrics.precision_nondep
recall_nondep = metrics.recall_nondep
f1_nondep = metrics.f1_nondep
tc = metrics.tc
occ = metrics.occ
