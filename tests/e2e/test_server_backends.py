"""lmms-eval's ``vllm`` (chat and ``--force_simple``) and ``sglang`` classes, offline: stand-in ``vllm``
and ``sglang`` modules (tests/api_backends/stubs/) take the place of the engines, record what the real
classes hand them (prompt, images, sampling parameters) and answer from a script, so the message
building is the classes' own and the metrics are exact. No model is loaded (SGLang's class still reads
a config and processor: a tiny local checkpoint folder, tests/real_backends/checkpoints.py).

lmms-eval 0.7.3's vllm classes generate up to the larger of the task's cap and their own
``max_new_tokens`` (4096 chat, 1024 simple) and both classes add ``top_p=0.95``: ``temporal-bench check``
says so from the results file (temporal_bench/backend_settings.py), and ``max_new_tokens=1`` / ``--gen_kwargs top_p=1.0`` keep the
tasks' settings.
"""

import json
import os
from collections import Counter

import pytest

from tests.api_backends.runs import answer_script, api_run, check_output, check_scripted_metrics
from tests.api_backends.tasks import GENERATION, SC_REPEATS, TASKS, expected_requests, write_data
from tests.paths import TESTS

STUBS = TESTS / "api_backends" / "stubs"
TEMPERATURE = {task: float(settings["temperature"]) for task, settings in GENERATION.items()}
RUNS = {
    # id: --model, --model_args ({checkpoint}: a local model folder), extra flags
    "vllm-chat": ("vllm", "model=stub-model,disable_log_stats=True", []),
    "vllm-simple-kept": ("vllm", "model=stub-model,disable_log_stats=True,max_new_tokens=1", ["--force_simple", "--gen_kwargs", "top_p=1.0"]),
    "sglang": ("sglang", "model={checkpoint}", []),
}


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    root = tmp_path_factory.mktemp("server_backends")
    env = write_data(root)
    expected = expected_requests(env)
    script = root / "script.json"
    script.write_text(json.dumps([[item.prompt, TEMPERATURE[item.task], len(item.images), answer_script(item)] for item in expected]), encoding="utf-8")
    python_path = [str(STUBS)] + [p for p in [os.environ.get("PYTHONPATH")] if p]
    env.update(STUB_ENGINE_SCRIPT=str(script), PYTHONPATH=os.pathsep.join(python_path))
    return {"root": root, "env": env, "expected": expected}


@pytest.fixture(scope="module")
def checkpoint(setup):
    from tests.real_backends.checkpoints import build_qwen_vl

    return build_qwen_vl(setup["root"] / "qwen2.5", version="2.5")


@pytest.fixture(scope="module", params=list(RUNS))
def server_run(request, setup):
    model, model_args, extra = RUNS[request.param]
    if "{checkpoint}" in model_args:
        model_args = model_args.format(checkpoint=request.getfixturevalue("checkpoint"))
    root = setup["root"] / request.param
    root.mkdir()
    record = root / "record.jsonl"
    results, log = api_run(root, model, model_args, extra, {**setup["env"], "STUB_ENGINE_RECORD": str(record)})
    lines = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()]
    return {"id": request.param, "results": results["results"], "records": lines, "check": check_output(root)}


def _owner(record, expected):
    """The expected request a recorded one answers (the longest scripted prompt in its text)."""
    temperature = float(record["params"]["temperature"])
    matches = [item for item in expected if TEMPERATURE[item.task] == temperature and item.prompt in record["text"] and len(item.images) == len(record["images"])]
    return max(matches, key=lambda item: len(item.prompt))


def test_each_request_carries_the_prompt_and_images_of_its_doc(server_run, setup):
    owners = Counter()
    for record in server_run["records"]:
        assert record["backend"] == RUNS[server_run["id"]][0]
        item = _owner(record, setup["expected"])
        assert tuple(record["images"]) == item.images, f"{item.task}/{item.doc_id}"
        owners[item.task, item.doc_id] += 1
    assert owners == Counter({(item.task, item.doc_id): SC_REPEATS if item.task == "catbench_sc" else 1 for item in setup["expected"]})


def _cap(record) -> int:
    return record["params"].get("max_tokens", record["params"].get("max_new_tokens"))


def test_generation_settings_sent_and_the_check_warning(server_run, setup):
    for record in server_run["records"]:
        task = _owner(record, setup["expected"]).task
        cap, top_p = _cap(record), record["params"]["top_p"]
        if server_run["id"] == "vllm-chat":  # the class's own cap wins, and it adds top_p
            assert (cap, top_p) == (4096, 0.95)
        elif server_run["id"] == "vllm-simple-kept":
            assert (cap, top_p) == (GENERATION[task]["max_new_tokens"], 1.0)
        else:  # sglang keeps the cap, adds top_p
            assert (cap, top_p) == (GENERATION[task]["max_new_tokens"], 0.95)
        assert float(record["params"]["temperature"]) == TEMPERATURE[task]
    log = server_run["check"]
    if server_run["id"] == "vllm-chat":
        for task in TASKS:
            cap = GENERATION[task]["max_new_tokens"]
            assert f"vllm: task {task} caps generation at {cap} new tokens (its protocol), but lmms-eval's vllm class generated up to 4096" in log
        assert "Add max_new_tokens=1 to --model_args" in log
        assert "vllm: task catbench_sc samples at temperature 0.6 without nucleus sampling, but lmms-eval's vllm class added top_p=0.95" in log
    elif server_run["id"] == "vllm-simple-kept":
        assert "vllm: task" not in log
    else:
        assert "sglang: task catbench_sc samples at temperature 0.6" in log
        assert "caps generation" not in log and log.count("sglang: task") == 1


def test_metrics_of_the_scripted_answers(server_run, setup):
    check_scripted_metrics(server_run["results"], setup["expected"])


def test_reasoning_model_names_are_warned_with_the_classes_own_rule():
    from temporal_bench.backend_settings import OPENAI_CHAT_CLASS, OPENAI_SIMPLE_CLASS, protocol_warnings

    settings = {"catbench": {"max_new_tokens": 2, "temperature": 0}}
    (warning,) = protocol_warnings(OPENAI_CHAT_CLASS, {"model_version": "gpt-5-mini"}, settings)
    assert warning.startswith("openai: lmms-eval takes model 'gpt-5-mini' for a reasoning model")
    assert "dropped temperature=0 and sent max_completion_tokens=2" in warning
    assert protocol_warnings(OPENAI_SIMPLE_CLASS, {"model": "gpt-5-mini"}, settings) == []  # not in its rule
    assert len(protocol_warnings(OPENAI_SIMPLE_CLASS, {"model": "o3-mini"}, settings)) == 1
    assert protocol_warnings(OPENAI_CHAT_CLASS, {"model_version": "gpt-4o-2024-08-06"}, settings) == []


def test_vllm_warning_names_the_cap_it_used():
    from temporal_bench.backend_settings import VLLM_CLASSES, protocol_warnings

    simple = "lmms_eval.models.simple.vllm.VLLM"
    (warning,) = protocol_warnings(simple, {}, {"isobench": {"max_new_tokens": 120, "temperature": 0}})
    assert "task isobench caps generation at 120 new tokens" in warning and "generated up to 1024" in warning
    assert protocol_warnings(simple, {"max_new_tokens": "1"}, {"isobench": {"max_new_tokens": 120}}) == []
    assert set(VLLM_CLASSES) == {simple, "lmms_eval.models.chat.vllm.VLLM"}
