"""Whole-word yes/no extraction: never a substring test ("no" is inside "not", "know", "cannot")."""

import re

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.think_blocks import strip_think

YES, NO, INVALID = "yes", "no", "invalid"

_YES_NO_WORD = re.compile(r"\b(yes|no)\b", re.IGNORECASE)
_MARKDOWN = re.compile(r"[*_`]")


def strip_markdown(text: str) -> str:
    """Drop markdown emphasis/code marks so ``**No**`` reads as ``No``."""
    return _MARKDOWN.sub("", text)


def first_yes_no(text: str | None) -> str:
    """The first whole-word yes/no in ``text`` outside ``<think>`` blocks (case-insensitive), else ``"invalid"``."""
    text = strip_think(text)
    if not text:
        return INVALID
    match = _YES_NO_WORD.search(strip_markdown(text))
    return match.group(1).lower() if match else INVALID
