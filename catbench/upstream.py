"""What the upstream export (temporal_bench/export) says about CaT-Bench beyond its code."""

from temporal_bench.export.facts import UpstreamFacts

UPSTREAM = UpstreamFacts(
    summary="Text-only recipe plans: must step i happen before/after step j? The paper's answer-only, answer-then-explain and explain-then-answer settings; the `_switched` variants add NonDep-S twins for Order Contrastive Consistency.",
    hub_dataset="vanyacohen/CaT-Bench",
    build_command=None,
    bibtex="""@inproceedings{lal-etal-2024-cat,
    title = "{C}a{T}-Bench: Benchmarking Language Model Understanding of Causal and Temporal Dependencies in Plans",
    author = "Lal, Yash Kumar and Cohen, Vanya and Chambers, Nathanael and Balasubramanian, Niranjan and Mooney, Raymond",
    booktitle = "Proceedings of the 2024 Conference on Empirical Methods in Natural Language Processing",
    year = "2024",
    publisher = "Association for Computational Linguistics",
    eprint = "2406.15823",
    archivePrefix = "arXiv",
}""",
    homepage="https://github.com/StonyBrookNLP/CaT-Bench",
    task_list_section="Text-only Language Tasks",
)
