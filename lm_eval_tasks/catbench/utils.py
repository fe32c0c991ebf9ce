"""Hooks of the lm-eval CaT-Bench tasks (loaded by file path; imports the installed package)."""

from temporal_bench.catbench.hooks import (  # noqa: F401
    custom_dataset,
    doc_to_target,
    doc_to_text_answer_only,
    doc_to_text_cot,
    doc_to_text_explain,
    doc_to_text_explain_nl,
    doc_to_text_precomputed_fewshot,
    process_results_answer_only,
    process_results_json,
    process_results_nl,
)
from temporal_bench.catbench.metrics import *  # noqa: F401,F403  (one aggregation per metric key)
from temporal_bench.catbench.self_consistency import vote_each_doc  # noqa: F401
