"""What the upstream export (temporal_bench/export) says about ISO-Bench beyond its code."""

from temporal_bench.export.facts import UpstreamFacts

UPSTREAM = UpstreamFacts(
    summary="One video frame of a procedure step plus a plan snippet: must the pictured step come before the "
    "snippet's first step (or after its last)? Answer-only and explain-then-answer prompting, "
    "zero-shot, greedy, at most 120 new tokens.",
    hub_dataset="lmms-lab-eval/ISO-Bench",
    build_command="python lmms_eval/tasks/isobench/isobench_to_hf.py RELEASE_FOLDER ISO-Bench-hf  # then upload ISO-Bench-hf as lmms-lab-eval/ISO-Bench",
    reference="Sadana, Lal, Zhou. ISO-Bench: Benchmarking Multimodal Causal Reasoning in Visual–Language Models through Procedural Plans. GEM workshop 2026",
    bibtex="""@inproceedings{sadana-etal-2026-iso,
    title = "{ISO}-Bench: Benchmarking Multimodal Causal Reasoning in Visual{--}Language Models through Procedural Plans",
    author = "Sadana, Ananya and Lal, Yash Kumar and Zhou, Jiawei",
    booktitle = "Proceedings of the Fifth Workshop on Generation, Evaluation and Metrics ({GEM})",
    year = "2026",
    address = "San Diego, California, USA",
    publisher = "Association for Computational Linguistics",
    pages = "797--807",
    url = "https://aclanthology.org/2026.gem-main.68/",
    eprint = "2507.23135",
    archivePrefix = "arXiv",
}""",
    homepage="https://arxiv.org/abs/2507.23135",
    task_list_section="Specialized Vision Tasks",
    task_titles={"isobench_cot": "Explain then answer, E→A", "isobench_all": "Both prompt modes"},
    smoke_response="<answer>YES</answer>",  # the tag explain-then-answer asks for; answer only reads its first YES
)
