"""The settings that follow the model: the official evaluation's answer-extraction branch, which it picks by the
model's name, and where the images go relative to the text, as each model family's wrapper in the official
repository placed them (the combined strip and separate frames alike).

They are per-model sections of the task YAML's ``lmms_eval_specific_kwargs``: lmms-eval gives a model class its
own section, else ``default`` (the generic branch, images first), and records the table in the results. lmms-eval
hands the resolved kwargs to ``doc_to_text`` / ``doc_to_messages`` but not to ``process_results``, which needs the
extraction branch: ``doc_to_text`` (called for every doc before any result is processed, in every process) keeps
them per task, and ``process_results`` of the same task reads them back (:func:`stash`, :func:`stashed`).

A chat class builds its turn from ``doc_to_messages`` (:func:`message_content` puts the parts in the layout). A
simple class gets the text of ``doc_to_text`` and the images and writes its own image tokens; where a class leaves
the text alone when it already holds its token, the section's ``image_token`` makes ``doc_to_text`` place them
(:func:`with_image_tokens`). A class that always writes its tokens before the text is named in its section
(``fixed_by``, with the wrapper's ``official_layout``), and the run warns. Where the wrapper resized the images
(LLaVA-NeXT-Video's, with several), the section's ``frame_size`` makes ``doc_to_messages`` do the same
(:func:`as_sent`).
"""

from typing import Dict, List, Optional

from loguru import logger as eval_logger

from temporal_bench.lmms_eval_tasks.tempvs.extraction import EXTRACTORS

# images_first: the images, then the prompt; text_first: the prompt, then the images;
# labelled: DeepSeek-VL2's "This is Image_a: <image>" line before each image, then the prompt.
LAYOUTS = ("images_first", "text_first", "labelled")
DEFAULT = {"extractor": "generic", "layout": "images_first"}
# Keys only some sections have: ``image_token`` (with text_first), for a simple class that writes no
# image tokens of its own when the text already holds them (the prompt then ends with one per image);
# ``official_layout`` and ``fixed_by``, for a class that places the images itself against the
# family's wrapper (``layout`` is then what the run sends, and the run warns); ``frame_size``, for a family whose
# wrapper resized each of several images to frame_size x frame_size (LANCZOS; models/model_hf_llava_video.py).
OPTIONAL = ("image_token", "official_layout", "fixed_by", "frame_size")

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
    if "frame_size" in settings and (not isinstance(settings["frame_size"], int) or settings["frame_size"] <= 0):
        raise ValueError(f"TempVS frame_size {settings['frame_size']!r}: the side in pixels each of several images is resized to, a whole number")
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
        eval_logger.warning(
            f"TempVS: lmms-eval's {fixed_by} class places the images itself ({settings['layout']}); the official "
            f"wrapper of its family sent {settings['official_layout']}. Recorded in the task config "
            f"(lmms_eval_specific_kwargs.{fixed_by}); for the official order use a --model whose class places the images as that "
            "wrapper did (a chat class with this family's checkpoints)."
        )


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


def as_sent(images: List, settings: Dict) -> List:
    """The images as the family's wrapper sent them: with several, each resized to ``frame_size`` square where the
    section names one (LLaVA-NeXT-Video's wrapper, LANCZOS), else as they are."""
    size = settings.get("frame_size")
    if not size or len(images) < 2:
        return images
    from PIL import Image

    return [image.resize((size, size), Image.Resampling.LANCZOS) for image in images]


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
