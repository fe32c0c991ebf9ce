"""What the upstream export (temporal_bench/export) says about CaT-Bench beyond its code."""

from temporal_bench.export.facts import UpstreamFacts

UPSTREAM = UpstreamFacts(
    summary="Text-only recipe plans: must step i happen before/after step j? The paper's answer-only, answer-then-explain and explain-then-answer settings; the `_switched` variants add NonDep-S twins for Order Contrastive Consistency.",
    hub_dataset="vanyacohen/CaT-Bench",
    build_command=None,
    reference="Lal, Cohen, Chambers, Balasubramanian, Mooney. CaT-Bench: Benchmarking Language Model Understanding of Causal and Temporal Dependencies in Plans. EMNLP 2024",
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
    task_titles={
        "catbench_switched": "Answer only, with the NonDep-S twins for OCC",
        "catbench_explain": "Answer then explain, JSON output",
        "catbench_explain_switched": "Answer then explain, with the NonDep-S twins",
        "catbench_cot": "Explain then answer, JSON output",
        "catbench_cot_switched": "Explain then answer, with the NonDep-S twins",
    },
    smoke_response='{"binary_answer": "yes"}',  # the JSON the explain prompts ask for; answer only reads its first yes
    lm_eval_description="Causal and temporal dependencies between the steps of recipe plans: must one step happen before (or after) another?",
    out_of_scope="Few-shot and self-consistency prompting (Tables 6-7), the natural-language answer-then-explain prompt " "the paper used for Gemini, and another close/distant threshold: settings of the paper's analyses, not its headline.",
)
