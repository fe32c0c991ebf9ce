"""TempVS Table 12's models send the images and the text in their official wrapper's order
(docs/tempvs.md "Image order", docs/protocol/tempvs.md §4.5), each through the lmms-eval class the
docs name for it, resolved as ``--model NAME`` resolves it (simple or chat class).

No weights: the real task builds the real request (``build_all_requests`` under the model's name,
so the model's section of ``lmms_eval_specific_kwargs``), and the real class's ``generate_until``
turns it into the prompt up to its first call into the model side (processor, template or
``model.chat``); a stand-in there records what it got and stops the request.
"""

import importlib.util
from types import SimpleNamespace

import pytest
import torch

from tests.paths import TESTS
from tests.tempvs_fixture_copies import write_tempvs as write_fixture

SEPARATE = "tempvs_mt3_event_separate"
COMBINED = "tempvs_mt3_event"
FRAMES = 5  # images of a fixture sequence
# lmms-eval 0.7.3's internvl2, longva and llava_hf modules import decord at start-up, for videos only
DECORD_STAND_IN = TESTS / "real_backends" / "stubs"
# Idefics2's processor chat template (as HuggingFaceM4's idefics2-8b checkpoints ship it), which
# Mantis-8B-Idefics2's wrapper applied: it writes the parts in their order, "<image>" for an image.
IDEFICS2_TEMPLATE = (
    "{% for message in messages %}{{message['role'].capitalize()}}{% if message['content'][0]['type'] == 'image' %}{{':'}}"
    "{% else %}{{': '}}{% endif %}{% for line in message['content'] %}{% if line['type'] == 'text' %}{{line['text']}}"
    "{% elif line['type'] == 'image' %}{{ '<image>' }}{% endif %}{% endfor %}<end_of_utterance>\n{% endfor %}"
    "{% if add_generation_prompt %}{{ 'Assistant:' }}{% endif %}"
)


class Reached(Exception):
    """The request reached the model side; what it carried is recorded."""


class StandIn:
    """Model-side stand-in: calling ``stop`` records the call and stops the request; ``answer`` maps
    other methods to functions that answer (their calls recorded too)."""

    def __init__(self, stop, **answer):
        self.calls, self._stop, self._answer = {}, stop, answer

    def _record(self, name, args, kwargs):
        self.calls[name] = (args, kwargs)
        if name == self._stop:
            raise Reached(name)
        return self._answer[name](*args, **kwargs)

    def __getattr__(self, name):
        if name != self._stop and name not in self._answer:
            raise AttributeError(name)
        return lambda *args, **kwargs: self._record(name, args, kwargs)

    def __call__(self, *args, **kwargs):
        return self._record("__call__", args, kwargs)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    return write_fixture(tmp_path_factory.mktemp("tempvs_order"))


@pytest.fixture
def request_of(data, manager, monkeypatch):
    """``(task, request)``: the task built for ``--model name`` and the request of its first main question."""
    from lmms_eval.models import MODEL_REGISTRY_V2
    from lmms_eval.tasks import get_task_dict

    monkeypatch.setenv("TEMPVS_DATA_DIR", str(data))
    if importlib.util.find_spec("decord") is None:
        monkeypatch.syspath_prepend(str(DECORD_STAND_IN))

    def build(name, task_name=SEPARATE):
        kind = MODEL_REGISTRY_V2.resolve(name).model_type  # as the CLI resolves --model name
        manager.model_name = name  # what TaskManager(model_name=args.model) sets
        task = get_task_dict([task_name], manager, task_type=kind)[task_name]
        task.build_all_requests(rank=0, world_size=1)
        request = next(r for r in task.instances if task.dataset["test"][r.doc_id]["kind"] == "main")
        return task, request

    return build


def _model_class(name):
    from lmms_eval.models import MODEL_REGISTRY_V2

    return MODEL_REGISTRY_V2.get_model_class(name)


def _without_weights(cls, task, **attributes):
    """The class as its ``__init__`` leaves it, with model-side stand-ins instead of loaded weights."""
    model = cls.__new__(cls)
    model.__dict__.update(_rank=0, _world_size=1, batch_size_per_gpu=1, _device=torch.device("cpu"), task_dict={task.config.task: task.dataset}, **attributes)
    return model


def _generate(model, request):
    with pytest.raises(Reached):
        model.generate_until([request])


def _doc(task, request):
    return task.dataset["test"][request.doc_id]


def _render(messages):
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    template = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True).from_string(IDEFICS2_TEMPLATE)
    return template.render(messages=messages, add_generation_prompt=True)


def test_mantis_idefics2_text_then_images_as_its_wrapper(request_of):
    """Simple class: the prompt carries the images' tokens after the text, so the class adds no
    image part before it; the prompt is the one the official wrapper's [text, images] turn renders to."""
    task, request = request_of("mantis")
    cls = _model_class("mantis")
    assert (cls.__module__, cls.is_simple) == ("lmms_eval.models.simple.mantis", True)
    processor = StandIn("__call__", apply_chat_template=lambda messages, **_: _render(messages))
    model = _without_weights(cls, task, _is_idefics=True, _processor=processor, _tokenizer=SimpleNamespace(encode=lambda text, **_: list(text)))
    _generate(model, request)
    prompt = _doc(task, request)["prompt"]
    official = [{"role": "user", "content": [{"type": "text", "text": prompt}] + [{"type": "image"}] * FRAMES}]
    _, call = processor.calls["__call__"]
    assert call["text"] == [_render(official)] == [f"User: {prompt}{'<image>' * FRAMES}<end_of_utterance>\nAssistant:"]
    assert [len(images) for images in call["images"]] == [FRAMES]


def _chat_parts(messages):
    """The user turn as "text" / "image" parts in order, and its text."""
    (turn,) = [message for message in messages if message["role"] == "user"]
    return [part["type"] for part in turn["content"]], [part["text"] for part in turn["content"] if part["type"] == "text"]


@pytest.mark.parametrize(
    "name,module,processor",
    [
        # LLaVA-Interleave's HF checkpoints: lmms-eval's chat llava_hf under our family name
        ("llava_interleave_hf", "lmms_eval.models.chat.llava_hf", "_image_processor"),
        # LLaVA-NeXT-Video's HF checkpoints (llava_hf cannot load them): lmms-eval's chat huggingface class
        ("llava_next_video_hf", "lmms_eval.models.chat.huggingface", "processor"),
    ],
)
def test_hf_interleave_and_next_video_text_then_images(name, module, processor, request_of):
    """The chat class hands the checkpoint's chat template the official wrapper's turn: the text,
    then the images (which the template renders as the official wrapper's call did)."""
    task, request = request_of(name)
    cls = _model_class(name)
    assert (cls.__module__, cls.is_simple) == (module, False)
    template = StandIn("apply_chat_template")
    _generate(_without_weights(cls, task, system_prompt=None, **{processor: template}), request)
    (messages,), _ = template.calls["apply_chat_template"]
    assert _chat_parts(messages) == (["text"] + ["image"] * FRAMES, [_doc(task, request)["prompt"]])


@pytest.mark.parametrize(
    "name,task_name,resized",
    [
        ("llava_next_video_hf", SEPARATE, True),  # several images: each 224 x 224, as models/model_hf_llava_video.py
        ("llava_next_video_hf", COMBINED, False),  # the one strip: as it is
        ("llava_interleave_hf", SEPARATE, False),  # another family: as they are
    ],
)
def test_llava_next_video_gets_its_wrappers_frame_size(name, task_name, resized, request_of):
    from PIL import Image

    from temporal_bench.lmms_eval_tasks.plugin.tempvs.utils import doc_to_visual

    task, request = request_of(name, task_name)
    doc = _doc(task, request)
    (turn,) = request.args[1](doc)  # the request's doc_to_messages, as the chat class calls it
    sent = [part["url"] for part in turn["content"] if part["type"] == "image"]
    originals = doc_to_visual(doc)
    assert all(image.size != (224, 224) for image in originals)  # the fixture's images: a resize shows
    expected = [image.resize((224, 224), Image.Resampling.LANCZOS) for image in originals] if resized else originals
    assert [image.size for image in sent] == [image.size for image in expected] and len(sent) == (FRAMES if task_name == SEPARATE else 1)
    assert all(a.tobytes() == b.tobytes() for a, b in zip(sent, expected))
    assert task.config.lmms_eval_specific_kwargs[name].get("frame_size") == (224 if name == "llava_next_video_hf" else None)


def test_internvl2_5_images_then_text_through_internvl2(request_of):
    """InternVL2.5-MPO (remote-code checkpoints): the simple internvl2 class writes one "<image>"
    per image before the text, as the official InternVL wrapper did."""
    task, request = request_of("internvl2")
    cls = _model_class("internvl2")
    assert (cls.__module__, cls.is_simple) == ("lmms_eval.models.simple.internvl2", True)
    model_side = StandIn("chat")
    _generate(_without_weights(cls, task, modality="image", _tokenizer=None, _model=model_side), request)
    (_, _, question, *_), _ = model_side.calls["chat"]
    assert question == " ".join(["<image>"] * FRAMES) + "\n" + _doc(task, request)["prompt"]


def test_longva_images_then_text(request_of, monkeypatch):
    """LongVA: the simple longva class writes one "<image>" per image before the text, as the
    official wrapper did (the longva package's image token, conversation and image helpers are stand-ins)."""
    task, request = request_of("longva")
    cls = _model_class("longva")
    assert (cls.__module__, cls.is_simple) == ("lmms_eval.models.simple.longva", True)
    conversation = StandIn("append_message")
    conversation.roles = ("user", "assistant")
    module = importlib.import_module(cls.__module__)
    monkeypatch.setattr(module, "conv_templates", {"qwen_1_5": SimpleNamespace(copy=lambda: conversation)}, raising=False)
    monkeypatch.setattr(module, "DEFAULT_IMAGE_TOKEN", "<image>", raising=False)  # longva.constants'
    monkeypatch.setattr(module, "process_images", lambda images, *_: torch.zeros(len(images), 3, 2, 2), raising=False)
    model = _without_weights(cls, task, conv_template="qwen_1_5", _config=SimpleNamespace(), _image_processor=None, _tokenizer=SimpleNamespace(encode=lambda text, **_: list(text)))
    _generate(model, request)
    (role, question), _ = conversation.calls["append_message"]
    assert (role, question) == ("user", " ".join(["<image>"] * FRAMES) + "\n" + _doc(task, request)["prompt"])


def test_llava_vid_sends_images_first_and_the_report_names_the_gap(request_of):
    """lmms-eval's simple llava_vid writes its "<image>" tokens before the text whatever the text holds (the class needs
    the LLaVA-NeXT package, absent here): the task sends it the prompt alone under ``default`` (no section of its own),
    and this is a known protocol gap (tempvs/protocol_gaps.py), which the report names beside LLaVA-NeXT-Video's cells
    (a task no longer warns during the run)."""
    from temporal_bench.tempvs.protocol_gaps import PROTOCOL_GAPS

    task, request = request_of("llava_vid")
    assert request.args[0] == _doc(task, request)["prompt"]  # no tokens: the class writes its own first
    assert "llava_vid" not in task.config.lmms_eval_specific_kwargs and task.config.lmms_eval_specific_kwargs["default"] == {"layout": "images_first"}
    gaps = [gap.text for gap in PROTOCOL_GAPS if gap.applies("LLaVA-NeXT-Video-7B-DPO-hf", ["llava_vid"])]
    order = "lmms-eval's llava_vid writes its image tokens before the text, where the official wrapper (models/model_hf_llava_video.py) sent the text first"
    assert f"{order}; the llava_next_video_hf section sends the wrapper's turn" in gaps
    assert not any(gap.applies("LLaVA-NeXT-Video-7B-DPO-hf", ["llava_next_video_hf"]) for gap in PROTOCOL_GAPS)  # its wrapper's turn and frame size


@pytest.mark.parametrize(
    "name,parts",
    [
        ("llava_interleave_hf", ["text", "image"]),  # text-first family: the strip after the text, as its wrapper
        ("qwen2_5_vl", ["image", "text"]),
    ],
)
def test_combined_strip_in_the_family_order(name, parts, request_of):
    """The official wrappers place the combined strip as they place the frames (chat classes)."""
    task, request = request_of(name, COMBINED)
    messages = request.args[1](_doc(task, request))  # the request's doc_to_messages, as the chat class calls it
    assert _chat_parts(messages) == (parts, [_doc(task, request)["prompt"]])


def test_mantis_combined_strip_after_the_text(request_of):
    """Simple class: the request's text carries the strip's token after the prompt."""
    task, request = request_of("mantis", COMBINED)
    assert request.args[0] == _doc(task, request)["prompt"] + "<image>"
