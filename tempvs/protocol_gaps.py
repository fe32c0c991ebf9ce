"""What lmms-eval's model classes send differently from the official TempVS inference, where the task
cannot make up for it (docs/tempvs.md, "Model-class protocol gaps"): a published cell of such a model
that a run through that class does not reproduce says "differs; known protocol gap: ..." in the report
(temporal_bench/report/verdicts.py)."""

from temporal_bench.report.verdicts import ProtocolGap

# the task sections that resize LLaVA-NeXT-Video's frames in doc_to_visual, as the official wrapper does
LLAVA_NEXT_VIDEO_RESIZING_CLASSES = ("llava_next_video_hf",)

PROTOCOL_GAPS = (
    ProtocolGap(
        rows=("InternVL*",),
        applies_to=lambda model_class: model_class == "internvl2",
        text="lmms-eval's internvl2 cuts each image into at most 6 tiles of 448 px (plus a thumbnail) where the official run_inference.py allows 12, and decodes greedily where the official InternVL2.5 inference sampled (do_sample=True)",
    ),
    ProtocolGap(
        rows=("LLaVA-NeXT-Video*",),
        applies_to=lambda model_class: model_class not in LLAVA_NEXT_VIDEO_RESIZING_CLASSES,
        text=f"the official wrapper (models/model_hf_llava_video.py) resizes every image to 224 x 224 when a prompt has several; only the tasks' {', '.join(LLAVA_NEXT_VIDEO_RESIZING_CLASSES)} section does so",
    ),
    ProtocolGap(
        rows=("LLaVA-NeXT-Video*",),
        applies_to=lambda model_class: model_class == "llava_vid",
        text="lmms-eval's llava_vid writes its image tokens before the text, where the official wrapper (models/model_hf_llava_video.py) sent the text first; the llava_next_video_hf section sends the wrapper's turn",
    ),
)
