"""``<answer>...</answer>`` tag extraction for explain-then-answer prompts (ISO-Bench E->A, TempVS), and
the removal of ``<think>`` reasoning blocks before a free-text answer is read."""

import re
from typing import Optional

# A complete tag whose content holds no second opening tag, so "<answer><answer>NO</answer>" reads "NO".
_ANSWER_TAG = re.compile(r"<\s*answer\s*>((?:(?!<\s*answer\s*>).)*?)<\s*/\s*answer\s*>", re.IGNORECASE | re.DOTALL)
THINK_OPEN, THINK_CLOSE = "<think>", "</think>"


def last_answer_tag(text: Optional[str]) -> Optional[str]:
    """The stripped content of the LAST complete ``<answer>...</answer>`` tag (any case), else None.

    An opening tag without its closing tag (e.g. output cut by the token cap) is not a tag.
    """
    contents = _ANSWER_TAG.findall(text or "")
    return contents[-1].strip() if contents else None


def strip_think(text: Optional[str]) -> str:
    """``text`` without its (exact-case) ``<think>...</think>`` blocks, as lmms-eval's default ``reasoning_tags`` strips
    them, except that an unclosed ``<think>`` drops the rest of the text; after a lone ``</think>`` (prefilled by a chat
    template) what follows it."""
    text, kept, position = text or "", [], 0
    while True:
        start = text.find(THINK_OPEN, position)
        if start < 0:
            kept.append(text[position:])
            break
        kept.append(text[position:start])
        end = text.find(THINK_CLOSE, start)
        if end < 0:
            break
        position = end + len(THINK_CLOSE)
    return "".join(kept).rsplit(THINK_CLOSE, 1)[-1]
