"""The functions lm-eval's CaT-Bench task YAMLs name: those of the lmms-eval CaT-Bench tasks, and ``custom_dataset``,
through which lm-eval hands a task its metadata (the settings, ``--metadata`` on top)."""

import datasets

from temporal_bench.lmms_eval_tasks.catbench.metrics import (  # noqa: F401 - the YAMLs' aggregations
    f1_dep,
    f1_macro,
    f1_nondep,
    occ,
    precision_dep,
    precision_macro,
    precision_nondep,
    recall_dep,
    recall_macro,
    recall_nondep,
    tc,
)
from temporal_bench.lmms_eval_tasks.catbench.questions import CatBenchDataError
from temporal_bench.lmms_eval_tasks.catbench.utils import (  # noqa: F401
    doc_to_target,
    doc_to_text_answer_only,
    doc_to_text_cot,
    doc_to_text_explain,
    process_results_answer_only,
    process_results_json,
)
from temporal_bench.lmms_eval_tasks.plugin.catbench.release import split_rows
from temporal_bench.lmms_eval_tasks.plugin.catbench.utils import (  # noqa: F401
    close_docs,
    doc_to_text_explain_nl,
    doc_to_text_fewshot,
    fewshot_docs,
    majority_vote,
    process_results_nl,
)
from temporal_bench.lmms_eval_tasks.plugin.data_routes import DataNotFoundError, stops_run_on


@stops_run_on((CatBenchDataError, DataNotFoundError))
def custom_dataset(data_split: str = "test", close_max_distance: int = 3, switched: bool = False, fewshot_k: int = 0, pool_split: str = "train", **metadata) -> dict[str, datasets.Dataset]:
    """The task's docs from its metadata (lm-eval also passes the model arguments, which are ignored): the questions of
    ``data_split``, served as ``test``, from ``CATBENCH_DATA_DIR`` or the hub, as the lmms-eval tasks load them."""
    rows = split_rows(data_split)
    docs = fewshot_docs(rows, switched, close_max_distance, fewshot_k, pool_split) if fewshot_k else close_docs(rows, switched, close_max_distance)
    return {"test": docs}


def vote_each_doc(resps, docs) -> list[str]:
    """The self-consistency filter: one voted answer per doc."""
    return [majority_vote(list(samples)) for samples in resps]
