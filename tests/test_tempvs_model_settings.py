"""The settings that follow the model (lmms_eval_tasks/tempvs/model_settings.py; docs/protocol/tempvs.md §4.5, §6.2),
through the real lmms-eval task loading: the model class picks its section of the task YAML's
``lmms_eval_specific_kwargs``, and the scored answer uses that family's extraction branch. Where each
class puts the images: tests/test_tempvs_image_order.py."""

import pytest

from temporal_bench.lmms_eval_tasks.tempvs import model_settings
from temporal_bench.tempvs.fixtures import write_fixture

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
        ("qwen2_5_vl", {"extractor": "generic", "layout": "images_first"}),
        ("llava_onevision", {"extractor": "generic", "layout": "images_first"}),
        ("internvl3", {"extractor": "internvl", "layout": "images_first"}),
        ("llava_interleave_hf", {"extractor": "interleave", "layout": "text_first"}),  # the plugin's family name
        ("llava_vid", {"extractor": "interleave", "layout": "images_first", "official_layout": "text_first", "fixed_by": "llava_vid"}),
        ("mantis", {"extractor": "generic", "layout": "text_first", "image_token": "<image>"}),  # Mantis-Idefics2
        ("openai", {"extractor": "generic", "layout": "images_first"}),  # no section: default
    ],
)
def test_the_model_class_picks_its_family(model, expected, data, monkeypatch, manager):
    task = _task(model, data, monkeypatch, manager)
    task.doc_to_text(task.test_docs()[0])  # lmms-eval asks it of every doc, simple or chat class
    assert model_settings.stashed(TASK) == expected
    # the recorded config holds every section, so the results say which one the model got
    assert task.config.lmms_eval_specific_kwargs["mantis"] == {"extractor": "generic", "layout": "text_first", "image_token": "<image>"}


def test_deepseek_labels_and_interleave_by_hand():
    """Families without an lmms-eval class of their own are chosen by hand (a task YAML that sets
    ``lmms_eval_specific_kwargs``): DeepSeek-VL2 labels each image, as its wrapper did."""
    images = ["i1", "i2", "i3"]
    content = model_settings.message_content(images, PROMPT, model_settings.resolve({"extractor": "deepseek", "layout": "labelled"})["layout"])
    assert [part.get("text", part.get("url")) for part in content] == ["This is Image_a: ", "i1", "\nThis is Image_b: ", "i2", "\nThis is Image_c: ", "i3", "\n" + PROMPT]
    two = model_settings.message_content(images[:2], PROMPT, "labelled")
    assert [part.get("text", part.get("url")) for part in two] == ["This is the First image: ", "i1", "\nThis is the Second image: ", "i2", "\n" + PROMPT]
    assert model_settings.resolve({"extractor": "interleave", "layout": "text_first"}) == {"extractor": "interleave", "layout": "text_first"}
    with pytest.raises(ValueError, match="layout 'sideways'"):
        model_settings.resolve({"layout": "sideways"})
    with pytest.raises(ValueError, match="official_layout and fixed_by go together"):
        model_settings.resolve({"official_layout": "text_first"})
    with pytest.raises(ValueError, match="goes with layout text_first"):
        model_settings.resolve({"layout": "labelled", "image_token": "<image>"})


def test_process_results_parses_with_the_family_of_the_model(data, monkeypatch, manager):
    """LLaVA-NeXT-Video's branch keeps the text after "assistant"; the generic one reads the first letter."""
    from temporal_bench.lmms_eval_tasks.tempvs.utils import process_results

    echoed = "user Options A. ... E. assistant {answer}"
    for model, right in (("llava_vid", True), ("qwen2_5_vl", False)):
        task = _task(model, data, monkeypatch, manager)
        doc = next(d for d in task.test_docs() if d["kind"] == "main" and d["answer"] != "A")
        task.doc_to_text(doc)  # lmms-eval builds every request before scoring any
        record = process_results(doc, [echoed.format(answer=doc["answer"])])["gt_acc"]
        assert record["correct"] is right, model
