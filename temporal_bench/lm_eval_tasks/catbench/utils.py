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
from temporal_bench.catbench.metrics import (  # noqa: F401
    accuracy,
    f1_dep,
    f1_macro,
    f1_macro_after,
    f1_macro_before,
    f1_macro_close,
    f1_macro_distant,
    f1_nondep,
    invalid_count,
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
from temporal_bench.catbench.self_consistency import vote_each_doc  # noqa: F401
