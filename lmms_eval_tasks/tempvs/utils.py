"""Hooks of the lmms-eval TempVS tasks. lmms-eval loads this file by path as a top-level module,
so it imports the installed package absolutely; each task's process_docs reads that task's
settings from its YAML in this folder (temporal_bench.utils.task_options)."""

from pathlib import Path

from temporal_bench.tempvs.hooks import *  # noqa: F401,F403  (doc_to_*, process_results, make_process_docs)
from temporal_bench.tempvs.metrics import *  # noqa: F401,F403  (the headline aggregations)
from temporal_bench.tempvs.suite import *  # noqa: F401,F403  (the aggregations of --tasks tempvs)
from temporal_bench.utils.data_dir import placeholder_dataset_kwargs
from temporal_bench.utils.task_options import process_docs_per_task

dataset_kwargs = placeholder_dataset_kwargs(Path(__file__).parent)  # the template's (a value, not a function)
globals().update(process_docs_per_task(Path(__file__).parent, make_process_docs))  # noqa: F405
