"""What the upstream export (temporal_bench/export) says about CaT-Bench beyond its code."""

from temporal_bench.catbench import loading
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
    # the retired variables, the lm-eval route (lm-eval's custom_dataset and its few-shot prompt) and the
    # release route (CATBENCH_DATA_DIR, the placeholder): the export reads the split lmms-eval loaded (hub_dataset.py)
    plugin_only=frozenset(
        {"REMOVED_ENV", "RemovedSettingError", "refuse_removed_env", "custom_dataset", "_check_pool_split", "doc_to_text_precomputed_fewshot"}
        | {"DataNotFoundError", "hooks.make_process_docs", "data_source", "_local", "_offline", "_check_cached", "_hub_cached", "questions_dataset", "hooks.DATA_ERRORS"}
    ),
    # the plugin takes these from its release reader (loading.py), which the export does not carry
    imported_from={"CatBenchDataError": "temporal_bench.catbench.questions", "load_split": "temporal_bench.catbench.hub_dataset"},
)
