"""``--tasks tempvs`` asks each distinct question once for all six main tests (one task: its docs are the main
questions and the distinct grounding questions, its aggregations each test's metrics), through the real lmms-eval
CLI on the fixture: the request count, every headline and breakdown value against the six single tasks
(``request_hash``: an answer fixed by the prompt text and the images in order) whatever order the tasks run in, and
the run read back by the report, intervals, compare, rescore and browse. (A ``--use_cache`` resume of ``--tasks
tempvs``: tests/e2e/test_interrupted_runs.py, with CaT-Bench in the same runs.)"""

import re
from dataclasses import replace
from pathlib import Path

import pytest

from temporal_bench.browse.cards import run_cards
from temporal_bench.browse.cli import main_browse
from temporal_bench.lmms_eval_tasks.plugin.tempvs.utils import shown_images
from temporal_bench.lmms_eval_tasks.tempvs.metrics import HEADLINE
from temporal_bench.lmms_eval_tasks.tempvs.spec import MAIN_TESTS
from temporal_bench.report.cluster_stats import cluster_stats_of
from temporal_bench.report.compare import compare_runs
from temporal_bench.report.intervals import record_intervals, task_intervals
from temporal_bench.rescore.scoring import rescore
from temporal_bench.runs.logged import find_runs
from temporal_bench.runs.results import load_runs, merge_runs
from temporal_bench.tempvs.breakdowns import breakdown_metrics
from temporal_bench.tempvs.task_tests import per_test_records, per_test_results
from tests.harness import lmms_eval
from tests.task_docs import task_docs
from tests.tempvs_fixture_copies import write_tempvs as write_fixture
from tests.tooling.test_browse import read_page

PROTOCOL = ["tempvs_mt1_two", "tempvs_mt1_three", "tempvs_ordering_event", "tempvs_ordering_caption"]
SINGLE = [f"tempvs_{test}" for test in MAIN_TESTS]
DISTINCT = 456  # the fixture's distinct (prompt, images) requests; the protocol asks 547 questions


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    return write_fixture(tmp_path_factory.mktemp("tempvs_suite"))


def _run(tmp_path_factory, name, tasks, data, model="request_hash", model_args=""):
    path = tmp_path_factory.mktemp(name)
    results = lmms_eval(path, tasks, model=model, model_args=model_args, env={"TEMPVS_DATA_DIR": str(data)})
    return results, find_runs(path / "lmms_eval_out")[0]


@pytest.fixture(scope="module")
def suite_run(data, tmp_path_factory):
    return _run(tmp_path_factory, "suite", ["tempvs"], data)


@pytest.fixture(scope="module")
def single_run(data, tmp_path_factory):
    """The six single tasks in reverse order, the protocol group (each asking its own grounding questions) and then the
    suite, in one run."""
    return _run(tmp_path_factory, "single", [*reversed(SINGLE), "tempvs_protocol", "tempvs"], data)


@pytest.fixture(scope="module")
def oracle_run(data, tmp_path_factory):
    """Another model (the oracle) on the protocol group and the suite, in one run."""
    return _run(tmp_path_factory, "oracle", ["tempvs_protocol", "tempvs"], data, model="scripted", model_args="policy=oracle")[1]


def asked_alone(logged, tasks):
    """``logged`` as a run of ``tasks`` alone (its results and samples of the others left out)."""
    return replace(logged, data={**logged.data, "results": {task: entry for task, entry in logged.data["results"].items() if task in tasks}}, samples={task: path for task, path in logged.samples.items() if task in tasks})


def _but_the_suite(logged):
    return asked_alone(logged, [task for task in logged.data["results"] if task != "tempvs"])


def _docs(task, data):
    return task_docs(task, data)


def test_the_suite_sends_each_distinct_request_once(suite_run, single_run, data):
    results, run = suite_run
    singles = [doc for task in SINGLE for doc in _docs(task, data)]
    requests = {(doc["prompt"], tuple(shown_images(doc))) for doc in singles}
    assert results["n-samples"]["tempvs"]["effective"] == len(requests) == DISTINCT
    assert sum(single_run[0]["n-samples"][task]["effective"] for task in PROTOCOL) == 547 < len(singles) == 755
    # each grounding question of the single tasks is served exactly once, by a question asking the same
    asked = [doc for doc in _docs("tempvs", data) if doc["kind"] == "grounding"]
    served = [(doc["source"], test, question_id) for doc in asked for test, question_id, _, _ in doc["serves"]]
    grounding = {(d["source"], d["doc_key"].split("/")[1], d["question_id"]): d for d in singles if d["kind"] == "grounding"}
    assert sorted(served) == sorted(grounding) and len(served) == 384 > len(asked) == 293
    for doc in asked:
        for test, question_id, gold, _ in doc["serves"]:
            twin = grounding[doc["source"], test, question_id]
            assert (twin["prompt"], shown_images(twin), twin["gt_option"]) == (doc["prompt"], shown_images(doc), gold)
    # the samples file logs each distinct question once, with the questions it serves
    logged = [r for r in run.records("tempvs") if r["kind"] == "grounding"]
    assert sorted(r["key"] for r in logged) == sorted(doc["doc_key"] for doc in asked)
    assert sum(len(r["serves"]) for r in logged) == 384 == results["results"]["tempvs"]["served_count,none"]
    assert results["results"]["tempvs"]["asked_count,none"] == 293
    assert results["configs"]["tempvs"]["metadata"]["suite"] is True


def test_every_metric_equals_the_single_tasks(suite_run, single_run):
    """Per test: the headline values in the results file, every breakdown the report computes, and
    the report's values and intervals read back from the run."""
    (results, run), (single_results, singles) = suite_run, single_run
    report = load_runs([run.results_path])[0]
    checked = 0
    for task in ["tempvs"]:
        for test_task, entry in per_test_results(task, results["results"][task]).items():
            expected = single_results["results"][test_task]
            assert {k: entry[f"{k},none"] for k in HEADLINE} == {k: expected[f"{k},none"] for k in HEADLINE}, test_task
        for test_task, records in per_test_records(task, run.records(task)).items():
            alone = breakdown_metrics(test_task, singles.records(test_task))
            assert breakdown_metrics(test_task, records) == alone, test_task
            assert {name: report.metric(test_task, name) for name in alone} == alone, test_task
            assert record_intervals(cluster_stats_of(test_task), records) == record_intervals(cluster_stats_of(test_task), singles.records(test_task)), test_task
            found, why = task_intervals(report, test_task).cell("mt_acc", alone["mt_acc"])
            assert why == "" and found == record_intervals(cluster_stats_of(test_task), records)["mt_acc"], test_task
            checked += 1
    assert checked == 6
    # the answers are not trivial: right, wrong and unparseable ones, and GT_strict passes
    values = per_test_results("tempvs", results["results"]["tempvs"])["tempvs_mt1_two"]
    assert 0 < values["gt_acc,none"] < 1 and 0 < values["gtstrict_rate,none"] and 0 < values["invalid_rate,none"] < 1


def test_the_same_numbers_whatever_order_the_tasks_run_in(suite_run, single_run):
    """The six single tests in reverse order, then the suite, in one run: each test's numbers are the suite's alone and
    the single task's; nothing depends on which task lmms-eval aggregates first."""
    results = single_run[0]["results"]
    alone = suite_run[0]["results"]["tempvs"]
    assert {k: v for k, v in results["tempvs"].items() if k != "alias"} == {k: v for k, v in alone.items() if k != "alias"}
    for test_task, entry in per_test_results("tempvs", results["tempvs"]).items():
        assert {k: entry[f"{k},none"] for k in HEADLINE} == {k: results[test_task][f"{k},none"] for k in HEADLINE}, test_task


def test_rescore_reproduces_the_suite(suite_run, data, monkeypatch, tmp_path):
    monkeypatch.setenv("TEMPVS_DATA_DIR", str(data))
    _, run = suite_run
    (task,) = rescore([run], tmp_path / "rescored", ["tempvs"])[0].tasks
    assert task.task == "tempvs" and task.changed_docs == 0
    # the results table: the questions asked and each test's four headline metrics; the counts of served, invalid
    # and failed requests are the report's breakdowns of the logged records, re-scored as well
    assert not any(row.changed for row in task.rows) and len(task.rows) == 1 + 6 * 4
    assert {"served_count,none", "mt1_two_invalid_rate,none", "mt3_caption_failed_count,none"} <= {row.key for row in task.breakdowns}
    assert not any(row.changed for row in task.breakdowns)


def test_compare_gives_the_protocol_runs_comparison(suite_run, single_run, oracle_run):
    """Suite run A against suite run B compares each test exactly as the protocol runs of the same models (the runs of
    the protocol: the tasks of the runs but the suite)."""
    suites = [asked_alone(logged, ["tempvs"]) for logged in (suite_run[1], oracle_run)]
    protocols = [_but_the_suite(logged) for logged in (single_run[1], oracle_run)]
    (run_a, run_b, protocol_a, protocol_b) = (merge_runs([logged])[0] for logged in (*suites, *protocols))
    suite, notes = compare_runs(run_a, run_b)
    protocol, _ = compare_runs(protocol_a, protocol_b)
    assert sorted(suite, key=lambda c: (c.task, c.metric)) == sorted(protocol, key=lambda c: (c.task, c.metric))
    assert {c.task for c in suite} == set(SINGLE) and len(suite) >= 6


def test_browse_shows_each_distinct_question_once_with_the_tests_it_serves(suite_run):
    """The images from the files the run's samples name: no data variable needed."""
    (task,) = run_cards([suite_run[1]])
    assert task.task == "tempvs"
    grounding = [card for card in task.cards if card.record["kind"] == "grounding"]
    assert len(grounding) == 293
    served = [join for card in grounding for join in card.joins if join.title.startswith("Asked once for")]
    assert len(served) == 293 and sum(int(join.title.split()[3]) for join in served) == 384
    ids = {card.id for card in grounding}
    values = per_test_results("tempvs", suite_run[0]["results"]["tempvs"])
    for test in MAIN_TESTS:
        mains = [card for card in task.cards if card.record["kind"] == "main" and card.record["test"] == test]
        strict = [join for card in mains for join in card.joins if join.title.startswith("GT_strict")]
        assert len(strict) == len(mains) > 0 and not any("not judged" in join.title for join in strict), test
        assert all(link.card in ids for join in strict for link in join.links), test
        assert sum(join.ok for join in strict) == round(len(mains) * values[f"tempvs_{test}"]["gtstrict_rate,none"]), test
        if test.startswith("mt2") or test.startswith("mt3"):  # every grounding question of the sequence, as the metrics join them
            assert [len(j.links) for j in strict] == [card.record["partners"] for card in mains], test


def test_browse_tasks_takes_a_test_name(suite_run, tmp_path, capsys):
    """``browse --tasks tempvs_mt1_two`` on a ``--tasks tempvs`` run: the task that asks the test."""
    argv = [str(suite_run[1].results_path), "--output", str(tmp_path / "page.html"), "--tasks", "tempvs_mt1_two"]
    assert main_browse(argv) == 0
    path = capsys.readouterr().out.splitlines()[-1]
    cards, table, missing, _ = read_page(Path(path))
    assert list(table) == ["tempvs"] and missing == 0 and table["tempvs"]["cards"] == DISTINCT


def test_browse_shows_the_headline_metrics_of_each_test_a_suite_task_holds(suite_run, tmp_path, capsys):
    """A suite task's results hold its tests' metrics under other names: each test's row part names the test."""
    page = tmp_path / "page.html"
    assert main_browse([str(suite_run[1].results_path), "--output", str(page), "--tasks", "tempvs_mt2_event"]) == 0
    row = re.search(r"<tr><td><b>tempvs</b>.*?</tr>", page.read_text(encoding="utf-8")).group(0)
    cell = " ".join(re.sub(r"<[^>]+>", " ", row.rsplit("<td>", 1)[1]).split())
    (run,) = load_runs([suite_run[1].results_path])
    shown = [f"tempvs_{test}: MT {100 * run.metric(f'tempvs_{test}', 'mt_acc'):.1f}% GT {100 * run.metric(f'tempvs_{test}', 'gt_acc'):.1f}%" for test in MAIN_TESTS]
    positions = [cell.find(part) for part in shown]
    assert positions[0] == 0 and positions == sorted(positions) and -1 not in positions, cell
