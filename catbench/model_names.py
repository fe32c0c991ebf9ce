"""The CaT-Bench paper's model names, each with the model's other names (the report's alias table,
temporal_bench/report/model_names.py): the API versions and the checkpoint its Appendix A names
(gpt-4o-2024-05-13, claude-3-5-sonnet-20240620, Meta-Llama3-8B-Instruct, ...). A later version of
an API model is another model: its run gets no verdict unless named by ``--label``."""

MODEL_NAMES = {
    "gpt-4o": ("gpt-4o-2024-05-13",),
    "gpt-4o-mini": ("gpt-4o-mini-2024-07-18",),
    "gpt-4-turbo": ("gpt-4-turbo-2024-04-09",),
    "gpt-3.5-turbo": (),
    "gemini-1.0-pro": ("gemini-1.0-pro-latest",),
    "gemini-1.5-pro": ("gemini-1.5-pro-latest",),
    "gemini-1.5-flash": ("gemini-1.5-flash-latest",),
    "claude-3.5-sonnet": ("claude-3-5-sonnet-20240620",),
    "Llama3-8B": ("meta-llama/Meta-Llama-3-8B-Instruct", "Meta-Llama3-8B-Instruct"),
}
