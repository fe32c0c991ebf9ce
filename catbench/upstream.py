"""What the upstream export (temporal_bench/export) says about CaT-Bench beyond its code."""

from temporal_bench.lmms_eval_tasks.catbench import data as loading
from temporal_bench.export.facts import UpstreamFacts

UPSTREAM = UpstreamFacts(
    summary="Text-only recipe plans: must step i happen before/after step j? Answer-only, answer-then-explain, "
    "explain-then-answer, few-shot (BM25 exemplars) and self-consistency settings; the `_switched` "
    "variants add NonDep-S twins for Order Contrastive Consistency.",
    source_hub_id=loading.HUB_ID,
    data_dir_env=loading.DATA_DIR_ENV,
    local_layout="the original release (`{dependent,nondependent}_real_{before,after}.jsonl` of a split, or a root " "with `{train,val,test}_must_why/`), or the Hugging Face files `train.jsonl` / `val.jsonl` / `test.jsonl`",
    bibtex="""@inproceedings{lal-etal-2024-cat,
    title = "{C}a{T}-Bench: Benchmarking Language Model Understanding of Causal and Temporal Dependencies in Plans",
    author = "Lal, Yash Kumar and Cohen, Vanya and Chambers, Nathanael and Balasubramanian, Niranjan and Mooney, Raymond",
    booktitle = "Proceedings of the 2024 Conference on Empirical Methods in Natural Language Processing",
    year = "2024",
    publisher = "Association for Computational Linguistics",
    eprint = "2406.15823",
    archivePrefix = "arXiv",
}""",
)
