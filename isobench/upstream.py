"""What the upstream export (temporal_bench/export) says about ISO-Bench beyond its code."""

from temporal_bench.export.facts import UpstreamFacts
from temporal_bench.lmms_eval_tasks.isobench import isobench_to_hf as loading

UPSTREAM = UpstreamFacts(
    summary="One video frame of a procedure step plus a plan snippet: must the pictured step come before the "
    "snippet's first step (or after its last)? Answer-only and explain-then-answer prompting, "
    "zero-shot, greedy, at most 120 new tokens.",
    source_hub_id=loading.HUB_ID,
    data_dir_env=loading.DATA_DIR_ENV,
    local_layout="a saved Hugging Face dataset, or `*.json` / `*.jsonl` / `*.parquet` files with embedded images " "or image paths relative to the data file",
    bibtex="""@misc{sadana2025isobench,
    title = "{ISO}-Bench: Benchmarking Multimodal Causal Reasoning in Visual-Language Tasks",
    author = "Sadana, Ananya and Lal, Yash Kumar and Zhou, Jiawei",
    year = "2025",
    eprint = "2507.23135",
    archivePrefix = "arXiv",
    primaryClass = "cs.CV",
}""",
)
