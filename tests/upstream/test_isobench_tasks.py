"""ISO-Bench tasks: the folder registers its tasks, and on two inline examples of the converted dataset the
prompts, image and metrics are as the paper defines them. No download, no model."""

import io
from pathlib import Path

import datasets
import pytest
from PIL import Image

from temporal_bench.lmms_eval_tasks.isobench import metrics, utils

FOLDER = Path(utils.__file__).parent


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (32, 24), "blue").save(buffer, format="PNG")
    return buffer.getvalue()


def _example(example_id, relation, answer):
    return {
        "id": example_id,
        "goal": "make tea",
        "snippet_steps": ["Boil the water.", "Pour the water into the cup."],
        "relation": relation,
        "anchor": "first" if relation == "before" else "last",
        "question": f"Must the step in the image happen {relation} the {'first' if relation == 'before' else 'last'} step of the plan?",
        "answer": answer,
        "source": "youcook2",
        "plan_id": "v1",
        "image": {"bytes": _png(), "path": None},
    }


@pytest.fixture
def docs():
    features = datasets.Features(
        {
            "id": datasets.Value("string"),
            "goal": datasets.Value("string"),
            "snippet_steps": datasets.Sequence(datasets.Value("string")),
            "relation": datasets.Value("string"),
            "anchor": datasets.Value("string"),
            "question": datasets.Value("string"),
            "answer": datasets.Value("string"),
            "source": datasets.Value("string"),
            "plan_id": datasets.Value("string"),
            "image": datasets.Image(),
        }
    )
    rows = [_example("e0", "before", "yes"), _example("e1", "after", "no")]
    return list(datasets.Dataset.from_list(rows, features=features, split="test"))  # the tasks' docs are the rows


def test_the_folder_registers_its_tasks():
    from lmms_eval.tasks import TaskManager

    registered = TaskManager(include_path=str(FOLDER), include_defaults=False).all_tasks
    assert {"isobench", "isobench_cot", "isobench_all"} <= set(registered)


def test_prompt_and_image(docs):
    prompt = utils.doc_to_text_answer_only(docs[0])
    assert prompt.startswith("GOAL: make tea") and "Boil the water." in prompt and prompt.rstrip().endswith("Answer only with YES or NO.")
    assert [image.size for image in utils.doc_to_visual(docs[0])] == [(32, 24)]


def test_metrics_of_known_answers(docs):
    values = [utils.process_results_answer_only(doc, [answer]) for doc, answer in zip(docs, ["YES", "I cannot tell."])]
    records = [value[metrics.METRIC_NAMES[0]] for value in values]
    assert [record["pred"] for record in records] == ["yes", "invalid"]
    # Table 1's rule: the unparsed answer is a third label, which lowers the recall of its gold class (no)
    assert metrics.recall_dep(records) == 1.0 and metrics.recall_nondep(records) == 0.0
    assert metrics.f1_weighted(records) == pytest.approx(0.5 * 1.0 + 0.5 * 0.0)
