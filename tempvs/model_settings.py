"""The settings that follow the model: the official extraction branch (docs/protocol/tempvs.md §6.2)
and where the images go relative to the text (§4.5), for the combined strip as for separate frames.

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

Where the images go: a chat class builds its turn from ``doc_to_messages`` (:func:`message_content`
puts the parts in the layout). A simple class gets the text of ``doc_to_text`` and the images, and
writes its own image tokens; some leave the text alone when it already holds their token, and for
those the section's ``image_token`` makes ``doc_to_text`` place the tokens (:func:`with_image_tokens`).
A class that always writes its tokens before the text is named in its section (``fixed_by``), which
records what the run sends and what the wrapper sent, and the run warns (docs/tempvs.md "Image order").
"""

from typing import Dict, List, Optional

from loguru import logger as eval_logger

from temporal_bench.tempvs.extraction import EXTRACTORS

# images_first: the images, then the prompt; text_first: the prompt, then the images;
# labelled: DeepSeek-VL2's "This is Image_a: <image>" line before each image, then the prompt.
LAYOUTS = ("images_first", "text_first", "labelled")
DEFAULT = {"extractor": "generic", "layout": "images_first"}
# Keys only some sections have: ``image_token`` (with text_first), for a simple class that writes no
# image tokens of its own when the text already holds them (the prompt then ends with one per image);
# ``official_layout`` and ``fixed_by``, for a class that places the images itself against the
# family's wrapper (``layout`` is then what the run sends, and the run warns).
OPTIONAL = ("image_token", "official_layout", "fixed_by")

# lmms-eval model class -> the settings of the family the official code has a branch or wrapper
# for (§4.5, §6.2). Classes that serve several families (llava_hf: LLaVA-OneVision and
# LLaVA-Interleave checkpoints; huggingface, vllm, openai: any model) keep the default; the plugin
# registers ``llava_interleave_hf`` and ``llava_next_video_hf`` (lmms_eval_plugin.FAMILY_MODELS),
# lmms-eval's chat classes under names that pick the text-first family.
_INTERNVL = {"extractor": "internvl", "layout": "images_first"}
_TEXT_FIRST_HF = {"extractor": "interleave", "layout": "text_first"}  # the HF LLaVA-Interleave / NeXT-Video wrappers
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
    "llava_interleave_hf": _TEXT_FIRST_HF,
    "llava_next_video_hf": _TEXT_FIRST_HF,
    # lmms-eval's simple llava_vid writes "<image>" tokens before the text whatever the text holds
    # (and reads video files or frame folders only): it cannot send LLaVA-NeXT-Video's order.
    "llava_vid": {"extractor": "interleave", "layout": "images_first", "official_layout": "text_first", "fixed_by": "llava_vid"},
    # lmms-eval's simple mantis adds no image of its own when the text holds "<image>" (Idefics2 path)
    "mantis": {"extractor": "generic", "layout": "text_first", "image_token": "<image>"},  # Mantis-Idefics2's wrapper
}

_STASH: Dict[str, Dict[str, str]] = {}
_WARNED = set()
_WARNED_FIXED = set()


def resolve(kwargs: Optional[Dict]) -> Dict[str, str]:
    """The settings in lmms-eval's resolved kwargs (a model's section, or the table with ``default``
    merged into its top level), checked."""
    kwargs = kwargs or {}
    settings = {key: kwargs.get(key, value) for key, value in DEFAULT.items()}
    settings.update({key: kwargs[key] for key in OPTIONAL if kwargs.get(key) is not None})
    if settings["extractor"] not in EXTRACTORS:
        raise ValueError(f"TempVS extractor {settings['extractor']!r}; choose one of {EXTRACTORS}")
    for key in ("layout", "official_layout"):
        if settings.get(key, LAYOUTS[0]) not in LAYOUTS:
            raise ValueError(f"TempVS {key} {settings[key]!r}; choose one of {LAYOUTS}")
    if "image_token" in settings and settings["layout"] != "text_first":
        raise ValueError("TempVS image_token puts the tokens after the text: it goes with layout text_first (simple classes put the images first themselves)")
    if ("official_layout" in settings) != ("fixed_by" in settings):
        raise ValueError("TempVS official_layout and fixed_by go together: the class that fixes the layout, and the wrapper's")
    return settings


def stash(task: str, kwargs: Optional[Dict]) -> Dict[str, str]:
    _STASH[task] = settings = resolve(kwargs)
    _warn_fixed_layout(settings)
    return settings


def _warn_fixed_layout(settings: Dict[str, str]) -> None:
    """Once per process: the model class sends the images in another place than the family's wrapper did."""
    fixed_by = settings.get("fixed_by")
    if fixed_by and settings["official_layout"] != settings["layout"] and fixed_by not in _WARNED_FIXED:
        _WARNED_FIXED.add(fixed_by)
        eval_logger.warning(f"TempVS: lmms-eval's {fixed_by} class places the images itself ({settings['layout']}); the official "
                            f"wrapper of its family sent {settings['official_layout']}. Recorded in the task config "
                            f"(lmms_eval_specific_kwargs.{fixed_by}); for the official order use a --model whose class places the images as that "
                            "wrapper did (docs/tempvs.md, Image order).")


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


def with_image_tokens(prompt: str, count: int, settings: Dict[str, str]) -> str:
    """The prompt a simple class gets: followed by one ``image_token`` per image where the section
    names one (the class then leaves its images where the tokens are), else as it is."""
    return prompt + settings.get("image_token", "") * count


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
