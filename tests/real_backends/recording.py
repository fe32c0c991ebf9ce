"""Subclasses of the real lmms-eval model classes that record what reached the model.

Generation is entirely the parent class's code: ``generate_until`` hands the parent one request at a
time (the classes run at batch size 1 anyway) so that each record belongs to one (task, doc), and
the processor and ``model.generate`` are wrapped, not replaced, to see their arguments. One JSON
line per request is appended to the file named by ``$REAL_BACKENDS_RECORD``:

- ``task``, ``doc_id``, ``context`` (the request's prompt as lmms-eval built it), ``task_gen_kwargs``
  (the task's generation_kwargs as the request carried them), ``doc_frames`` (number of frame paths
  of a TempVS doc, when the doc has them);
- ``processor_calls``: per processor call, the text(s) and the number of images passed;
- ``generate_calls``: per ``model.generate`` call, the generation settings passed, the prompt length,
  the vision-start / image-pad token counts and the image grids in the inputs, the decoded input
  (special tokens kept) and the number of new tokens (generation stops at ``NEW_TOKENS_CAP``; the
  settings recorded are those the class passed);
- ``response``: what the model class returned for the request.
"""

import json
import os
import threading
from typing import Any

import torch

from . import NEW_TOKENS_CAP

RECORD_ENV = "REAL_BACKENDS_RECORD"
_LOCK = threading.Lock()
GEN_KEYS = ("max_new_tokens", "temperature", "do_sample", "top_p", "top_k", "num_beams", "use_cache")


def _count_images(images) -> int:
    if images is None:
        return 0
    if isinstance(images, (list, tuple)):
        return sum(_count_images(item) for item in images)
    return 1


def _texts(text) -> list[str]:
    if text is None:
        return []
    return [text] if isinstance(text, str) else list(text)


class _RecordingProcessor:
    """Delegates everything to the real processor; records ``__call__`` arguments."""

    def __init__(self, inner, sink: list[dict]):
        object.__setattr__(self, "_inner", inner)
        object.__setattr__(self, "_sink", sink)

    def __call__(self, *args, **kwargs):
        text = kwargs.get("text", args[0] if args else None)
        self._sink.append({"texts": _texts(text), "n_images": _count_images(kwargs.get("images")), "n_videos": _count_images(kwargs.get("videos"))})
        return self._inner(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def __setattr__(self, name, value):
        setattr(self._inner, name, value)


def _jsonable(value: Any):
    if isinstance(value, torch.Tensor):
        return value.tolist()
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [_jsonable(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _jsonable(item) for key, item in value.items()}
    return repr(value)


class RecordingMixin:
    """Put first in the bases of a real lmms-eval model class."""

    processor_attribute = "processor"

    def _install_recorders(self):
        if getattr(self, "_recorders_installed", False):
            return
        self._processor_calls: list[dict] = []
        self._generate_calls: list[dict] = []
        setattr(self, self.processor_attribute, _RecordingProcessor(getattr(self, self.processor_attribute), self._processor_calls))
        model = self.model
        real_generate = model.generate
        tokenizer = self.tokenizer
        config = model.config
        image_token_id = getattr(config, "image_token_id", None)
        if image_token_id is None:
            image_token_id = getattr(config, "image_token_index", None)  # LLaVA family
        vision_start_id = getattr(config, "vision_start_token_id", None)
        calls = self._generate_calls

        def generate(*args, **kwargs):
            input_ids = kwargs.get("input_ids", args[0] if args else None)
            record = {key: _jsonable(kwargs[key]) for key in GEN_KEYS if key in kwargs}
            capped = {**kwargs, "max_new_tokens": min(kwargs.get("max_new_tokens") or NEW_TOKENS_CAP, NEW_TOKENS_CAP)}
            output = real_generate(*args, **capped)
            record["generation_config"] = {key: _jsonable(getattr(model.generation_config, key, None)) for key in ("max_new_tokens", "do_sample", "temperature")}
            if input_ids is not None:
                ids = input_ids[0]
                record["prompt_tokens"] = int(ids.shape[0])
                record["decoded_input"] = tokenizer.decode(ids, skip_special_tokens=False)
                if image_token_id is not None:
                    record["image_pad_tokens"] = int((ids == image_token_id).sum())
                if vision_start_id is not None:
                    record["vision_starts"] = int((ids == vision_start_id).sum())
                sequences = output.sequences if hasattr(output, "sequences") else output
                record["new_tokens"] = int(sequences.shape[1] - input_ids.shape[1])
            grid = kwargs.get("image_grid_thw")
            record["image_grid_thw"] = grid.tolist() if grid is not None else []
            record["pixel_values"] = list(kwargs["pixel_values"].shape) if kwargs.get("pixel_values") is not None else None
            sizes = kwargs.get("image_sizes")
            record["image_sizes"] = sizes.tolist() if sizes is not None else []
            calls.append(record)
            return output

        model.generate = generate  # an instance attribute: the real method still does the work
        self._recorders_installed = True

    def generate_until(self, requests):
        self._install_recorders()
        path = os.environ.get(RECORD_ENV)
        responses = []
        for request in requests:
            del self._processor_calls[:], self._generate_calls[:]
            task_gen_kwargs = dict(request.args[1] if self.is_simple else request.args[2])  # the parent may pop keys
            (response,) = super().generate_until([request])
            responses.append(response)
            if path:
                self._write(path, request, response, task_gen_kwargs)
        return responses

    def _write(self, path: str, request, response, gen_kwargs: dict) -> None:
        args = request.args
        context, doc_id, task, split = args[0], args[-3], args[-2], args[-1]
        doc = self.task_dict[task][split][doc_id]
        text = getattr(response, "text", response)
        record = {
            "model_class": type(self).__mro__[2].__module__ + "." + type(self).__mro__[2].__name__,
            "is_simple": self.is_simple,
            "task": task,
            "doc_id": doc_id,
            "context": context,
            "task_gen_kwargs": {key: _jsonable(value) for key, value in dict(gen_kwargs).items()},
            "doc_frames": len(doc["frames"]) if isinstance(doc, dict) and isinstance(doc.get("frames"), list) else None,
            "doc_visual": doc.get("visual") if isinstance(doc, dict) else None,
            "processor_calls": list(self._processor_calls),
            "generate_calls": list(self._generate_calls),
            "response": text,
        }
        with _LOCK, open(path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(record) + "\n")


from lmms_eval.models.chat.llava_hf import LlavaHf as _LlavaHfChat  # noqa: E402
from lmms_eval.models.chat.qwen2_5_vl import Qwen2_5_VL as _Qwen2_5_VLChat  # noqa: E402
from lmms_eval.models.simple.qwen2_vl import Qwen2_VL as _Qwen2_VL  # noqa: E402


class RecordingQwen2VL(RecordingMixin, _Qwen2_VL):
    """lmms-eval's simple ``qwen2_vl`` class (images from ``doc_to_visual``, before the text)."""


class RecordingQwen2_5VLChat(RecordingMixin, _Qwen2_5_VLChat):
    """lmms-eval's chat ``qwen2_5_vl`` class (messages from ``doc_to_messages``)."""


class RecordingLlavaHfChat(RecordingMixin, _LlavaHfChat):
    """lmms-eval's chat ``llava_hf`` class (Hugging Face LLaVA / LLaVA-NeXT / LLaVA-OneVision checkpoints)."""

    processor_attribute = "_image_processor"
