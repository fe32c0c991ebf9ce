"""The CaT-Bench paper's model names (the report's alias tables, temporal_bench/report/model_names.py):
its open model with the checkpoint Appendix A names, and each API model with the names Appendix A
gives it. A dated one (gpt-4o-2024-05-13) is the only run name of its row; gpt-3.5-turbo and the
Gemini models are named only by moving aliases (``-latest``: whatever the provider serves), so no
run gets their verdicts."""

MODEL_NAMES = {"Llama3-8B": ("meta-llama/Meta-Llama-3-8B-Instruct", "Meta-Llama3-8B-Instruct")}

API_MODELS = {
    "gpt-4o": ("gpt-4o-2024-05-13",),
    "gpt-4o-mini": ("gpt-4o-mini-2024-07-18",),
    "gpt-4-turbo": ("gpt-4-turbo-2024-04-09",),
    "gpt-3.5-turbo": ("gpt-3.5-turbo",),
    "gemini-1.0-pro": ("gemini-1.0-pro-latest",),
    "gemini-1.5-pro": ("gemini-1.5-pro-latest",),
    "gemini-1.5-flash": ("gemini-1.5-flash-latest",),
    "claude-3.5-sonnet": ("claude-3-5-sonnet-20240620",),
}
