"""What the upstream export (temporal_bench/export) says about TempVS beyond its code."""

from temporal_bench.export.facts import Substitution, UpstreamFacts

UPSTREAM = UpstreamFacts(
    summary="Multi-image stories: do multimodal models capture the order of events in image sequences? "
    "Three main tests (MT1 event relation inference, MT2 sentence ordering, MT3 image ordering), "
    "each asked together with the grounding tests (GT: which image shows each event) that its "
    "metrics need, so one task gives the paper's GT, GT_strict, MT and MT|GT_strict.",
    hub_dataset="lmms-lab-eval/TempVS",
    build_command="python lmms_eval/tasks/tempvs/tempvs_to_hf.py RELEASE_FOLDER TempVS-hf  # then upload TempVS-hf as lmms-lab-eval/TempVS",
    substitutions=(
        Substitution(
            "_default_template_yaml",
            "# The data: a one-row placeholder, for which process_docs reads the release (TEMPVS_DATA_DIR, else the hub release).\ndataset_path: json\ndataset_kwargs: {data_files: {test: placeholder.jsonl}}\n",
            "# The data: the question rows of the converted dataset (tempvs_to_hf.py); lmms-eval unpacks its images.zip under $HF_HOME/tempvs.\ndataset_path: lmms-lab-eval/TempVS\ndataset_kwargs: {video: true, cache_dir: tempvs}\n",
            "the data route: the converted dataset instead of the package's one-row placeholder",
        ),
        Substitution(
            "_default_template_yaml",
            "  # the names the lmms-eval-temporal-bench package registers for lmms-eval's chat classes with these families' checkpoints\n"
            "  llava_interleave_hf: {extractor: interleave, layout: text_first}\n"
            "  llava_next_video_hf: {extractor: interleave, layout: text_first, frame_size: 224}\n",
            "",
            "the model sections of two names only the package registers (LLaVA-Interleave and LLaVA-NeXT-Video checkpoints "
            "through lmms-eval's chat classes, with their wrappers' text-first layout and frame size): upstream, these "
            "checkpoints get the class's own section or `default`",
        ),
    ),
    bibtex="""@inproceedings{song-etal-2025-burn,
    title = "Burn After Reading: Do Multimodal Large Language Models Truly Capture Order of Events in Image Sequences?",
    author = "Song, Yingjin and Du, Yupei and Paperno, Denis and Gatt, Albert",
    booktitle = "Findings of the Association for Computational Linguistics: ACL 2025",
    year = "2025",
    publisher = "Association for Computational Linguistics",
    eprint = "2506.10415",
    archivePrefix = "arXiv",
}""",
)
