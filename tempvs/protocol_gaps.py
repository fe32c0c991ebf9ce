"""What lmms-eval's model classes send differently from the official TempVS inference, where the task cannot make up
for it (docs/tempvs.md, "Model-class protocol gaps"; temporal_bench/protocol_gaps.py names them for a run). The line
numbers are those of the official repository's files (github.com/yjsong22/TempVS at 7e21dd3)."""

from temporal_bench.protocol_gaps import ProtocolGap
from temporal_bench.report.model_names import OUR_MODEL_CLASSES
from temporal_bench.tempvs.model_names import RELEASED_PREDICTIONS_MODEL

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
        rows=("InternVL*",),
        applies_to=lambda model_class: model_class in ("internvl3", "internvl_hf"),
        text="lmms-eval's internvl3 and internvl_hf decode as the task asks (greedy) where the official InternVL2.5 inference sampled (run_inference.py: do_sample=True)",
    ),
    ProtocolGap(
        rows=("llava-interleave*",),
        applies_to=lambda model_class: model_class == "llava_hf",
        text="lmms-eval's llava_hf under its own name gets the tasks' default section (images first in the turn) where the official wrapper (models/model_hf_llava_next_interleave.py) sent the text, then the images; the llava_interleave_hf section sends the wrapper's turn",
    ),
    ProtocolGap(
        rows=("LongVA*",),
        applies_to=lambda model_class: model_class == "longva",
        text="lmms-eval's longva writes one <image> per image where the official wrapper (models/model_longva.py) wrote one for all the frames and sent them as a video",
    ),
    ProtocolGap(
        rows=("LLaVA-NeXT-Video*",),
        applies_to=lambda model_class: model_class == "llava_vid",
        text="lmms-eval's llava_vid writes its image tokens before the text, where the official wrapper (models/model_hf_llava_video.py) sent the text first; the llava_next_video_hf section sends the wrapper's turn",
    ),
    ProtocolGap(
        rows=("Qwen2-VL*",),
        applies_to=lambda model_class: model_class == "qwen2_vl",
        text="lmms-eval's qwen2_vl caps every image at max_pixels=602112 where the official run_inference.py (line 203) loads the processor with the checkpoint's defaults, so large combined images are downscaled only in lmms-eval",
    ),
    ProtocolGap(
        rows=("Phi-3-vision*", "Phi-3.5-vision*"),
        applies_to=lambda model_class: model_class == "phi3v",
        text="lmms-eval's phi3v loads the processor with its default num_crops (it takes no num_crops argument) where the official run_inference.py (lines 330-332) sets num_crops=len(img_path): 1 for a combined image",
    ),
    ProtocolGap(
        rows=("*72b*", "*78b*", "*110b*"),
        applies_to=lambda model_class: model_class not in (*OUR_MODEL_CLASSES, RELEASED_PREDICTIONS_MODEL),
        text="the official run_inference.py (lines 161-164) loads every model whose id contains 72b, 78b or 110b in 8 bits (its prediction files are named _8bit; the paper says FP16), where lmms-eval's classes load it as their model arguments say (16 bits by default)",
    ),
)
