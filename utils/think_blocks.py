"""The removal of ``<think>`` reasoning blocks before a free-text answer is read."""

THINK_OPEN, THINK_CLOSE = "<think>", "</think>"


def strip_think(text: str | None) -> str:
    """``text`` without its (exact-case) ``<think>...</think>`` blocks, except that an unclosed ``<think>`` drops the rest
    of the text; after a lone ``</think>`` (prefilled by a chat template) what follows it.
    """
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
