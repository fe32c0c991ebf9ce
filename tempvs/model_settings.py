"""The settings that follow the model: the official extraction branch (docs/protocol/tempvs.md §6.2)
and, for the ``_separate`` tasks, where the images go relative to the text (§4.5).

The official evaluation picks both by the model: the parser branch from the model's folder name,
the layout from the model's own wrapper. Here they are per-model sections of the task YAML's
``lmms_eval_specific_kwargs`` (generated from :data:`MODEL_SECTIONS`): lmms-eval gives a model
class its own section, else ``default`` (the generic branch, images first), and records the whole
table in the results JSON's task config. By hand: a task YAML that includes ours and replaces
``lmms_eval_specific_kwargs`` (docs/tempvs.md).

lmms-eval hands the resolved kwargs to ``doc_to_text`` / ``doc_to_messages`` but not to
``process_results``, which needs the extraction branch. So ``doc_to_text`` (which lmms-eval calls
for every doc before any result is processed, in every process) stashes them per task name in this
module, and ``process_results`` reads them back (:func:`stash`, :func:`stashed`).
"""

from typing import Dict, List, Optional

from loguru import logger as eval_logger

from temporal_bench.tempvs.extraction import EXTRACTORS

# images_first: the images, then the prompt; text_first: the prompt, then the images;
# labelled: DeepSeek-VL2's "This is Image_a: <image>" line before each image, then the prompt.
LAYOUTS = ("images_first", "text_first", "labelled")
DEFAULT = {"extractor": "generic", "layout": "images_first"}

# lmms-eval model class -> the settings of the family the official code has a branch or wrapper
# for (§4.5, §6.2). Classes that serve several families (llava_hf: LLaVA-OneVision and
# LLaVA-Interleave checkpoints; huggingface, vllm, openai: any model) keep the default.
_INTERNVL = {"extractor": "internvl", "layout": "images_first"}
MODEL_SECTIONS: Dict[str, Dict[str, str]] = {
    "default": DEFAULT,
    "llava_onevision": DEFAULT,  # LLaVA-OneVision: "onevision" row
    "llava_onevision1_5": DEFAULT,
    "qwen2_vl": DEFAULT,  # "Qwen2" row
    "qwen2_5_vl": DEFAULT,
    "phi3v": DEFAULT,  # "Phi" row
    "phi4_multimodal": DEFAULT,
    "longva": DEFAULT,  # "LongVA" row
    "internvl": _INTERNVL,  # "InternVL" row
    "internvl2": _INTERNVL,
    "internvl3": _INTERNVL,
    "internvl3_5": _INTERNVL,
    "internvl_hf": _INTERNVL,
    "llava_vid": {"extractor": "interleave", "layout": "text_first"},  # LLaVA-NeXT-Video
    "mantis": {"extractor": "generic", "layout": "text_first"},  # Mantis-Idefics2's wrapper
}

_STASH: Dict[str, Dict[str, str]] = {}
_WARNED = set()


def resolve(kwargs: Optional[Dict]) -> Dict[str, str]:
    """The settings in lmms-eval's resolved kwargs (a model's section, or the table with ``default``
    merged into its top level), checked."""
    kwargs = kwargs or {}
    settings = {key: kwargs.get(key, value) for key, value in DEFAULT.items()}
    if settings["extractor"] not in EXTRACTORS:
        raise ValueError(f"TempVS extractor {settings['extractor']!r}; choose one of {EXTRACTORS}")
    if settings["layout"] not in LAYOUTS:
        raise ValueError(f"TempVS layout {settings['layout']!r}; choose one of {LAYOUTS}")
    return settings


def stash(task: str, kwargs: Optional[Dict]) -> Dict[str, str]:
    _STASH[task] = settings = resolve(kwargs)
    return settings


def stashed(task: str) -> Dict[str, str]:
    """The settings ``doc_to_text`` saw for ``task``; the default ones (warned once) where no
    ``doc_to_text`` ran in this process (records re-scored outside a harness run)."""
    if task not in _STASH:
        if task not in _WARNED:
            _WARNED.add(task)
            eval_logger.warning(f"TempVS {task}: no model settings seen in this process; scoring with {DEFAULT}")
        return dict(DEFAULT)
    return _STASH[task]


def _label(index: int, count: int) -> str:
    """DeepSeek-VL2's wrapper: "This is the First/Second image:" for two images, else "This is Image_a:" ..."""
    if count == 2:
        return f"This is the {('First', 'Second')[index]} image: "
    return f"This is Image_{chr(97 + index)}: "


def message_content(images: List, prompt: str, layout: str) -> List[Dict]:
    """The user turn's parts for ``images`` (one per frame) and the prompt, in the family's layout."""
    pictures = [{"type": "image", "url": image} for image in images]
    text = {"type": "text", "text": prompt}
    if layout == "text_first":
        return [text, *pictures]
    if layout == "labelled" and len(images) > 1:
        parts = []
        for index, picture in enumerate(pictures):
            parts += [{"type": "text", "text": ("\n" if index else "") + _label(index, len(images))}, picture]
        return [*parts, {"type": "text", "text": "\n" + prompt}]
    return [*pictures, text]
