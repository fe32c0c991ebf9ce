"""The variant of sources/tempvs_mt1_two.yaml."""

from temporal_bench.lmms_eval_tasks.plugin.tempvs.utils import variant

process_docs_tempvs_mt1_two = variant(["mt1_two"], sources=["pororo"])
