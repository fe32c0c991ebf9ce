"""Hooks of the lmms-eval ISO-Bench tasks. lmms-eval loads this file by path as a top-level module,
so it imports the installed package absolutely and holds no logic of its own."""

from pathlib import Path

from temporal_bench.isobench.hooks import (  # noqa: F401
    doc_to_target,
    doc_to_text_answer_only,
    doc_to_text_explain_then_answer,
    doc_to_visual,
    make_process_docs,
    process_results_answer_only,
    process_results_explain_then_answer,
)
from temporal_bench.isobench.metrics import *  # noqa: F401,F403  (one aggregation per headline metric key)
from temporal_bench.utils.data_dir import placeholder_dataset_kwargs
from temporal_bench.utils.task_options import process_docs_per_task

dataset_kwargs = placeholder_dataset_kwargs(Path(__file__).parent)  # the template's (a value, not a function)
# process_docs_<task> for every task YAML of this folder, each with its YAML's settings
globals().update(process_docs_per_task(Path(__file__).parent, make_process_docs))
