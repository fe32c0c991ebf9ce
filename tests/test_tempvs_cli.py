"""TempVS end to end through the real lmms-eval CLI on the fixture: oracle, always-wrong,
grounds-right-but-main-wrong and a scripted mixed model (compared with the independent
re-computation of the official algorithm), the CoT / blind / separate / standalone-GT variants, and
two processes against one with ``--limit``."""

import json

import pytest

from temporal_bench.tempvs.fixtures import write_fixture
from temporal_bench.tempvs.hooks import docs_of
from temporal_bench.tempvs.spec import MAIN_TESTS, SOURCES
from temporal_bench.tempvs.tasks import GROUPS, TASKS
from tests.harness import lmms_eval, metric, read_results, read_samples, run_cli, BIN
from tests.tempvs_official_eval import official
from tests.test_tempvs_metrics import answers_of, mixed_response

MAIN = GROUPS["tempvs"]
FOUR = ("gt_acc", "gtstrict_rate", "mt_acc", "mt_given_gtstrict")
ORACLE_VARIANTS = ["tempvs_mt1_two_blind", "tempvs_mt2_caption_blind", "tempvs_mt1_two_unfiltered", "tempvs_gt_all_story"]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    return write_fixture(tmp_path_factory.mktemp("tempvs_cli"))


@pytest.fixture(scope="module")
def oracle_run(data, tmp_path_factory):
    """One oracle run of the main group and of the blind, unfiltered and standalone-GT variants:
    (results, CLI log, output folder)."""
    out = tmp_path_factory.mktemp("tempvs_oracle") / "lmms_eval_out"
    out.mkdir()
    command = [str(BIN / "lmms-eval"), "--model", "scripted", "--model_args", "policy=oracle", "--tasks",
               ",".join(["tempvs", *ORACLE_VARIANTS]), "--output_path", str(out), "--log_samples"]
    log = run_cli(command, out, {"TEMPVS_DATA_DIR": str(data)})
    return read_results(out, MAIN + ORACLE_VARIANTS, log), log, out


def _docs(task, data):
    return docs_of(TASKS[task], data_dir=data)


def _script(tmp_path, tasks, respond, data):
    script = {f"{task}/{i}": respond(task, doc) for task in tasks for i, doc in enumerate(_docs(task, data))}
    path = tmp_path / "script.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    return path


def test_oracle_scores_one_everywhere_and_logs_filters(oracle_run, data):
    results, log, out = oracle_run
    for task in MAIN:
        for name in FOUR:
            assert metric(results, task, name) == 1.0, (task, name)
        for source in SOURCES:
            assert metric(results, task, f"mt_{source}") == 1.0
            assert metric(results, task, f"gtstrict_{source}") == 1.0
        assert metric(results, task, "invalid_rate") == 0.0
        assert metric(results, task, "gt_missing_count") == 0
        assert metric(results, task, "mt_given_gtfail") is None
        # one request per main question plus one per distinct grounding question
        docs = _docs(task, data)
        assert results["n-samples"][task]["effective"] == len(docs) == metric(results, task, "main_count") + metric(results, task, "grounding_count")
        assert len(read_samples(out, task)) == len(docs)
    assert metric(results, "tempvs_mt1_two", "two_after_pos") == 1.0 and metric(results, "tempvs_mt1_two", "dist4") == 1.0
    assert metric(results, "tempvs_mt1_three", "three_implicttriple_neg") == 1.0
    # filter counts are logged per task, source and stage
    assert "TempVS tempvs_mt1_two: pororo paired_event_discrimination: rows=40, after_invalid_event_filter=38, after_blind_filter=" in log.stdout + log.stderr
    assert "TempVS tempvs_mt3_event: vist single_grounding_all: rows=25, after_invalid_event_filter=24" in log.stdout + log.stderr


def test_always_wrong_scores_zero(tmp_path, data):
    results = lmms_eval(tmp_path, ["tempvs"], model_args="policy=wrong", env={"TEMPVS_DATA_DIR": str(data)})
    for task in MAIN:
        assert [metric(results, task, name) for name in ("gt_acc", "gtstrict_rate", "mt_acc")] == [0.0, 0.0, 0.0], task
        assert metric(results, task, "mt_given_gtstrict") is None  # no GT_strict passes: the paper's "-"
        assert metric(results, task, "mt_given_gtfail") == 0.0


def test_grounding_right_main_wrong_and_mixed_match_the_reference(tmp_path, data):
    """One run: mt2_event and mt3_caption ground right and answer main questions wrong; the other
    four answer a deterministic mix with the extraction quirks (article "A", lowercase, first number,
    number words, refusals)."""
    ground_only = {"tempvs_mt2_event", "tempvs_mt3_caption"}

    def respond(task, doc):
        if task in ground_only:
            return doc["answer"] if doc["kind"] == "grounding" else next(c for c in doc["choices"] if c != doc["answer"])
        return mixed_response(doc)

    script = _script(tmp_path, MAIN, respond, data)
    results = lmms_eval(tmp_path, ["tempvs"], model_args=f"policy=script,script={script}", env={"TEMPVS_DATA_DIR": str(data)})
    for task in ground_only:
        assert metric(results, task, "gt_acc") == 1.0 and metric(results, task, "gtstrict_rate") == 1.0
        assert metric(results, task, "mt_acc") == 0.0 and metric(results, task, "mt_given_gtstrict") == 0.0
    for task in set(MAIN) - ground_only:
        spec = MAIN_TESTS[task[len("tempvs_"):]]
        docs = _docs(task, data)
        expected = official(data, spec.task_id, spec.grounding_task_id, answers_of(docs, mixed_response))
        for name in FOUR + ("mt_given_gtfail",):
            got = metric(results, task, name)
            assert (got is None) if expected[name] is None else got == pytest.approx(expected[name], abs=1e-12), (task, name)
        for source in SOURCES:
            assert metric(results, task, f"mt_{source}") == pytest.approx(expected["per_source"][source]["mt_acc"])
        assert 0 < metric(results, task, "invalid_rate") < 1


def test_cot_blind_separate_unfiltered_and_standalone_grounding(tmp_path, data, oracle_run):
    env = {"TEMPVS_DATA_DIR": str(data)}
    # CoT: the last <answer> tag counts; the same output scored by the plain task hits the article quirk
    template = "<think>A man waves first; see Image 1.</think><answer>Option {answer}</answer>"
    results = lmms_eval(tmp_path / "cot", ["tempvs_mt1_two_cot", "tempvs_mt3_caption_cot", "tempvs_mt1_two"],
                        model_args=f"policy=oracle,template={template}", env=env)
    for task in ("tempvs_mt1_two_cot", "tempvs_mt3_caption_cot"):
        assert metric(results, task, "mt_acc") == 1.0 and metric(results, task, "invalid_rate") == 0.0
    assert metric(results, "tempvs_mt1_two", "mt_acc") < 1.0
    # blind: text only, no grounding docs; unfiltered: more main questions; standalone GT (the oracle run)
    tasks = [*ORACLE_VARIANTS, "tempvs_mt1_two"]
    results = oracle_run[0]
    for task in tasks:
        assert metric(results, task, "gt_acc" if task.startswith("tempvs_gt") else "mt_acc") == 1.0
    assert metric(results, "tempvs_mt1_two_blind", "gtstrict_rate") is None
    assert metric(results, "tempvs_mt1_two_blind", "grounding_count") == 0
    assert metric(results, "tempvs_mt1_two_blind", "main_count") == metric(results, "tempvs_mt1_two_unfiltered", "main_count") == 156
    assert metric(results, "tempvs_mt1_two", "main_count") == 74
    assert metric(results, "tempvs_gt_all_story", "grounding_count") == 104
    # separate images: every frame is decoded (decode_only opens what doc_to_visual returns)
    results = lmms_eval(tmp_path / "separate", ["tempvs_mt3_event_separate", "tempvs_gt_all_separate"], model="decode_only",
                        model_args="seed=3", env=env, extra=["--limit", "40"])
    assert results["n-samples"]["tempvs_mt3_event_separate"]["effective"] == 40


def _metrics(results):
    return {task: {k: v for k, v in values.items() if k != "alias"} for task, values in results["results"].items()}


def test_two_processes_equal_one_and_limit_reports_missing_partners(tmp_path, data):
    env = {"TEMPVS_DATA_DIR": str(data)}
    tasks = ["tempvs_mt1_two", "tempvs_mt2_event"]
    args = dict(model="random_choice", model_args="seed=7", env=env, extra=["--limit", "61"])
    one = lmms_eval(tmp_path / "one", tasks, **args)
    two = lmms_eval(tmp_path / "two", tasks, processes=2, **args)
    assert _metrics(one) == _metrics(two)
    for task in tasks:
        docs = _docs(task, data)[:61]
        present = {d["doc_key"] for d in docs}
        lacking = sum(1 for d in docs if d["kind"] == "main" and not set(d["partners"]) <= present)
        # docs come per sequence, grounding first: a limit keeps the partners of every main question
        # it keeps (a cut partner would be counted here and left out of GT_strict, test_tempvs_metrics)
        assert metric(one, task, "gt_missing_count") == lacking == 0
        assert metric(one, task, "main_count") == sum(d["kind"] == "main" for d in docs) > 0
        assert one["n-samples"][task]["effective"] == 61
    assert 0 < metric(one, "tempvs_mt1_two", "gt_acc") < 1
