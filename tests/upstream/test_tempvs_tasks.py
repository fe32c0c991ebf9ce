"""TempVS tasks: the folder registers its tasks, and on a tiny inline dataset in the converted layout (one image
sequence, its two grounding questions and two MT1 questions) the docs, prompts, images and metrics are as the
paper defines them. No download, no model."""

from pathlib import Path

import datasets
import pytest
from PIL import Image

from temporal_bench.lmms_eval_tasks.tempvs import metrics, utils

FOLDER = Path(utils.__file__).parent
STRIP = "flintstones/combined/seq0.jpg"


def _row(question_id, kind, test, task_id, gt_option, answer, choices, partners=(), blind_correct=-1):
    return {
        "doc_key": f"flintstones/{test}/{question_id}",
        "kind": kind,
        "test": test,
        "task_id": task_id,
        "source": "flintstones",
        "img_seq_id": "seq0",
        "question_id": question_id,
        "gt_option": gt_option,
        "option_text": "A. True; B. False." if kind == "main" else "",
        "statement_type": "",
        "event_distance": 1,
        "event_index": -1,
        "expected_partners": len(partners),
        "partners": list(partners),
        "blind_correct": blind_correct,
        "image": STRIP,
        "prompt": f"Question {question_id}.\nThe answer is: ",
        "choices": choices,
        "answer": answer,
    }


ROWS = [
    _row("g0", "grounding", "gt_paired", "single_grounding_paired", "image 1", "1", ["1", "2"]),
    _row("g1", "grounding", "gt_paired", "single_grounding_paired", "image 2", "2", ["1", "2"]),
    _row("m0", "main", "mt1_two", "paired_event_discrimination", "A", "A", ["A", "B"], partners=("g0", "g1"), blind_correct=0),
    _row("m1", "main", "mt1_two", "paired_event_discrimination", "B", "B", ["A", "B"], partners=("g0", "g1"), blind_correct=0),
    _row("m2", "main", "mt1_two", "paired_event_discrimination", "A", "A", ["A", "B"], partners=("g0", "g1"), blind_correct=3),  # the text alone answers it
]


@pytest.fixture
def docs(tmp_path, monkeypatch):
    """The docs of ``tempvs_mt1_two``, its images where lmms-eval unpacks the dataset's images.zip (``$HF_HOME/tempvs``)."""
    monkeypatch.setenv("HF_HOME", str(tmp_path))
    (tmp_path / "tempvs" / STRIP).parent.mkdir(parents=True)
    Image.new("RGB", (40, 20), "white").save(tmp_path / "tempvs" / STRIP)
    return list(utils.process_docs_tempvs_mt1_two(datasets.Dataset.from_list(ROWS, split="test")))


def test_the_folder_registers_its_tasks_and_groups():
    from lmms_eval.tasks import TaskManager

    registered = TaskManager(include_path=str(FOLDER), include_defaults=False).all_tasks
    assert {"tempvs", "tempvs_mt1_two", "tempvs_mt3_caption", "tempvs_mt1", "tempvs_mt2", "tempvs_mt3"} <= set(registered)


def test_docs_keep_the_grounding_questions_and_the_main_questions_the_blind_filter_keeps(docs):
    assert [(doc["kind"], doc["question_id"]) for doc in docs] == [("grounding", "g0"), ("grounding", "g1"), ("main", "m0"), ("main", "m1")]
    assert utils.doc_to_text(docs[2], {"layout": "images_first"}) == "Question m0.\nThe answer is: "
    assert utils.doc_to_text(docs[2], {"layout": "text_first", "image_token": "<image>"}) == "Question m0.\nThe answer is: <image>"
    assert [image.size for image in utils.doc_to_visual(docs[0])] == [(40, 20)]


def test_metrics_of_known_answers(docs):
    answers = {"g0": "1", "g1": "1", "m0": "A", "m1": "A"}  # g1 and m1 wrong
    records = [utils.process_results(doc, [answers[doc["question_id"]]])["gt_acc"] for doc in docs]
    assert metrics.gt_acc(records) == 0.5
    assert metrics.mt_acc(records) == 0.5
    assert metrics.gtstrict_rate(records) == 0.0  # one grounding question wrong: no main question has all its partners right
    assert metrics.mt_given_gtstrict(records) is None


def test_the_answer_is_parsed_by_the_branch_the_models_name_picks(docs):
    """InternVL's branch reads MT1's "Option B" before a leading article "A", the generic one the first letter."""
    args = type("Args", (), {"model": "internvl3", "model_args": "pretrained=OpenGVLab/InternVL2_5-8B"})()
    answers = {"m0": "A man. Option B", "m1": "B"}
    records = [utils.process_results(doc, [answers[doc["question_id"]]])["gt_acc"] for doc in docs if doc["kind"] == "main"]
    assert metrics.mt_acc(records) == 1.0  # generic: m0 "A" (the article), m1 "B": both right
    assert metrics.mt_acc(records, args) == 0.5  # internvl: m0 "B" (Option B first): wrong
