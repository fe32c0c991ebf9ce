"""TempVS end to end through the real lmms-eval CLI on the fixture: oracle, always-wrong,
grounds-right-but-main-wrong and a scripted mixed model (compared with the independent
re-computation of the official algorithm and with the single tasks), the request count of
``--tasks tempvs_protocol`` against the protocol's, the CoT / blind / separate / standalone-GT / images-only variants, the
settings recorded in the results, what each task read (computed from its samples). (Two processes against one with
``--limit``: test_multiprocess.)"""

import csv
import json

import pytest

from temporal_bench.lmms_eval_tasks.plugin.tempvs.utils import check_settings
from temporal_bench.lmms_eval_tasks.tempvs.spec import GROUNDING_TESTS, MAIN_TESTS, SOURCES, TempVSDataError
from temporal_bench.lmms_eval_tasks.tempvs.tempvs_to_hf import IMGIDX
from temporal_bench.report import LAYOUTS
from temporal_bench.report.cli import main_report
from temporal_bench.report.cluster_stats import cluster_stats_of
from temporal_bench.report.intervals import record_intervals, task_intervals
from temporal_bench.report.rows import build_rows
from temporal_bench.runs.logged import find_runs
from temporal_bench.runs.results import load_runs
from temporal_bench.tempvs.breakdowns import breakdown_metrics
from temporal_bench.tempvs.task_tests import SHARED_GROUNDING_TASKS, metric_prefix, records_of_test
from tests.harness import BIN, lmms_eval, metric, read_results, read_samples, run_cli
from tests.task_docs import task_docs, tempvs_main_docs
from tests.tempvs_fixture_copies import write_tempvs as write_fixture
from tests.tempvs_official_eval import official
from tests.unit.test_tempvs_metrics import answers_of, mixed_response

GROUP = ["tempvs_mt1_two", "tempvs_mt1_three", "tempvs_ordering_event", "tempvs_ordering_caption"]  # tempvs_protocol (--tasks tempvs: test_tempvs_suite.py)
SINGLE = [f"tempvs_{test}" for test in MAIN_TESTS]  # the six main tests, one task each
FOUR = ("gt_acc", "gtstrict_rate", "mt_acc", "mt_given_gtstrict")
ORACLE_VARIANTS = ["tempvs_mt1_two_blind", "tempvs_mt2_caption_blind", "tempvs_mt1_two_unfiltered", "tempvs_gt_all_story", "tempvs_mt3_images_only"]


def where(task, test):
    """(task, metric prefix) holding ``test``'s metrics in a ``--tasks tempvs_protocol`` run."""
    for name, tests in SHARED_GROUNDING_TASKS.items():
        if test in tests:
            return f"tempvs_{name}", f"{metric_prefix('tempvs_' + name, test)}_"
    return task, ""


def breakdowns(out, task):
    """The task's every metric key of old, from its logged records (as `temporal-bench report` does)."""
    return breakdown_metrics(task, find_runs(out)[0].records(task))


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    return write_fixture(tmp_path_factory.mktemp("tempvs_cli"))


@pytest.fixture(scope="module")
def oracle_run(data, tmp_path_factory):
    """One oracle run of the main group and of the blind, unfiltered and standalone-GT variants:
    (results, CLI log, output folder)."""
    out = tmp_path_factory.mktemp("tempvs_oracle") / "lmms_eval_out"
    out.mkdir()
    command = [str(BIN / "lmms-eval"), "--model", "scripted", "--model_args", "policy=oracle", "--tasks", ",".join(["tempvs_protocol", *ORACLE_VARIANTS]), "--output_path", str(out), "--log_samples"]
    log = run_cli(command, out, {"TEMPVS_DATA_DIR": str(data)})
    return read_results(out, GROUP + ORACLE_VARIANTS, log), log, out


def _docs(task, data):
    return task_docs(task, data)


def _script(tmp_path, tasks, respond, data):
    script = {f"{task}/{i}": respond(task, doc) for task in tasks for i, doc in enumerate(_docs(task, data))}
    path = tmp_path / "script.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    return path


def test_oracle_scores_one_everywhere_and_logs_filters(oracle_run, data):
    results, _, out = oracle_run
    for test in MAIN_TESTS:
        task, prefix = where(f"tempvs_{test}", test)
        for name in FOUR:
            assert metric(results, task, prefix + name) == 1.0, (task, name)
        assert metric(results, task, prefix + "invalid_rate") == 0.0 and metric(results, task, prefix + "failed_count") == 0
        values = breakdowns(out, task)
        for source in SOURCES:
            assert values[f"{prefix}mt_{source}"] == 1.0 and values[f"{prefix}gtstrict_{source}"] == 1.0
        assert values[prefix + "gt_missing_count"] == 0 and values[prefix + "mt_given_gtfail"] is None
    for task in GROUP:
        # one request per main question plus one per distinct grounding question
        docs = _docs(task, data)
        assert results["n-samples"][task]["effective"] == len(docs) == len(read_samples(out, task))
        assert results["configs"][task]["metadata"]["fixes"] == [] and "lmms_eval_specific_kwargs" in results["configs"][task]
    assert breakdowns(out, "tempvs_mt1_two")["two_after_pos"] == 1.0 and breakdowns(out, "tempvs_mt1_two")["dist4"] == 1.0
    assert breakdowns(out, "tempvs_mt1_three")["three_implicttriple_neg"] == 1.0
    # the filter counts per test, source and stage, and what the run read, computed from its samples: the data's
    # folder, its per-test and per-source main questions (those the filters keep), no failed or invalid answer
    counts = tempvs_main_docs(["mt1_two", "mt2_event"], data_dir=data)[1].counts
    assert counts["paired_event_discrimination"]["pororo"]["rows"] == 40 and counts["paired_event_discrimination"]["pororo"]["after_invalid_event_filter"] == 38
    assert counts["single_grounding_all"]["vist"] == {"rows": 25, "after_invalid_event_filter": 24}
    logged = find_runs(out)[0]
    read = logged.data_read("tempvs_mt1_two")
    assert (read.folder, read.synthetic, read.failed, read.invalid, read.questions) == (str(data), True, 0, 0, len(_docs("tempvs_mt1_two", data)))
    assert read.counts["mt1_two/pororo"] == counts["paired_event_discrimination"]["pororo"]["after_blind_filter"] < 38
    assert sum(read.counts.values()) == sum(doc["kind"] == "main" for doc in _docs("tempvs_mt1_two", data)) and len(read.fingerprint) == 16
    assert set(logged.data_read("tempvs_ordering_event").counts) == {f"{test}/{source}" for test in ("mt2_event", "mt3_event") for source in SOURCES}
    # the report's intervals of the tests that --tasks tempvs_protocol asks two by two (MT2 and MT3)
    run = load_runs([out])[0]
    for test in ("mt2_event", "mt3_caption"):
        found, why = task_intervals(run, f"tempvs_{test}").cell("mt_acc", 1.0)
        assert (found.value, found.low, found.high, why) == (1.0, 1.0, 1.0, ""), test


def test_report_breakdowns_lists_every_key_of_the_run(oracle_run, tmp_path):
    """`report --breakdowns`: each task's headline and breakdown keys with the values computed from
    its samples (here the official script's k-pass columns too), without the "N/A" standard errors."""
    _, _, out = oracle_run
    listing = tmp_path / "keys.csv"
    assert main_report([str(out), "--breakdowns", "--format", "csv", "-o", str(listing)]) == 0
    with open(listing, encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    listed = {row["metric"]: row["value"] for row in rows if row["task"] == "tempvs_mt1_three"}
    expected = breakdowns(out, "tempvs_mt1_three")
    assert {name: listed[name] for name in expected} == {name: "" if v is None else str(v) for name, v in expected.items()}
    assert (listed["mt_given_gt_atleast1"], listed["mt_given_gt_atleast2"], listed["gt_atleast2_count"]) == ("1.0", "1.0", listed["main_count"])
    assert not any(row["metric"].endswith("_stderr") and row["value"] == "N/A" for row in rows)


def test_suite_sends_each_distinct_question_once(oracle_run, data):
    """--tasks tempvs_protocol: the protocol's request count (each main question after the filters, each
    grounding question of each grounding test once), not the single tasks' sum."""
    results, _, _ = oracle_run
    single = {task: _docs(task, data) for task in SINGLE}
    distinct = {d["doc_key"] for docs in single.values() for d in docs}
    sent = sum(results["n-samples"][task]["effective"] for task in GROUP)
    assert sent == len(distinct) == 547 < sum(len(docs) for docs in single.values()) == 755


def test_always_wrong_scores_zero(tmp_path, data, oracle_run):
    results = lmms_eval(tmp_path, ["tempvs_protocol"], model_args="policy=wrong", env={"TEMPVS_DATA_DIR": str(data)})
    # the same data read: the same fingerprint whatever the answers
    wrong, oracle = find_runs(tmp_path / "lmms_eval_out")[0], find_runs(oracle_run[2])[0]
    assert [wrong.data_read(task).fingerprint for task in GROUP] == [oracle.data_read(task).fingerprint for task in GROUP]
    for test in MAIN_TESTS:
        task, prefix = where(f"tempvs_{test}", test)
        assert [metric(results, task, prefix + name) for name in ("gt_acc", "gtstrict_rate", "mt_acc")] == [0.0, 0.0, 0.0], task
        assert metric(results, task, prefix + "mt_given_gtstrict") is None  # no GT_strict passes: the paper's "-"
        assert breakdowns(tmp_path / "lmms_eval_out", task)[prefix + "mt_given_gtfail"] == 0.0


def test_grounding_right_main_wrong_and_mixed_match_the_reference_and_the_single_tasks(tmp_path, data):
    """One run of the suite and of the six single tasks on the same responses (a function of the
    question alone): MT2 and MT3 event ground right (single_grounding_all) and answer their main
    questions wrong; the other four answer a deterministic mix with the extraction quirks (article
    "A", lowercase, first number, number words, refusals). Each test's metrics in the suite (headline
    and breakdowns) equal its single task's; those of the mixed tests equal the reference's."""
    ground_only = {"mt2_event", "mt3_event"}
    wrong_main = {MAIN_TESTS[test].task_id for test in ground_only}

    def respond(doc):
        if doc["task_id"] == "single_grounding_all":
            return doc["answer"]
        if doc["task_id"] in wrong_main:
            return next(c for c in doc["choices"] if c != doc["answer"])
        return mixed_response(doc)

    script = _script(tmp_path, GROUP + SINGLE, lambda task, doc: respond(doc), data)
    results = lmms_eval(tmp_path, ["tempvs_protocol", *SINGLE], model_args=f"policy=script,script={script}", env={"TEMPVS_DATA_DIR": str(data)})
    out = tmp_path / "lmms_eval_out"
    for test, spec in MAIN_TESTS.items():
        single = f"tempvs_{test}"
        task, prefix = where(single, test)
        alone, in_suite = breakdowns(out, single), breakdowns(out, task)
        assert {name: in_suite[prefix + name] for name in alone} == alone, test
        if task != single:  # its intervals in a suite run: from its records of the task asking two tests
            logged = find_runs(out)[0]
            assert record_intervals(cluster_stats_of(single), records_of_test(test, logged.records(task))) == record_intervals(cluster_stats_of(single), logged.records(single)), test
        for name in FOUR + ("invalid_rate", "failed_count"):
            assert metric(results, task, prefix + name) == metric(results, single, name), (test, name)
        if test in ground_only:
            assert [alone[name] for name in FOUR] == [1.0, 1.0, 0.0, 0.0], test
            continue
        expected = official(data, spec.task_id, GROUNDING_TESTS[spec.grounding_test], answers_of(_docs(single, data), respond))
        for name in FOUR + ("mt_given_gtfail",) + tuple(name for name in alone if "atleast" in name):
            assert (alone[name] is None) if expected[name] is None else alone[name] == pytest.approx(expected[name], abs=1e-12), (test, name)
        for source in SOURCES:
            assert alone[f"mt_{source}"] == pytest.approx(expected["per_source"][source]["mt_acc"])
        assert 0 < metric(results, single, "invalid_rate") < 1


def test_cot_blind_separate_unfiltered_and_standalone_grounding(tmp_path, data, oracle_run):
    env = {"TEMPVS_DATA_DIR": str(data)}
    # CoT: the last <answer> tag counts; the same output scored by the plain task hits the article quirk
    template = "<think>A man waves first; see Image 1.</think><answer>Option {answer}</answer>"
    results = lmms_eval(tmp_path / "cot", ["tempvs_mt1_two_cot", "tempvs_mt3_caption_cot", "tempvs_mt1_two"], model_args=f"policy=oracle,template={template}", env=env)
    for task in ("tempvs_mt1_two_cot", "tempvs_mt3_caption_cot"):
        assert metric(results, task, "mt_acc") == 1.0 and metric(results, task, "invalid_rate") == 0.0
    assert metric(results, "tempvs_mt1_two", "mt_acc") < 1.0
    # blind: text only, no grounding docs; unfiltered: more main questions; standalone GT (the oracle run)
    tasks = [*ORACLE_VARIANTS, "tempvs_mt1_two"]
    results, _, out = oracle_run
    for task in tasks:
        assert metric(results, task, "gt_acc" if task.startswith("tempvs_gt") else "mt_acc") == 1.0
    assert metric(results, "tempvs_mt1_two_blind", "gtstrict_rate") is None
    assert breakdowns(out, "tempvs_mt1_two_blind")["grounding_count"] == 0
    assert breakdowns(out, "tempvs_mt1_two_blind")["main_count"] == breakdowns(out, "tempvs_mt1_two_unfiltered")["main_count"] == 156
    assert breakdowns(out, "tempvs_mt1_two")["main_count"] == 74
    # a text-only record says whether the text-only-LLM filter keeps its question: Table 17's "after"
    blind = find_runs(out)[0].records("tempvs_mt1_two_blind")
    assert sum(record["filter_kept"] for record in blind) == 74
    assert breakdowns(out, "tempvs_mt1_two_blind")["mt_acc_filtered"] == 1.0
    assert "mt_acc_filtered" not in breakdowns(out, "tempvs_mt1_two_unfiltered")
    [row] = [r for r in build_rows(LAYOUTS["tempvs-table17"], load_runs([out]), include_published=False)]
    assert (row.values["two_event_before"], row.values["two_event_after"], row.values["mt2_caption_after"]) == (1.0, 1.0, 1.0)
    assert breakdowns(out, "tempvs_gt_all_story")["grounding_count"] == 104
    # the settings are in the results: the variants differ in their recorded metadata
    configs = results["configs"]
    assert configs["tempvs_mt1_two"]["metadata"]["blind_filter"] is True and configs["tempvs_mt1_two_unfiltered"]["metadata"]["blind_filter"] is False
    assert configs["tempvs_mt1_two_blind"]["metadata"]["mode"] == "blind"
    # separate images: every frame is decoded (decode_only opens what doc_to_visual returns)
    results = lmms_eval(tmp_path / "separate", ["tempvs_mt3_event_separate", "tempvs_gt_all_separate"], model="decode_only", model_args="seed=3", env=env, extra=["--limit", "40"])
    assert results["n-samples"]["tempvs_mt3_event_separate"]["effective"] == 40


def test_images_only_asks_the_mt3_questions_with_no_text_and_fills_table19(oracle_run, data):
    """Table 19's third column: the MT3 questions and shuffled images of `tempvs_mt3_event`, with no
    events, captions, character description or grounding question."""
    results, _, out = oracle_run
    assert metric(results, "tempvs_mt3_images_only", "mt_acc") == 1.0
    assert metric(results, "tempvs_mt3_images_only", "gtstrict_rate") is None
    counts = breakdowns(out, "tempvs_mt3_images_only")
    assert (counts["main_count"], counts["grounding_count"]) == (breakdowns(out, "tempvs_ordering_event")["mt3_main_count"], 0) == (18, 0)
    with_events = {doc["doc_key"]: doc for doc in _docs("tempvs_mt3_event", data) if doc["kind"] == "main"}
    for doc in _docs("tempvs_mt3_images_only", data):
        shown = with_events[doc["doc_key"]]
        assert (doc["image"], doc["answer"], doc["mode"]) == (shown["image"], shown["answer"], "images_only")
        assert doc["prompt"].startswith("\nThe images show a story or event sequence.")
        assert "The events are:" in shown["prompt"] and "The events are:" not in doc["prompt"]
        assert "description of the possible appearance" not in doc["prompt"]
        assert doc["prompt"].split(IMGIDX)[1] == shown["prompt"].split(IMGIDX)[1]  # the same format line and options
    assert results["configs"]["tempvs_mt3_images_only"]["metadata"]["mode"] == "images_only"
    [row] = build_rows(LAYOUTS["tempvs-table19"], load_runs([out]), include_published=False)
    assert row.values == {"with_events": 1.0, "with_captions": 1.0, "images_only": 1.0}
    with pytest.raises(TempVSDataError, match=r"mode 'images_only' is MT3's alone \(tests: \[mt3_event\]"):
        check_settings(("mt3_caption",), mode="images_only")  # the same questions: one task asks them
