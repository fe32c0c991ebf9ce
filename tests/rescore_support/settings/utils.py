"""The variants of settings/*.yaml: the registered tasks' process_docs under other settings."""

from temporal_bench.lmms_eval_tasks.plugin.catbench.utils import variant as catbench_variant
from temporal_bench.lmms_eval_tasks.plugin.tempvs.utils import variant as tempvs_variant

process_docs_tempvs_mt1_two = tempvs_variant(["mt1_two"], fixes=["extraction"])
process_docs_catbench_switched = catbench_variant(switched=True, close_max_distance=1)
