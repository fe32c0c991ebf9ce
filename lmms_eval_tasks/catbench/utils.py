"""Hooks of the lmms-eval CaT-Bench tasks. lmms-eval loads this file by path as a top-level module,
so it imports the installed package absolutely and holds no logic of its own."""

from pathlib import Path

from lmms_eval.api.filter import Filter

from temporal_bench.catbench.hooks import (  # noqa: F401
    data_source,
    doc_to_target,
    doc_to_text_answer_only,
    doc_to_text_cot,
    doc_to_text_explain,
    doc_to_text_explain_nl,
    doc_to_text_fewshot,
    doc_to_visual,
    make_process_docs,
    process_results_answer_only,
    process_results_json,
    process_results_nl,
)
from temporal_bench.catbench.metrics import *  # noqa: F401,F403  (one aggregation per metric key)
from temporal_bench.catbench.self_consistency import vote_each_doc
from temporal_bench.utils.task_options import process_docs_per_task

# The template's dataset_path and dataset_kwargs (values, not functions, read from the environment
# only): the hub, or the placeholder when CATBENCH_DATA_DIR is set (catbench/hooks.py data_source).
dataset_path, dataset_kwargs = data_source(Path(__file__).parent / "placeholder.jsonl")
globals().update(process_docs_per_task(Path(__file__).parent, make_process_docs))


class SelfConsistencyVote(Filter):
    def apply(self, resps, docs):
        return vote_each_doc(resps, docs)
