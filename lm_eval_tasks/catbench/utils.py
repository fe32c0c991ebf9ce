"""The functions lm-eval's CaT-Bench task YAMLs name: those of the lmms-eval CaT-Bench tasks, and ``custom_dataset``,
through which lm-eval hands a task its metadata (the settings, ``--metadata`` on top)."""

from typing import Dict, List

import datasets

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.data_source import (  # noqa: F401
    data_source,
)
from temporal_bench.lmms_eval_tasks.catbench.data import split_questions
from temporal_bench.lmms_eval_tasks.catbench.metrics import (  # noqa: F401 - the YAMLs' aggregations
    f1_dep,
    f1_macro_first,
    f1_nondep,
    failed_count,
    invalid_rate,
    occ,
    precision_dep,
    precision_macro,
    precision_nondep,
    recall_dep,
    recall_macro,
    recall_nondep,
    tc,
)
from temporal_bench.lmms_eval_tasks.catbench.utils import (  # noqa: F401
    doc_to_target,
    doc_to_text_answer_only,
    doc_to_text_cot,
    doc_to_text_explain,
    docs_of,
    process_results_answer_only,
    process_results_json,
)
from temporal_bench.lmms_eval_tasks.catbench_variants.utils import (  # noqa: F401
    doc_to_text_explain_nl,
    doc_to_text_fewshot,
    majority_vote,
    process_results_nl,
    with_fewshot,
)


def custom_dataset(data_split: str = "test", close_max_distance: int = 3, switched: bool = False, fewshot_k: int = 0, pool_split: str = "train", **metadata) -> Dict[str, datasets.Dataset]:
    """The task's docs from its metadata (lm-eval also passes the model arguments, which are ignored): the questions of
    ``data_split``, served as ``test``, from ``CATBENCH_DATA_DIR`` or the hub, as the lmms-eval tasks load them."""
    questions, record = split_questions(data_split)
    docs = docs_of(questions, "CaT-Bench (lm-eval)", record, close_max_distance, switched)
    return {"test": datasets.Dataset.from_list(with_fewshot(docs, data_split, fewshot_k, pool_split) if fewshot_k else docs)}


def vote_each_doc(resps, docs) -> List[str]:
    """The self-consistency filter: one voted answer per doc."""
    return [majority_vote(list(samples)) for samples in resps]
