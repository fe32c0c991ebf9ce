"""Map a response to yes / no / invalid per prompt mode, as the paper's evaluation reads them: whole words only, outside
``<think>`` blocks. Every pattern is linear in the response length (no nested or adjacent unbounded
repeats), so a runaway 100 KB generation parses as fast as a short one.
"""

import json
import re

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.think_blocks import strip_think
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import INVALID, first_yes_no

_CODE_FENCE = re.compile(r"```(?:json)?", re.IGNORECASE)
_JSON_OBJECT = re.compile(r"\{[^{}]*\}")  # a flat object; [^{}] keeps many "{" without "}" linear
_JSON_FIELD = re.compile(r'"binary_answer"\s*:\s*"\s*(yes|no)\b', re.IGNORECASE)


def parse_answer_only(response: str) -> str:
    return first_yes_no(response)


def parse_json_answer(response: str) -> str:
    """``binary_answer`` of the first JSON object, then the field by regex, then the first yes/no."""
    text = _CODE_FENCE.sub("", strip_think(response))
    for block in _JSON_OBJECT.findall(text):
        try:
            value = json.loads(block).get("binary_answer")
        except (json.JSONDecodeError, AttributeError):
            continue
        label = first_yes_no(value) if isinstance(value, str) else INVALID
        if label != INVALID:
            return label
    match = _JSON_FIELD.search(text)
    if match:
        return match.group(1).lower()
    return first_yes_no(text)


PARSERS = {
    "answer_only": parse_answer_only,
    "json": parse_json_answer,
}
