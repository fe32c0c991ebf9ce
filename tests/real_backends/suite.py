"""Real lmms-eval model classes on tiny random-weight checkpoints, through the real CLI, offline.

The tests live here and run from one thin test file per model class
(``tests/e2e/test_real_backends_<class>.py``, which set ``BACKEND_IDS``), so that pytest-xdist spreads the
classes over its workers.

Two model classes that take several images: lmms-eval's *simple* ``qwen2_vl`` (images from
``doc_to_visual``, placed before the text) and its *chat* ``qwen2_5_vl`` (messages from the task's
``doc_to_messages``, or lmms-eval's automatic messages where a task has none). Each runs
``catbench``, ``isobench``, ``tempvs_mt1_two`` (combined strip) and ``tempvs_mt3_event_separate``
(one image per frame) in one ``lmms-eval`` call. Checkpoints, tokenizers and processors are built in
a temporary folder (``tests/real_backends/checkpoints.py``); the models are the real lmms-eval
classes, subclassed only to record what reached the processor and ``model.generate``
(``tests/real_backends/recording.py``). Scores are meaningless; what is checked is the plumbing:
image counts, the full prompt text, generation settings, and responses flowing through parsing
into the per-doc values and the aggregated metrics.
"""

import functools
import importlib.machinery
import json
import os
import re
import statistics
from pathlib import Path

import pytest

from temporal_bench.paths import LMMS_EVAL_TASK_DIR
from tests.harness import BIN, read_results, read_samples, run_cli
from tests.real_backends import NEW_TOKENS_CAP
from tests.task_docs import task_docs

TESTS_DIR = Path(__file__).resolve().parents[1]
TASKS = ["catbench", "isobench", "tempvs_mt1_two", "tempvs_mt3_event_separate"]
GENERATION = {  # the task YAMLs' generation_kwargs (papers' decoding: greedy)
    "catbench": {"max_new_tokens": 2, "temperature": 0, "do_sample": False, "until": []},
    "isobench": {"max_new_tokens": 120, "temperature": 0, "do_sample": False, "until": []},
    "tempvs_mt1_two": {"max_new_tokens": 512, "temperature": 0, "do_sample": False, "until": []},
    "tempvs_mt3_event_separate": {"max_new_tokens": 512, "temperature": 0, "do_sample": False, "until": []},
}
PIXELS = "max_pixels=3136,min_pixels=784"  # Qwen: at most 2x2 patches of 28 px, 4 tokens per image
BACKENDS = {
    # id: the registered recording model, its checkpoint, the real lmms-eval class it subclasses
    "qwen2_vl-simple": dict(model="rec_qwen2_vl", checkpoint="qwen2", simple=True, real_class="lmms_eval.models.simple.qwen2_vl.Qwen2_VL", model_args=f"device=cpu,device_map=cpu,{PIXELS}", image_end="<|vision_end|>"),
    "qwen2_5_vl-chat": dict(model="rec_qwen2_5_vl", checkpoint="qwen2.5", simple=False, real_class="lmms_eval.models.chat.qwen2_5_vl.Qwen2_5_VL", model_args=f"device=cpu,device_map=cpu,{PIXELS}", image_end="<|vision_end|>"),
    "llava_onevision_hf-chat": dict(
        model="rec_llava_hf",
        checkpoint="llava_ov",
        simple=False,
        real_class="lmms_eval.models.chat.llava_hf.LlavaHf",
        model_args="device=cpu,device_map=cpu,dtype=float32",
        image_end="<image>",
        # lmms-eval 0.7.3's chat llava_hf hands the processor images=[] for a
        # text-only doc, and transformers 5.23's LLaVA-OneVision image processor
        # raises IndexError on an empty list (the class logs nothing useful).
        unsupported={"catbench": "llava_hf (chat) cannot run text-only tasks: processor(images=[]) raises IndexError"},
    ),
}
DEFAULT_LIMIT = 6


def registered_tasks() -> list[str]:
    """Our task names as the YAMLs in the auto-included task folder declare them."""
    names = set()
    for path in Path(LMMS_EVAL_TASK_DIR).rglob("*.yaml"):
        names.update(re.findall(r"^task:\s*(\S+)\s*$", path.read_text(encoding="utf-8"), flags=re.M))
    return [task for task in TASKS if task in names]


def _tempvs_limit(task: str, data_dir: Path) -> int:
    """Docs needed so that the run holds grounding questions and at least one main question: the
    position of the first main question in the task's docs (through the YAML's own process_docs)."""
    docs = task_docs(task, data_dir)
    kinds = [doc.get("kind") for doc in docs]
    return kinds.index("main") + 1 if "main" in kinds else DEFAULT_LIMIT


@pytest.fixture(scope="session")
def backend_setup(tmp_path_factory) -> dict:
    """Data fixtures, the test model registration and the checkpoints (each built when a model class first asks for it),
    once per session."""
    from tests.real_backends.checkpoints import build_llava_onevision, build_qwen_vl
    from tests.real_backends.registration import write_test_distribution

    root = tmp_path_factory.mktemp("real_backends")
    tasks = registered_tasks()
    builders = {"qwen2": lambda folder: build_qwen_vl(folder, version="2"), "qwen2.5": lambda folder: build_qwen_vl(folder, version="2.5"), "llava_ov": build_llava_onevision}

    @functools.cache
    def checkpoint(name: str) -> Path:
        """The checkpoint ``name``, built the first time a model class asks for it."""
        return builders[name](root / name)

    site = root / "site"
    write_test_distribution(site)
    python_path = [str(site), str(TESTS_DIR)]
    # lmms-eval imports decord at module level, for videos only (images never use it); installed or not is asked of
    # sys.path, not of sys.modules, which may hold the stand-in another test of this worker imported
    if importlib.machinery.PathFinder.find_spec("decord") is None:
        python_path.append(str(TESTS_DIR / "real_backends" / "stubs"))
    env = {
        "PYTHONPATH": os.pathsep.join(python_path + [p for p in [os.environ.get("PYTHONPATH")] if p]),
        "OMP_NUM_THREADS": "1",  # tiny matrices: one thread is ~8x faster than two
        "TOKENIZERS_PARALLELISM": "false",
    }
    limit = DEFAULT_LIMIT
    if "catbench" in tasks:
        from temporal_bench.catbench.fixtures import write_fixture

        env["CATBENCH_DATA_DIR"] = str(write_fixture(root / "catbench"))
    if "isobench" in tasks:
        from temporal_bench.isobench.fixtures import write_fixture

        env["ISOBENCH_DATA_DIR"] = str(write_fixture(root / "isobench", layout="json"))
    if any(task.startswith("tempvs_") for task in tasks):
        from tests.tempvs_fixture_copies import write_tempvs as write_fixture

        data = write_fixture(root / "tempvs", n_sequences=1)
        env["TEMPVS_DATA_DIR"] = str(data)
        limit = max([limit] + [_tempvs_limit(task, data) for task in tasks if task.startswith("tempvs_")])
    return {"root": root, "tasks": tasks, "checkpoint": checkpoint, "env": env, "limit": limit}


def pytest_generate_tests(metafunc):
    """The model classes of the test module that imported these tests (its ``BACKEND_IDS``)."""
    if "backend_id" in metafunc.fixturenames:
        metafunc.parametrize("backend_id", getattr(metafunc.module, "BACKEND_IDS", list(BACKENDS)), scope="session")


@pytest.fixture(scope="session")
def backend_run(backend_id, backend_setup) -> dict:
    """One ``lmms-eval`` call per model class over every registered task."""
    backend = BACKENDS[backend_id]
    out = backend_setup["root"] / f"run_{backend_id}"
    out.mkdir()
    record = out / "record.jsonl"
    tasks = [task for task in backend_setup["tasks"] if task not in backend.get("unsupported", {})]
    model_args = f"pretrained={backend_setup['checkpoint'](backend['checkpoint'])},{backend['model_args']}"
    command = [
        str(BIN / "lmms-eval"),
        "--model",
        backend["model"],
        "--model_args",
        model_args,
        "--tasks",
        ",".join(tasks),
        "--limit",
        str(backend_setup["limit"]),
        "--batch_size",
        "1",
        "--output_path",
        str(out / "lmms_eval_out"),
        "--log_samples",
    ]
    log = run_cli(command, out, env={**backend_setup["env"], "REAL_BACKENDS_RECORD": str(record)})
    results = read_results(out / "lmms_eval_out", tasks, log)
    assert record.is_file(), f"the recording model wrote nothing\n{log.stderr[-6000:]}"
    records: dict[str, dict[int, dict]] = {task: {} for task in tasks}
    for line in record.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        assert item["doc_id"] not in records[item["task"]], f"request of {item['task']}/{item['doc_id']} seen twice"
        records[item["task"]][item["doc_id"]] = item
    samples = {task: read_samples(out / "lmms_eval_out", task) for task in tasks}
    return {**backend, "backend": backend_id, "results": results, "records": records, "samples": samples, "log": log, "limit": backend_setup["limit"]}


def _require(run: dict, task: str) -> None:
    if task in run.get("unsupported", {}):
        pytest.skip(run["unsupported"][task])
    if task not in run["results"]["results"]:
        pytest.skip(f"task {task} is not registered (no YAML declares it under {LMMS_EVAL_TASK_DIR})")


def test_every_registered_task_ran_through_the_real_class(backend_run):
    for task, by_doc in backend_run["records"].items():
        samples = backend_run["samples"][task]
        assert samples, task
        assert sorted(by_doc) == sorted(sample["doc_id"] for sample in samples), task
        assert len(samples) == min(backend_run["limit"], backend_run["results"]["n-samples"][task]["original"]), task
        for record in by_doc.values():
            assert record["model_class"] == backend_run["real_class"]
            assert record["is_simple"] is backend_run["simple"]
            assert len(record["processor_calls"]) == 1 and len(record["generate_calls"]) == 1, record["task"]


def _expected_images(task: str, record: dict) -> int:
    if task == "catbench":
        return 0
    if task == "isobench":
        return 1
    if record["doc_visual"] == "separate":
        return record["doc_frames"]
    return 1


@pytest.mark.parametrize("task", TASKS)
def test_each_request_reached_the_model_with_the_right_images(backend_run, task):
    _require(backend_run, task)
    for doc_id, record in backend_run["records"][task].items():
        expected = _expected_images(task, record)
        if task == "tempvs_mt3_event_separate":
            assert record["doc_visual"] == "separate" and expected == record["doc_frames"] > 1
        if task == "tempvs_mt1_two":
            assert record["doc_visual"] == "combined"
        (processor_call,) = record["processor_calls"]
        (generate_call,) = record["generate_calls"]
        where = f"{task}/{doc_id}"
        assert processor_call["n_images"] == expected, where
        assert processor_call["n_videos"] == 0, where
        if backend_run["checkpoint"].startswith("qwen"):
            # every image became one <|vision_start|> ... <|vision_end|> block in the model input, with
            # as many <|image_pad|> tokens as its grid has merged patches
            assert generate_call["vision_starts"] == expected, where
            assert len(generate_call["image_grid_thw"]) == expected, where
            merged = sum(t * h * w for t, h, w in generate_call["image_grid_thw"]) // 4
            assert generate_call["image_pad_tokens"] == merged, where
        else:  # LLaVA-OneVision: one pixel_values entry and one size per image, <image> features in the ids
            assert len(generate_call["image_sizes"]) == expected, where
            assert (generate_call["pixel_values"] or [0])[0] == expected, where
            assert (generate_call["image_pad_tokens"] > 0) is (expected > 0), where
        if expected:
            assert generate_call["pixel_values"] is not None, where


@pytest.mark.parametrize("task", TASKS)
def test_the_full_prompt_reached_the_model(backend_run, task):
    _require(backend_run, task)
    samples = {sample["doc_id"]: sample for sample in backend_run["samples"][task]}
    for doc_id, record in backend_run["records"][task].items():
        prompt = samples[doc_id]["input"]
        assert prompt == record["context"]
        assert len(prompt) > 40 and "<image>" not in prompt
        (processor_call,) = record["processor_calls"]
        (text,) = processor_call["texts"]
        assert prompt in text, f"{task}/{doc_id}: the prompt is not in the text given to the processor"
        # and it survived tokenization (byte-level tokenizer: decoding is lossless)
        decoded = record["generate_calls"][0]["decoded_input"]
        assert prompt in decoded, f"{task}/{doc_id}: the prompt is not in the model's input ids"
        if task == "tempvs_mt3_event_separate":  # separate images precede the question (docs/protocol/tempvs.md §4.5)
            assert decoded.rindex(backend_run["image_end"]) < decoded.index(prompt)
        assert decoded.startswith("<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n")
        assert decoded.endswith("<|im_end|>\n<|im_start|>assistant\n")


@pytest.mark.parametrize("task", TASKS)
def test_generation_settings_were_applied(backend_run, task):
    _require(backend_run, task)
    expected = GENERATION[task]
    assert backend_run["results"]["configs"][task]["generation_kwargs"] == expected
    samples = {sample["doc_id"]: sample for sample in backend_run["samples"][task]}
    for doc_id, record in backend_run["records"][task].items():
        assert record["task_gen_kwargs"] == expected, f"{task}/{doc_id}"
        (call,) = record["generate_calls"]
        assert call["max_new_tokens"] == expected["max_new_tokens"]
        assert call["do_sample"] is False
        assert call["temperature"] in (None, 0, 0.0)
        assert call["num_beams"] == 1
        assert 1 <= call["new_tokens"] <= min(expected["max_new_tokens"], NEW_TOKENS_CAP)
        counts = samples[doc_id].get("token_counts") or [None]
        if counts[0]:  # the chat class reports its output tokens
            assert counts[0]["output_tokens"] == call["new_tokens"]
    # a random model hardly ever emits end-of-turn: the cap is what stopped it
    cap = min(expected["max_new_tokens"], NEW_TOKENS_CAP)
    assert max(r["generate_calls"][0]["new_tokens"] for r in backend_run["records"][task].values()) == cap


def _per_doc(sample: dict, metric: str) -> dict:
    value = sample[metric]
    assert isinstance(value, dict), (metric, value)
    return value


@pytest.mark.parametrize("task", TASKS)
def test_responses_flow_through_parsing_into_the_metrics(backend_run, task):
    _require(backend_run, task)
    results = backend_run["results"]["results"][task]
    samples = backend_run["samples"][task]
    records = backend_run["records"][task]
    for sample in samples:
        response = records[sample["doc_id"]]["response"]
        filtered = sample["filtered_resps"]
        filtered = filtered[0] if isinstance(filtered, list) else filtered
        assert filtered == response, f"{task}/{sample['doc_id']}: logged response differs from the model's"
    metric_names = [entry["metric"] for entry in backend_run["results"]["configs"][task]["metric_list"]]
    for name in metric_names:
        assert f"{name},none" in results, f"{task}: metric {name} missing from the results"
    if task in ("catbench", "isobench"):
        if task == "catbench":
            from temporal_bench.lmms_eval_tasks.catbench.parsing import parse_answer_only
        else:
            from temporal_bench.lmms_eval_tasks.isobench.parsing import parse_answer_only
        preds = []
        for sample in samples:
            value = _per_doc(sample, metric_names[0])
            assert value["pred"] == parse_answer_only(records[sample["doc_id"]]["response"])
            assert value["gold"] == sample["target"]
            preds.append((value["gold"], value["pred"]))
        parsed = [(gold, pred) for gold, pred in preds if pred in ("yes", "no")]
        if task == "catbench":  # invalid answers are scored as the wrong class
            assert results["invalid_count,none"] == len(preds) - len(parsed)
            assert results["accuracy,none"] == pytest.approx(statistics.mean(g == p for g, p in preds))
        else:  # the default scores use the parsed answers; coverage is their share (accuracies: breakdowns)
            from temporal_bench.isobench.breakdowns import breakdown_metrics

            assert results["coverage,none"] == pytest.approx(len(parsed) / len(preds))
            breakdowns = breakdown_metrics(task, [{**_per_doc(sample, metric_names[0]), "failed": False} for sample in samples])  # as the report reads them back
            assert breakdowns["strict_accuracy"] == pytest.approx(statistics.mean(g == p for g, p in preds))
            if parsed:
                assert breakdowns["accuracy"] == pytest.approx(statistics.mean(g == p for g, p in parsed))
    else:
        kinds = set()
        for sample in samples:
            value = _per_doc(sample, metric_names[0])
            kinds.add(value["kind"])
            assert "pred" in value and value["gold"], f"{task}/{sample['doc_id']}: {value}"
        assert kinds == {"grounding", "main"}, f"{task}: the run should hold both question kinds, got {kinds}"
