"""Answer extraction and correctness as the official TempVS evaluation (``run_evaluation.py``) does it.

The official rule: the parsed answer must equal the last character of ``gt_option``; patterns take
the FIRST match anywhere in the text; no match gives ``UNK`` (always wrong). The evaluation picks a
branch by the model's name (:func:`family_of`): ``generic``, the row for LLaVA-OneVision / Qwen2 / Phi /
Mantis / LongVA / GPT-4o; ``deepseek``; ``internvl``; ``interleave`` (LLaVA-Interleave / LLaVA-NeXT-Video,
whose wrappers decoded the prompt with the answer); ``llama_blind`` (the text-only Llama-3.1-8B).

Every pattern is linear in the output length (no adjacent unbounded repeats that can match the same
characters), so a runaway generation of 100 KB parses in milliseconds.
"""

import re

UNK = "UNK"
FAMILIES = ("generic", "deepseek", "internvl", "interleave")  # the branches for multimodal models

_GROUNDING = re.compile(r"(\d+)")
_MT1 = re.compile(r"\b([AB])\b")
_ORDERING = re.compile(r"\b([ABCDE])\b")
_DEEPSEEK_END = " <｜end▁of▁sentence｜>"
_INTERNVL_MT1 = (
    re.compile(r"Option\s+([AB])"),
    re.compile(r"\b([AB])\.\s*(?:True|False)"),
    re.compile(r"\b([AB])\s*$"),
    re.compile(r"Option\s*\[([AB])\]"),
)


def _first(pattern: re.Pattern, text: str) -> str:
    match = pattern.search(text)
    return match.group(1) if match else UNK


def official_extract(text: str, kind: str, family: str = "generic") -> str:
    """The released evaluation's parse of one raw output; ``kind``: grounding / mt1 / ordering."""
    text = "" if text is None else str(text)
    if family == "deepseek":
        text = text.replace(_DEEPSEEK_END, "")
    elif family == "llama_blind":
        text = re.split(r"(?i)The answer is", text, maxsplit=1)[-1]
    elif family == "interleave":
        text = re.split(r"(?i)assistant", text, maxsplit=1)[-1]
    if kind == "grounding":
        return _first(_GROUNDING, text)
    if kind == "mt1":
        if family == "internvl":
            for pattern in _INTERNVL_MT1:
                found = _first(pattern, text)
                if found != UNK:
                    return found
            return UNK
        return _first(_MT1, text)
    return _first(_ORDERING, text)


def answer_letters(kind: str) -> str:
    """The option letters the official patterns can read for an MT1 or ordering question."""
    return "AB" if kind == "mt1" else "ABCDE"


def is_correct(parsed: str, gt_option: str) -> bool:
    """The official rule: the parsed answer equals the last character of ``gt_option`` (case-sensitive)."""
    return parsed != UNK and bool(gt_option) and parsed == str(gt_option)[-1]


def family_of(model_name: str) -> str:
    """The official evaluation's branch for a model's name (its first matching row: paper code's ``run_evaluation.py``;
    the blind LLMs' rows apply to their prediction files only), read case-insensitively from the names a run gives
    (lmms-eval's ``--model`` and ``--model_args``)."""
    name = model_name.lower()
    if "deepseek" in name or "janus" in name:
        return "deepseek"
    if "internvl" in name:
        return "internvl"
    if "interleave" in name or "llava-next-video" in name or "llava_next_video" in name:
        return "interleave"
    return "generic"
