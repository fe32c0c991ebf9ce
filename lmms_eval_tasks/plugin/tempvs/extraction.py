"""The answer extraction of this package's TempVS variants, beside the official one (lmms_eval_tasks/tempvs/extraction.py):
the CoT prompts' answers (a deviation: the release has no CoT parser) and the opt-in fixes of the official rules' known
flaws (the task setting ``fixes``): case-insensitive letters, a sentence-initial article "A" is not an answer,
``Option X``/``X.`` forms first, letters limited to the options offered, the image number after "image", number
words, and True/False mapped through the options for MT1.

Every pattern is linear in the output length, so a runaway generation of 100 KB parses in milliseconds.
"""

import re

from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.answer_tags import last_answer_tag
from temporal_bench.lmms_eval_tasks._task_utils.temporal_reasoning.think_blocks import THINK_CLOSE, THINK_OPEN
from temporal_bench.lmms_eval_tasks.tempvs.extraction import _DEEPSEEK_END, UNK, answer_letters, family_of, official_extract

BLIND_FAMILIES = {"Llama-3.1-8B": "llama_blind"}  # the official rows for the text-only LLMs: by exact name


def cut_unclosed_think(text: str | None) -> str:
    """``text`` up to a final ``<think>`` that is never closed: reasoning cut off by the token cap is no answer."""
    text = text or ""
    start = text.rfind(THINK_OPEN)
    if start >= 0 and text.find(THINK_CLOSE, start) < 0:
        return text[:start]
    return text


def blind_family_of(model_name: str) -> str:
    """The official branch of a text-only run: the blind LLMs' rows by exact name (the pretrained checkpoint's last
    part), else the multimodal rule."""
    names = {part.rsplit("/", 1)[-1] for part in model_name.replace(",", " ").replace("=", " ").split()}
    return next((family for name, family in BLIND_FAMILIES.items() if name in names), family_of(model_name))


def run_family_of(model_name: str, blind: bool) -> str:
    """The official branch of a run's model (``model_name``: its ``--model`` and ``--model_args``), a text-only run's
    by the text-only LLMs' rows."""
    return blind_family_of(model_name) if blind else family_of(model_name)


_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9}
_VERBS_AFTER_LETTER = {"is", "was", "would", "seems", "should", "fits", "matches", "and", "or"}


def _fixed_letter(text: str, letters: str) -> str:
    cls = f"[{letters}{letters.lower()}]"
    for pattern in (
        rf"(?i:option|answer|choice)\s*(?:(?:is|:)\s*)?(?:[\[(]\s*)?({cls})\b",  # "Option B", "answer: b", "Option [B]"
        rf"^[^\S\n]*[\[(]?({cls})[\])]?[^\S\n]*(?:[.:)]|$)",  # a line that starts with "B." / "(B)" / "B"
    ):
        match = re.search(pattern, text, re.MULTILINE)
        if match:
            return match.group(1).upper()
    for match in re.finditer(rf"\b([{letters}])\b", text):
        following = text[match.end() : match.end() + 20]
        word = re.match(r"\s+([a-z][a-z']+)", following)
        if match.group(1) == "A" and word and word.group(1) not in _VERBS_AFTER_LETTER:
            continue  # the article "A man ..." is not an answer
        return match.group(1)
    return UNK


def _true_false_letter(text: str, option_text: str) -> str:
    """MT1: a bare True/False mapped to its letter through ``option_text`` ("A. True; B. False.")."""
    said = {word.lower() for word in re.findall(r"\b(true|false)\b", text, re.IGNORECASE)}
    if len(said) != 1:
        return UNK
    value = said.pop()
    match = re.search(rf"\b([AB])\.\s*{value}", option_text or "", re.IGNORECASE)
    return match.group(1) if match else UNK


def fixed_extract(text: str, kind: str, option_text: str = "") -> str:
    text = "" if text is None else str(text)
    if kind == "grounding":
        match = re.search(r"(?i)image\s*(?:number\s*)?(?:#\s*)?(\d+)", text) or re.search(r"(\d+)", text)
        if match:
            return match.group(1)
        word = re.search(r"(?i)\b(" + "|".join(_NUMBER_WORDS) + r")\b", text)
        return str(_NUMBER_WORDS[word.group(1).lower()]) if word else UNK
    letter = _fixed_letter(text, answer_letters(kind))
    if letter == UNK and kind == "mt1":
        letter = _true_false_letter(text, option_text)
    return letter


def extract(text: str, kind: str, option_text: str = "", cot: bool = False, family: str = "generic", fixes: frozenset[str] = frozenset()) -> str:
    """The answer a TempVS variant's doc is scored on.

    CoT: the content of the last complete ``<answer>`` tag when there is one, else the whole output up to a
    ``<think>`` that is never closed (reasoning cut off by the token cap is no answer); then the task's pattern; for
    MT1 a bare True/False is mapped to its letter through the options.
    """
    text = "" if text is None else str(text)
    if cot:
        tagged = last_answer_tag(text)
        text = tagged if tagged is not None else cut_unclosed_think(text)
    if "extraction" in fixes:
        if family == "deepseek":
            text = text.replace(_DEEPSEEK_END, "")
        elif family in ("llama_blind", "interleave"):
            text = re.split(r"(?i)The answer is" if family == "llama_blind" else r"(?i)assistant", text, maxsplit=1)[-1]
        return fixed_extract(text, kind, option_text)
    parsed = official_extract(text, kind, family)
    if parsed == UNK and cot and kind == "mt1":
        parsed = _true_false_letter(text, option_text)
    return parsed
