"""CaT-Bench tasks: the folder registers its tasks, and on two inline step-pair rows of the hub dataset's layout
the questions, prompts and metrics are as the paper defines them. No download, no model."""

from pathlib import Path

import datasets
import pytest

from temporal_bench.lmms_eval_tasks.catbench import metrics, utils

FOLDER = Path(utils.__file__).parent
STEPS = ["Boil the water.", "Put the tea bag in the cup.", "Pour the water into the cup.", "Drink the tea."]
ROWS = [  # destination_text is the earlier step, origin_text the later; label: the later step depends on the earlier
    {"title": "tea", "steps": STEPS, "destination_text": STEPS[0], "origin_text": STEPS[2], "label": True},
    {"title": "tea", "steps": STEPS, "destination_text": STEPS[1], "origin_text": STEPS[3], "label": False},
]


@pytest.fixture
def docs():
    return list(utils.process_docs_catbench(datasets.Dataset.from_list(ROWS, split="test")))


def test_the_folder_registers_its_tasks():
    from lmms_eval.tasks import TaskManager

    registered = TaskManager(include_path=str(FOLDER), include_defaults=False).all_tasks
    assert {"catbench", "catbench_switched", "catbench_explain", "catbench_cot"} <= set(registered)


def test_each_step_pair_asks_before_and_after(docs):
    assert [(doc["question"], doc["answer"]) for doc in docs] == [
        ("Must Step 1 happen before Step 3?", "yes"),
        ("Must Step 3 happen after Step 1?", "yes"),
        ("Must Step 2 happen before Step 4?", "no"),
        ("Must Step 4 happen after Step 2?", "no"),
    ]
    prompt = utils.doc_to_text_answer_only(docs[0])
    assert "Goal: tea\n\nProcedure:\n1. Boil the water.\n" in prompt and prompt.endswith("Must Step 1 happen before Step 3? Select between yes or no\n\n")
    assert utils.doc_to_visual(docs[0]) == []


def test_switched_twins_follow_their_nondep_questions():
    docs = list(utils.process_docs_catbench_switched(datasets.Dataset.from_list(ROWS, split="test")))
    assert [(doc["variant"], doc["relation"], doc["answer"]) for doc in docs] == [
        ("real", "before", "yes"),
        ("real", "after", "yes"),
        ("real", "before", "no"),
        ("switched", "before", "no"),
        ("real", "after", "no"),
        ("switched", "after", "no"),
    ]
    assert docs[3]["steps"][1] == STEPS[3] and docs[3]["steps"][3] == STEPS[1]  # the asked-about steps swapped


def test_metrics_of_known_answers(docs):
    values = [utils.process_results_answer_only(doc, ["Yes."]) for doc in docs]
    records = [value["f1_macro"] for value in values]
    assert metrics.recall_dep([value["recall_dep"] for value in values]) == 1.0
    assert metrics.recall_nondep(records) == 0.0
    assert metrics.f1_macro(records) == pytest.approx((2 / 3 + 0) / 2)
    assert metrics.tc(records) == 1.0  # each pair answered the same both ways
    assert "occ" not in values[0]  # a task without twins reports no OCC


def test_occ_of_a_switched_task():
    docs = list(utils.process_docs_catbench_switched(datasets.Dataset.from_list(ROWS, split="test")))
    answers = ["Yes", "Yes", "No", "No", "No", "Yes"]  # the after twin answered otherwise
    records = [utils.process_results_answer_only(doc, [answer])["occ"] for doc, answer in zip(docs, answers)]
    assert metrics.occ(records) == 0.5


def test_a_row_whose_step_text_is_not_one_step_of_its_plan_is_left_out_with_a_warning(caplog):
    twice = {**ROWS[0], "steps": [*STEPS, STEPS[0]]}  # "Boil the water." twice: its step number is unknown
    with caplog.at_level("WARNING"):
        docs = list(utils.process_docs_catbench(datasets.Dataset.from_list([twice, ROWS[1]], split="validation")))
    assert [doc["question"] for doc in docs] == ["Must Step 2 happen before Step 4?", "Must Step 4 happen after Step 2?"]
    assert "CaT-Bench validation row 0: step text 'Boil the water.' matches 2 steps, expected exactly 1: the row is left out" in caplog.text


def _paper_sized_rows():
    """1,420 step pairs of one long plan, 710 of them dependent: the paper's test split's counts."""
    steps = [f"Step text {n}." for n in range(60)]
    pairs = [(a, b) for a in range(60) for b in range(a + 1, 60)][:1420]
    return [{"title": "plan", "steps": steps, "destination_text": steps[a], "origin_text": steps[b], "label": n < 710} for n, (a, b) in enumerate(pairs)]


def test_the_test_split_is_checked_against_the_papers_counts(caplog):
    rows = _paper_sized_rows()
    with caplog.at_level("WARNING"):
        assert len(utils.process_docs_catbench(datasets.Dataset.from_list(rows, split="test"))) == 2840
    assert caplog.text == ""
    with caplog.at_level("WARNING"):
        utils.process_docs_catbench(datasets.Dataset.from_list(rows[1:], split="test"))
    assert "CaT-Bench test split: 2,838 questions read, the paper has 2,840; 1,418 dependent questions read, the paper has 1,420" in caplog.text
