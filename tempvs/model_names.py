"""The TempVS paper's model names, each with the model's other names (the report's alias tables,
temporal_bench/report/model_names.py): the Hugging Face id its Table 13 lists, and the spellings
other tables print (Table 12 drops ``-hf``, Table 5 writes ``InternVL2.5`` and
``llava-onevision-72b-ov``, Table 19 ``llava-onevision-qwen2-72b``); its one API model with the
version Section 4.1 names. Keys are the names of Tables 14-16 (and 17 for the text-only LLMs); names
differing only in case and punctuation need no entry."""

MODEL_NAMES = {
    **{f"InternVL2_5-{size}": (f"OpenGVLab/InternVL2_5-{size}",) for size in ("1B", "1B-MPO", "8B", "8B-MPO", "26B", "26B-MPO", "78B", "78B-MPO")},
    "Janus-Pro-1B": ("deepseek-ai/Janus-Pro-1B",),
    "Janus-Pro-7B": ("deepseek-ai/Janus-Pro-7B",),
    "LLaVA-NeXT-Video-7B-hf": ("llava-hf/LLaVA-NeXT-Video-7B-hf",),
    "LLaVA-NeXT-Video-7B-DPO-hf": ("llava-hf/LLaVA-NeXT-Video-7B-DPO-hf",),
    # Table 5's LLaVA-NeXT-Video-34B: its accuracies average to Table 14's -34B-hf row (58.5), not the DPO one's (53.3)
    "LLaVA-NeXT-Video-34B-hf": ("llava-hf/LLaVA-NeXT-Video-34B-hf", "LLaVA-NeXT-Video-34B"),
    "LLaVA-NeXT-Video-34B-DPO-hf": ("llava-hf/LLaVA-NeXT-Video-34B-DPO-hf", "LLaVA-NeXT-Video-34B-DPO"),
    "LongVA-7B": ("lmms-lab/LongVA-7B",),
    "LongVA-7B-DPO": ("lmms-lab/LongVA-7B-DPO",),
    "Mantis-8B-Idefics2": ("TIGER-Lab/Mantis-8B-Idefics2",),
    "Mantis-8B-siglip-llama3": ("TIGER-Lab/Mantis-8B-siglip-llama3",),
    "Phi-3-vision-128k-instruct": ("microsoft/Phi-3-vision-128k-instruct",),
    "Phi-3.5-vision-instruct": ("microsoft/Phi-3.5-vision-instruct",),
    **{f"Qwen2-VL-{size}": (f"Qwen/Qwen2-VL-{size}",) for size in ("2B", "2B-Instruct", "7B", "7B-Instruct", "72B", "72B-Instruct")},
    "deepseek-vl2-tiny": ("deepseek-ai/deepseek-vl2-tiny",),
    "deepseek-vl2-small": ("deepseek-ai/deepseek-vl2-small",),
    "llava-interleave-qwen-0.5b-hf": ("llava-hf/llava-interleave-qwen-0.5b-hf",),
    # Table 12's llava-interleave-qwen-7b: the -hf checkpoint, as docs/tempvs.md ("Image order") runs it
    "llava-interleave-qwen-7b-hf": ("llava-hf/llava-interleave-qwen-7b-hf", "llava-interleave-qwen-7b"),
    "llava-interleave-qwen-7b-dpo-hf": ("llava-hf/llava-interleave-qwen-7b-dpo-hf",),
    **{f"llava-onevision-qwen2-{size}": (f"lmms-lab/llava-onevision-qwen2-{size}",) for size in ("0.5b-ov", "0.5b-si", "7b-ov", "7b-si", "72b-si")},
    # Table 5's llava-onevision-72b-ov and Table 19's llava-onevision-qwen2-72b (its MT3 values are this row's of Table 16)
    "llava-onevision-qwen2-72b-ov-sft": ("lmms-lab/llava-onevision-qwen2-72b-ov-sft", "llava-onevision-72b-ov", "llava-onevision-qwen2-72b"),
    # Table 17's text-only LLMs (Section 3.3: the blind filter)
    "Llama-3.1-8B": ("meta-llama/Llama-3.1-8B",),
    "Phi-3.5-mini-instruct": ("microsoft/Phi-3.5-mini-instruct",),
    "Qwen2.5-72B-Instruct": ("Qwen/Qwen2.5-72B-Instruct",),
}

API_MODELS = {"GPT-4o": ("gpt-4o-2024-11-20",)}  # Section 4.1: "GPT-4o [2024-11-20]"; the release's GPT4o outputs are its run

# the release's prediction folder of an API model -> the version its outputs are (score-predictions labels them so)
RELEASE_FOLDERS = {"GPT4o": "gpt-4o-2024-11-20"}
RELEASED_PREDICTIONS_MODEL = "tempvs-released-predictions"  # the config.model of score-predictions' results files: the release's own outputs, no evaluation run
