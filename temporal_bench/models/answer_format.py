"""Write a baseline's chosen option the way the task's prompt asks for the answer, so the task's own
parser reads it as a model's answer: ISO-Bench E->A's ``<answer>YES</answer>`` (only the final tag
counts), CaT-Bench A+E's JSON ``binary_answer`` and its NL variant's ``Answer 1:`` line; a bare option
(yes/no, a letter, an image number) otherwise. The prompt is read as a model reads it, never the gold
answer."""

import json

ANSWER_TAG = "<answer>"
JSON_FIELD = '"binary_answer"'
NL_LINE = "Answer 1:"


def as_requested(option: str, prompt) -> str:
    """``option`` in the answer format ``prompt`` asks for (a prompt that is not text: the bare option)."""
    prompt = prompt if isinstance(prompt, str) else ""
    if ANSWER_TAG in prompt:
        shown = option.upper() if f"{ANSWER_TAG}{option.upper()}</answer>" in prompt else option
        return f"{ANSWER_TAG}{shown}</answer>"
    if JSON_FIELD in prompt:
        return json.dumps({"binary_answer": option})
    if NL_LINE in prompt:
        return f"{NL_LINE} {option}"
    return option
