"""The settings that follow the model (docs/protocol/tempvs.md §4.5, §6.2), through the real lmms-eval task loading:
the model class picks its section of the task YAML's ``lmms_eval_specific_kwargs`` (where the images go), and the
scored answer uses the extraction branch the model's name picks (lmms-eval hands the aggregations its command line).
Where each class puts the images: tests/unit/test_tempvs_image_order.py."""

from types import SimpleNamespace

import pytest

from temporal_bench.lmms_eval_tasks.plugin.tempvs import metrics, utils
from temporal_bench.lmms_eval_tasks.tempvs import model_settings
from temporal_bench.lmms_eval_tasks.tempvs.extraction import family_of
from tests.tempvs_fixture_copies import write_tempvs as write_fixture

TASK = "tempvs_mt3_event_separate"
PROMPT = "<the prompt>"


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    return write_fixture(tmp_path_factory.mktemp("tempvs_models"))


def _task(model: str, data, monkeypatch, manager):
    from lmms_eval.models import MODEL_REGISTRY_V2
    from lmms_eval.tasks import get_task_dict

    monkeypatch.setenv("TEMPVS_DATA_DIR", str(data))
    manager.model_name = model  # what TaskManager(model_name=...) sets; each task built reads it
    return get_task_dict([TASK], manager, task_type=MODEL_REGISTRY_V2.resolve(model).model_type)[TASK]


@pytest.mark.parametrize(
    "model,expected",
    [
        ("qwen2_5_vl", {"layout": "images_first"}),  # no section: default
        ("llava_interleave_hf", {"layout": "text_first"}),  # the plugin's family name
        ("llava_next_video_hf", {"layout": "text_first", "frame_size": 224}),
        ("mantis", {"layout": "text_first", "image_token": "<image>"}),  # Mantis-Idefics2
        ("openai", {"layout": "images_first"}),
    ],
)
def test_the_model_class_picks_its_section(model, expected, data, monkeypatch, manager):
    task = _task(model, data, monkeypatch, manager)
    doc = task.test_docs()[0]
    assert utils.model_settings_of(task.lmms_eval_specific_kwargs) == expected
    frames = len(doc["frames"])
    assert task.doc_to_text(doc) == doc["prompt"] + expected.get("image_token", "") * frames
    # the recorded config holds every section, so the results say which one the model got
    assert task.config.lmms_eval_specific_kwargs["mantis"] == {"layout": "text_first", "image_token": "<image>"}


def test_deepseek_labels_by_hand(tmp_path):
    """Families without an lmms-eval class of their own are chosen by hand (a task YAML that sets
    ``lmms_eval_specific_kwargs``): DeepSeek-VL2 labels each image, as its wrapper did (this package's tasks only)."""
    from PIL import Image

    frames = []
    for name in ("a", "b", "c"):
        Image.new("RGB", (8, 8)).save(tmp_path / f"{name}.png")
        frames.append(str(tmp_path / f"{name}.png"))
    doc = {"doc_key": "d", "prompt": PROMPT, "visual": "separate", "image": "", "frames": frames}

    def texts(content):
        return [part["text"] if part["type"] == "text" else "<img>" for part in content]

    assert texts(utils.doc_to_messages(doc, {"layout": "labelled"})[0]["content"]) == ["This is Image_a: ", "<img>", "\nThis is Image_b: ", "<img>", "\nThis is Image_c: ", "<img>", "\n" + PROMPT]
    two = utils.doc_to_messages({**doc, "frames": frames[:2]}, {"layout": "labelled"})[0]["content"]
    assert texts(two) == ["This is the First image: ", "<img>", "\nThis is the Second image: ", "<img>", "\n" + PROMPT]
    with pytest.raises(ValueError, match="layout 'sideways'"):
        model_settings.resolve({"layout": "sideways"})
    with pytest.raises(ValueError, match="layout 'labelled'"):
        model_settings.resolve({"layout": "labelled"})  # upstream's tasks take images_first and text_first only
    with pytest.raises(ValueError, match="goes with layout text_first"):
        model_settings.resolve({"layout": "images_first", "image_token": "<image>"})
    assert utils.model_settings_of({"layout": "labelled", "frame_size": 224}) == {"layout": "labelled", "frame_size": 224}
    with pytest.raises(ValueError, match="frame_size 0"):
        utils.model_settings_of({"layout": "text_first", "frame_size": 0})


@pytest.mark.parametrize(
    "model,model_args,family",
    [
        ("llava_vid", "pretrained=lmms-lab/LLaVA-NeXT-Video-7B-DPO", "interleave"),
        ("llava_next_video_hf", "pretrained=llava-hf/LLaVA-NeXT-Video-34B-DPO-hf", "interleave"),
        ("llava_hf", "pretrained=llava-hf/llava-interleave-qwen-7b-hf", "interleave"),
        ("internvl3", "pretrained=OpenGVLab/InternVL2_5-8B", "internvl"),
        ("vllm", "model=OpenGVLab/InternVL2_5-78B-MPO", "internvl"),
        ("qwen2_5_vl", "pretrained=Qwen/Qwen2.5-VL-7B-Instruct", "generic"),
        ("openai", "model_version=gpt-4o-2024-11-20", "generic"),
    ],
)
def test_the_models_name_picks_the_extraction_branch(model, model_args, family):
    assert family_of(f"{model} {model_args}") == family


def test_the_aggregation_scores_under_the_runs_branch(data, monkeypatch, manager):
    """LLaVA-NeXT-Video's branch keeps the text after "assistant"; the generic one reads the first letter."""
    task = _task("qwen2_5_vl", data, monkeypatch, manager)
    docs = [d for d in task.test_docs() if d["kind"] == "main" and d["answer"] != "A"]
    values = [utils.process_results(doc, [f"user Options A. ... E. assistant {doc['answer']}"])["mt_acc"] for doc in docs]
    assert metrics.mt_acc(values, SimpleNamespace(model="llava_vid", model_args="pretrained=lmms-lab/LLaVA-NeXT-Video-7B-DPO")) == 1.0
    assert metrics.mt_acc(values, SimpleNamespace(model="qwen2_5_vl", model_args="pretrained=Qwen/Qwen2.5-VL-7B-Instruct")) == 0.0
    assert metrics.mt_acc(values) == 0.0  # the Python API hands no command line: the generic branch
