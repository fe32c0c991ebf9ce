"""``<answer>...</answer>`` tag extraction for explain-then-answer prompts."""

import re

# A complete tag whose content holds no second opening tag, so "<answer><answer>NO</answer>" reads "NO".
_ANSWER_TAG = re.compile(r"<\s*answer\s*>((?:(?!<\s*answer\s*>).)*?)<\s*/\s*answer\s*>", re.IGNORECASE | re.DOTALL)


def last_answer_tag(text: str | None) -> str | None:
    """The stripped content of the LAST complete ``<answer>...</answer>`` tag (any case), else None.

    An opening tag without its closing tag (e.g. output cut by the token cap) is not a tag.
    """
    contents = _ANSWER_TAG.findall(text or "")
    return contents[-1].strip() if contents else None
