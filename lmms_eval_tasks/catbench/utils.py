"""Hooks of the lmms-eval CaT-Bench tasks. lmms-eval loads this file by path as a top-level module,
so it imports the installed package absolutely and holds no logic of its own."""

from lmms_eval.api.filter import Filter

from temporal_bench.catbench.hooks import (  # noqa: F401
    doc_to_target,
    doc_to_text_answer_only,
    doc_to_text_cot,
    doc_to_text_explain,
    doc_to_text_explain_nl,
    doc_to_text_fewshot,
    doc_to_visual,
    process_docs,
    process_docs_with_switched,
    process_results_answer_only,
    process_results_json,
    process_results_nl,
)
from temporal_bench.catbench.metrics import *  # noqa: F401,F403  (one aggregation per metric key)
from temporal_bench.catbench.self_consistency import vote_each_doc


class SelfConsistencyVote(Filter):
    def apply(self, resps, docs):
        return vote_each_doc(resps, docs)
