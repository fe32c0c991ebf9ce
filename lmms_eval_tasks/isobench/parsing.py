"""Map a response to yes / no / invalid as the paper reads it (App. H): answer-only takes the first YES or NO,
explain-then-answer only the final ``<answer>`` tag. An ``invalid`` answer is a third label under Table 1's rule
(the headline scores)."""

import re

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.answer_tags import last_answer_tag
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.yes_no import (
    INVALID,
    first_yes_no,
    strip_markdown,
)

_YES_NO_WORDS = re.compile(r"\b(yes|no)\b", re.IGNORECASE)


def parse_answer_only(response: str) -> str:
    """Mode A: the first whole-word YES or NO, case-insensitive, after dropping markdown marks."""
    return first_yes_no(response)


def parse_explain_then_answer(response: str) -> str:
    """Mode E->A: only the final complete ``<answer>`` tag counts; it must name exactly one of YES/NO
    (so ``<answer>YES or NO</answer>`` is invalid). Reasoning outside the tag is ignored."""
    content = last_answer_tag(response)
    if content is None:
        return INVALID
    words = {word.lower() for word in _YES_NO_WORDS.findall(strip_markdown(content))}
    return words.pop() if len(words) == 1 else INVALID


PARSERS = {"answer_only": parse_answer_only, "explain_then_answer": parse_explain_then_answer}
