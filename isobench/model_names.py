"""The ISO-Bench paper's model names (Table 1), with the model's other names (the report's alias
tables, temporal_bench/report/model_names.py): an open model's checkpoint Section 4.1 names
(llava-1.5-7b-hf, ...) and its Hugging Face id; an API model's dated version (Section 4.1, Appendix F),
its only run name."""

MODEL_NAMES = {
    "Llava-1.5 (7B)": ("llava-1.5-7b-hf", "llava-hf/llava-1.5-7b-hf"),
    "Llama-3.2 (11B Vision)": ("Llama-3.2-11B-Vision-Instruct", "meta-llama/Llama-3.2-11B-Vision-Instruct"),
    "Qwen2.5-VL (32B)": ("Qwen2.5-VL-32B-Instruct", "Qwen/Qwen2.5-VL-32B-Instruct"),
    "PaliGemma2 (10B mix 448)": ("google/paligemma2-10b-mix-448",),  # paligemma2-10b-mix-448 is the same name without punctuation
    "DeepSeek-VL2 (tiny)": ("deepseek-ai/deepseek-vl2-tiny",),
}

API_MODELS = {
    "gpt-4o-mini": ("gpt-4o-mini-2024-07-18",),
    "gpt-4o": ("gpt-4o-2024-11-20",),
    "claude-3.5-sonnet": ("claude-3-5-sonnet-20241022",),
    "o3": ("o3-2025-04-16",),
    "o4-mini": ("o4-mini-2025-04-16",),
}
