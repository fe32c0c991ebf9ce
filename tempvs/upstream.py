"""What the upstream export (temporal_bench/export) says about TempVS beyond its code."""

from temporal_bench.export.facts import UpstreamFacts

UPSTREAM = UpstreamFacts(
    summary="Multi-image stories: do multimodal models capture the order of events in image sequences? "
    "Three main tests (MT1 event relation inference, MT2 sentence ordering, MT3 image ordering), "
    "each asked together with the grounding tests (GT: which image shows each event) that its "
    "metrics need, so one task gives the paper's GT, GT_strict, MT and MT|GT_strict.",
    hub_dataset="lmms-lab-eval/TempVS",
    build_command="python lmms_eval/tasks/tempvs/tempvs_to_hf.py RELEASE_FOLDER TempVS-hf  # then upload TempVS-hf as lmms-lab-eval/TempVS",
    bibtex="""@inproceedings{song-etal-2025-burn,
    title = "Burn After Reading: Do Multimodal Large Language Models Truly Capture Order of Events in Image Sequences?",
    author = "Song, Yingjin and Du, Yupei and Paperno, Denis and Gatt, Albert",
    booktitle = "Findings of the Association for Computational Linguistics: ACL 2025",
    year = "2025",
    publisher = "Association for Computational Linguistics",
    eprint = "2506.10415",
    archivePrefix = "arXiv",
}""",
    homepage="https://github.com/yjsong22/TempVS",
    task_list_section="Multi-image Tasks",
)
