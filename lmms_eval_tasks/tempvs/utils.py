"""Hooks of the lmms-eval TempVS tasks. lmms-eval loads this file by path as a top-level module,
so it imports the installed package absolutely and holds no logic of its own."""

from temporal_bench.tempvs.hooks import *  # noqa: F401,F403  (process_docs_<task>, doc_to_*, process_results_<family>)
from temporal_bench.tempvs.metrics import *  # noqa: F401,F403  (one aggregation per metric key)
