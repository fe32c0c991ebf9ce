"""The no-download baselines answer from the options each doc offers."""

from collections import Counter

import json

import pytest

from temporal_bench.lmms_eval_tasks.catbench import prompts as catbench_prompts
from temporal_bench.catbench.fixtures import write_fixture
from temporal_bench.lmms_eval_tasks.catbench.parsing import PARSERS as CATBENCH_PARSERS
from temporal_bench.lmms_eval_tasks.catbench_variants.utils import doc_to_text_explain_nl, parse_nl_answer
from temporal_bench.isobench import fixtures as isobench_fixtures
from temporal_bench.lmms_eval_tasks.isobench import prompts as isobench_prompts
from temporal_bench.lmms_eval_tasks.isobench.parsing import PARSERS as ISOBENCH_PARSERS
from temporal_bench.models.answer_format import as_requested
from temporal_bench.models.policies import majority_answer, random_choice, wrong_answer
from tests.harness import lmms_eval, metric, read_samples

ISOBENCH_DOC = {"goal": "Bake bread", "snippet_steps": ["Knead the dough", "Bake it"], "question": "Must the pictured step happen before?"}
CATBENCH_DOC = {"title": "Bake bread", "steps": ["Knead the dough", "Bake it"], "question": "Must Step 2 happen after Step 1?"}


def test_policies_read_the_options_from_the_doc():
    doc = {"answer": "C", "choices": ["A", "B", "C", "D", "E"]}
    picks = Counter(random_choice(doc, "t", i, seed=0) for i in range(500))
    assert set(picks) == set("ABCDE") and min(picks.values()) > 60
    assert random_choice(doc, "t", 7, seed=0) == random_choice(doc, "t", 7, seed=0)
    assert wrong_answer(doc) == "A"
    docs = [{"answer": a, "choices": ["yes", "no"]} for a in ("no", "yes", "no")]
    assert majority_answer(docs) == "no"
    assert majority_answer(docs[:2]) == "yes"  # a tie goes to the option listed first


def test_majority_class_through_lmms_eval(tmp_path):
    env = {"CATBENCH_DATA_DIR": str(write_fixture(tmp_path / "data"))}
    results = lmms_eval(tmp_path, ["catbench"], model="majority_class", model_args="", env=env)
    # balanced classes: the tie goes to "yes", the first option
    assert metric(results, "catbench", "recall_dep") == 1.0 and metric(results, "catbench", "recall_nondep") == 0.0
    assert {s["filtered_resps"] for s in read_samples(tmp_path / "lmms_eval_out", "catbench")} == {"yes"}


@pytest.mark.parametrize("prompt, expected", [
    (isobench_prompts.explain_then_answer(ISOBENCH_DOC), "<answer>YES</answer>"),
    (isobench_prompts.answer_only(ISOBENCH_DOC), "yes"),
    (catbench_prompts.answer_only(CATBENCH_DOC), "yes"),
    (catbench_prompts.answer_then_explain(CATBENCH_DOC), json.dumps({"binary_answer": "yes"})),
    (catbench_prompts.explain_then_answer(CATBENCH_DOC), json.dumps({"binary_answer": "yes"})),
    (doc_to_text_explain_nl(CATBENCH_DOC), "Answer 1: yes"),
    (["not", "text"], "yes"),
])
def test_a_baseline_answers_in_the_format_the_prompt_asks_for(prompt, expected):
    assert as_requested("yes", prompt) == expected


def test_each_parser_reads_the_baseline_answer():
    assert ISOBENCH_PARSERS["explain_then_answer"](as_requested("no", isobench_prompts.explain_then_answer(ISOBENCH_DOC))) == "no"
    assert CATBENCH_PARSERS["json"](as_requested("no", catbench_prompts.answer_then_explain(CATBENCH_DOC))) == "no"
    assert parse_nl_answer(as_requested("no", doc_to_text_explain_nl(CATBENCH_DOC))) == "no"


def test_random_choice_answers_every_iso_bench_cot_question(tmp_path):
    """E->A reads only the final <answer> tag: a bare "yes" would be invalid for every question."""
    env = {"ISOBENCH_DATA_DIR": str(isobench_fixtures.write_fixture(tmp_path / "data", n=32))}
    results = lmms_eval(tmp_path, ["isobench_cot"], model="random_choice", model_args="seed=1", env=env)
    assert metric(results, "isobench_cot", "coverage") == 1.0
    responses = [sample["filtered_resps"] for sample in read_samples(tmp_path / "lmms_eval_out", "isobench_cot")]
    assert len(responses) == 32 and set(responses) == {"<answer>YES</answer>", "<answer>NO</answer>"}
