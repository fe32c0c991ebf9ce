"""What the upstream export (temporal_bench/export) says about ISO-Bench beyond its code."""

from temporal_bench.export.facts import UpstreamFacts

UPSTREAM = UpstreamFacts(
    summary="One video frame of a procedure step plus a plan snippet: must the pictured step come before the "
    "snippet's first step (or after its last)? Answer-only and explain-then-answer prompting, "
    "zero-shot, greedy, at most 120 new tokens.",
    hub_dataset="lmms-lab-eval/ISO-Bench",
    build_command="python lmms_eval/tasks/isobench/isobench_to_hf.py RELEASE_FOLDER ISO-Bench-hf  # then upload ISO-Bench-hf as lmms-lab-eval/ISO-Bench",
    bibtex="""@misc{sadana2025isobench,
    title = "{ISO}-Bench: Benchmarking Multimodal Causal Reasoning in Visual-Language Tasks",
    author = "Sadana, Ananya and Lal, Yash Kumar and Zhou, Jiawei",
    year = "2025",
    eprint = "2507.23135",
    archivePrefix = "arXiv",
    primaryClass = "cs.CV",
}""",
    homepage="https://arxiv.org/abs/2507.23135",
    task_list_section="Specialized Vision Tasks",
)
