"""The no-download baselines answer from the options each doc offers."""

import importlib
import json
from collections import Counter
from pathlib import Path

import pytest

from temporal_bench.catbench.fixtures import write_fixture
from temporal_bench.isobench import fixtures as isobench_fixtures
from temporal_bench.lmms_eval_tasks.catbench import prompts as catbench_prompts
from temporal_bench.lmms_eval_tasks.catbench.parsing import PARSERS as CATBENCH_PARSERS
from temporal_bench.lmms_eval_tasks.isobench import prompts as isobench_prompts
from temporal_bench.lmms_eval_tasks.isobench.parsing import PARSERS as ISOBENCH_PARSERS
from temporal_bench.lmms_eval_tasks.plugin.catbench.utils import doc_to_text_explain_nl, parse_nl_answer
from temporal_bench.models.answer_format import as_requested
from temporal_bench.models.arguments import MODEL_ARGUMENTS, ModelArgumentsError, model_arguments
from temporal_bench.models.policies import majority_answer, random_choice, wrong_answer
from temporal_bench.paths import LM_EVAL_TASK_DIR
from temporal_bench.runs.results import run_label
from tests.harness import BIN, lmms_eval, metric, read_samples, run_cli

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


@pytest.mark.parametrize(
    "prompt, expected",
    [
        (isobench_prompts.explain_then_answer(ISOBENCH_DOC), "<answer>YES</answer>"),
        (isobench_prompts.answer_only(ISOBENCH_DOC), "yes"),
        (catbench_prompts.answer_only(CATBENCH_DOC), "yes"),
        (catbench_prompts.answer_then_explain(CATBENCH_DOC), json.dumps({"binary_answer": "yes"})),
        (catbench_prompts.explain_then_answer(CATBENCH_DOC), json.dumps({"binary_answer": "yes"})),
        (doc_to_text_explain_nl(CATBENCH_DOC), "Answer 1: yes"),
        (["not", "text"], "yes"),
    ],
)
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


# ---- --model_args: unknown keys refused, labels from the values used ------------------------------


def test_an_unknown_model_argument_stops_the_lmms_eval_run_naming_the_valid_ones(tmp_path):
    """``sed=7`` (for seed) used to be ignored: the run was made with seed 1234 and labelled ``sed=7``."""
    env = {"CATBENCH_DATA_DIR": str(write_fixture(tmp_path / "data", n_plans=1, pairs_per_class=1))}
    out = tmp_path / "out"
    log = run_cli([str(BIN / "lmms-eval"), "--model", "random_choice", "--model_args", "sed=7", "--tasks", "catbench", "--output_path", str(out), "--log_samples"], tmp_path, env)
    assert "--model random_choice: unknown --model_args sed; valid: seed" in log.stderr
    assert not list(tmp_path.rglob("*_results.json"))
    check = run_cli([str(BIN / "temporal-bench"), "check", str(out)], tmp_path)
    assert check.returncode == 1


def test_an_unknown_model_argument_stops_the_lm_eval_run(tmp_path):
    env = {"CATBENCH_DATA_DIR": str(write_fixture(tmp_path / "data", n_plans=1, pairs_per_class=1))}
    log = run_cli([str(BIN / "temporal-bench"), "lm-eval", "run", "--model", "scripted", "--model_args", "polcy=wrong", "--tasks", "catbench", "--include_path", str(LM_EVAL_TASK_DIR), "--output_path", str(tmp_path / "out")], tmp_path, env)
    assert log.returncode == 1
    assert log.stderr.strip().splitlines()[-1].endswith("--model scripted: unknown --model_args polcy; valid: policy, response, script, template")


@pytest.mark.parametrize("model_args, fix", [({"script": "answers.json"}, "policy=script"), ({"policy": "wrong", "script": "answers.json"}, "policy=script"), ({"response": "Yes"}, "policy=constant")])
def test_a_scripted_argument_its_policy_does_not_read_is_refused_naming_the_policy(model_args, fix):
    """``script=FILE`` without ``policy=script`` used to answer the gold labels (the default policy, oracle)."""
    from temporal_bench.models.lmms_eval_models import Scripted

    with pytest.raises(ValueError, match=rf"^--model scripted: .* is read only with {fix}, and this run's policy is \w+: add {fix} to --model_args$"):
        Scripted(**model_args)
    assert Scripted(policy="constant", response="Yes").answers.respond({}, "catbench", 0) == "Yes"


def test_every_model_of_ours_declares_its_arguments():
    from lmms_eval.models import MODEL_REGISTRY_V2, get_model_manifest  # (the plugin itself is imported by lmms-eval's entry point, not here)

    ours = {name for name in MODEL_REGISTRY_V2.list_canonical_model_ids() if (get_model_manifest(name).simple_class_path or "").startswith("temporal_bench.")}
    assert ours == set(MODEL_ARGUMENTS)
    for name in ours:
        module, _, cls = get_model_manifest(name).simple_class_path.rpartition(".")
        assert getattr(importlib.import_module(module), cls).registered_as == name
    assert model_arguments("random_choice", {"batch_size": 1, "device": "cuda"}) == {"seed": 1234}  # the harnesses' own keys pass
    with pytest.raises(ModelArgumentsError, match=r"^--model majority_class: unknown --model_args seed; valid: none \(it takes no --model_args\)$"):
        model_arguments("majority_class", {"seed": 1})


@pytest.mark.parametrize(
    "model, model_args, label",
    [
        ("random_choice", "", "random_choice (seed=1234)"),  # the default seed the model used
        ("random_choice", "sed=7", "random_choice (seed=1234)"),  # a results file from before unknown keys were refused
        ("random_choice", {"seed": 7}, "random_choice (seed=7)"),
        ("scripted", "policy=oracle", "scripted (policy=oracle)"),
        ("scripted", "policy=oracle,template=<answer>{answer}</answer>", "scripted (policy=oracle,template=<answer>{answer}</answer>)"),
        ("majority_class", "", "majority_class"),
        ("some_api_model", "temperature=0", "some_api_model (temperature=0)"),  # not ours: as recorded
    ],
)
def test_a_run_is_labelled_with_the_arguments_its_model_used(model, model_args, label):
    assert run_label({"model_name": "", "config": {"model": model, "model_args": model_args}}, Path("r.json")) == label
