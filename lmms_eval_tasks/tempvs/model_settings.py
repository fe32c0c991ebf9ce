"""Where the images go relative to the text, as each model family's wrapper in the official repository placed them:
per-model sections of the task YAML's ``lmms_eval_specific_kwargs``, which lmms-eval hands ``doc_to_text`` and
``doc_to_messages`` (a model class without a section gets ``default``).

A chat class builds its turn from ``doc_to_messages`` (:func:`message_content` puts the parts in the layout). A
simple class gets the text of ``doc_to_text`` and the images and writes its own image tokens; where a class leaves
the text alone when it already holds its token, the section's ``image_token`` makes ``doc_to_text`` place them
(:func:`with_image_tokens`).
"""

# images_first: the images, then the prompt; text_first: the prompt, then the images
LAYOUTS = ("images_first", "text_first")


def resolve(kwargs: dict | None) -> dict:
    """The settings in lmms-eval's resolved kwargs (a model's section, or the table with ``default`` merged into its
    top level), checked. ``image_token`` (with text_first): for a simple class that writes no image tokens of its own
    when the text already holds them (the prompt then ends with one per image)."""
    kwargs = kwargs or {}
    settings = {"layout": kwargs.get("layout", LAYOUTS[0]), **({"image_token": kwargs["image_token"]} if kwargs.get("image_token") is not None else {})}
    if settings["layout"] not in LAYOUTS:
        raise ValueError(f"TempVS layout {settings['layout']!r}; choose one of {LAYOUTS}")
    if "image_token" in settings and settings["layout"] != "text_first":
        raise ValueError("TempVS image_token puts the tokens after the text: it goes with layout text_first (simple classes put the images first themselves)")
    return settings


def with_image_tokens(prompt: str, count: int, settings: dict) -> str:
    """The prompt a simple class gets: followed by one ``image_token`` per image where the section names one (the
    class then leaves its images where the tokens are), else as it is."""
    return prompt + settings.get("image_token", "") * count


def message_content(images: list, prompt: str, layout: str) -> list[dict]:
    """The user turn's parts for ``images`` and the prompt, in the family's layout."""
    pictures = [{"type": "image", "url": image} for image in images]
    text = {"type": "text", "text": prompt}
    return [text, *pictures] if layout == "text_first" else [*pictures, text]
