"""What the upstream export (temporal_bench/export) says about TempVS beyond its code."""

from temporal_bench.export.facts import UpstreamFacts

UPSTREAM = UpstreamFacts(
    summary="Multi-image stories: do multimodal models capture the order of events in image sequences? "
    "Three main tests (MT1 event relation inference, MT2 sentence ordering, MT3 image ordering), "
    "each asked together with the grounding tests (GT: which image shows each event) that its "
    "metrics need, so one task gives the paper's GT, GT_strict, MT and MT|GT_strict.",
    hub_dataset="lmms-lab-eval/TempVS",
    build_command="python lmms_eval/tasks/tempvs/tempvs_to_hf.py RELEASE_FOLDER TempVS-hf  # then upload TempVS-hf as lmms-lab-eval/TempVS",
    reference="Song, Du, Paperno, Gatt. Burn After Reading: Do Multimodal Large Language Models Truly Capture Order of Events in Image Sequences? Findings of ACL 2025",
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
    task_titles={
        "tempvs_mt1_two": "MT1 event relation inference, two events",
        "tempvs_mt1_three": "MT1 event relation inference, three events",
        "tempvs_mt2_event": "MT2 sentence ordering, extracted events",
        "tempvs_mt2_caption": "MT2 sentence ordering, captions",
        "tempvs_mt3_event": "MT3 image ordering, extracted events",
        "tempvs_mt3_caption": "MT3 image ordering, captions",
        "tempvs_mt1": "MT1, both event counts",
        "tempvs_mt2": "MT2, events and captions",
        "tempvs_mt3": "MT3, events and captions",
    },
    smoke_response="Image 1 option A",  # a grounding question's image number and a main question's option letter
    out_of_scope="The paper's ablations (chain-of-thought prompting, one image per event instead of the combined strip, "
    "the text-only and unfiltered runs, MT3 without its text, the grounding tests alone): no headline number comes from "
    "them, and most need the release's files the converted dataset does not hold (the frames, the other prompts). "
    "`tempvs` is the group of the six tests, each asking its own grounding questions: 63,608 requests at the release's "
    "size (a synthetic release of Table 2's counts). One task asking each distinct grounding question once for all six "
    "would send 39,541 (38% fewer) for the same 24 numbers, at the cost of 60 more lines of Python (the join of each "
    "distinct question to the questions it answers) and an 83-line YAML; a follow-up can add it.",
)
