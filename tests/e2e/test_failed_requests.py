"""A failed request is never passed off as a model's answer (lmms_eval_tasks/plugin/failed_requests.py).

lmms-eval 0.7.3's API classes answer a request whose every retry failed with the text
``[LMMS_EVAL_REQUEST_FAILED after N retries] <error>``, which the tasks' parsers read like any answer ("after 5
retries" as image 5, "No such model" as "no"). What the run logged tells them apart afterwards: every failed
request is counted exactly (temporal_bench/runs/data_read.py), ``temporal-bench check`` fails the run naming each
task's count, ``report`` shows the numbers with that count and no verdict, ``compare`` leaves the task out. Through
the real CLI with the ``openai`` class: no server at all, HTTP 400 and HTTP 500 from a loopback mock, and
(``async_openai``, whose ``timeout`` reaches the client) a timeout; then lmms-eval's ``--use_cache`` re-run, after
``temporal-bench forget-failed``, asks only for the failed requests.
"""

import re
import sqlite3
from pathlib import Path

import pytest

from temporal_bench.lmms_eval_tasks.plugin.catbench.utils import majority_vote
from temporal_bench.lmms_eval_tasks.plugin.failed_requests import is_failed_response
from temporal_bench.lmms_eval_tasks.tempvs.metrics import make_record
from temporal_bench.report.cli import main_report
from temporal_bench.report.compare import compare_runs, single_run
from temporal_bench.response_cache import forget_failed
from temporal_bench.runs.logged import find_runs
from temporal_bench.runs.records import read_record
from tests.api_backends.mock_server import MockServer, Outcome, refused_url, scripted
from tests.api_backends.runs import MOCK_MODEL, api_env, api_run, check_output, oracle_text
from tests.api_backends.tasks import expected_requests, scripted_answers, write_data
from tests.cli import temporal_bench

TASKS = ["catbench", "catbench_sc", "isobench", "tempvs_gt_all", "tempvs_mt1_two"]
FAST_RETRIES = "max_retries=1,retry_backoff_s=0"  # one attempt per request (the OpenAI client still retries 5xx twice)
# the base URL comes from OPENAI_API_BASE: the cache keys a response by --model_args, and a re-run's mock
# listens on another port
OPENAI = ("openai", f"model={MOCK_MODEL},{FAST_RETRIES}")
FAILURE = "[LMMS_EVAL_REQUEST_FAILED after 5 retries] Error code: 400 - {'error': {'message': 'No such model'}}"


@pytest.mark.parametrize("response", [FAILURE, "  " + FAILURE, "[LMMS_EVAL_BUDGET_EXCEEDED]", 'Error: can only concatenate str (not "NoneType") to str', "", "   ", None])
def test_failure_texts_and_no_response_are_failed(response):
    assert is_failed_response(response)


@pytest.mark.parametrize("response", ["No", "image 5", "The request failed, so: Yes", "[LMMS_EVAL] no"])
def test_answers_are_not_failed(response):
    assert not is_failed_response(response)


def test_a_failed_request_reads_back_as_failed_whatever_its_text_parses_to():
    """The TempVS grounding parser reads "after 5 retries" as image 5, a right answer here: the record read back is
    marked failed all the same."""
    doc = {"doc_key": "k", "kind": "grounding", "task_id": "single_grounding_all", "source": "vist", "img_seq_id": "s", "question_id": "q", "gt_option": "image 5", "option_text": ""}
    line = {"doc_id": 0, "target": "image 5", "filtered_resps": [FAILURE], "gt_acc": make_record(doc, FAILURE)}
    record = read_record("tempvs_gt_all", line, {"metadata": {"tests": ["gt_all"]}}, {"model": "openai", "model_args": f"model={MOCK_MODEL}"})
    assert record["failed"] is True


def test_a_failed_sample_leaves_no_vote():
    assert is_failed_response(majority_vote(["Yes", FAILURE, "Yes"]))
    assert is_failed_response(majority_vote(["Yes", "", "Yes"]))
    assert majority_vote(["Yes", "???", "Yes"]) == "yes"


TWO_TESTS = "tempvs_ordering_event"  # asks MT2 and MT3 (one grounding test for both); in the run with no server


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("failed_data")
    env = write_data(root)
    return {"env": env, "expected": expected_requests(env, TASKS), "two_tests": expected_requests(env, [TWO_TESTS])}


def n_docs(data, task):
    return sum(item.task == task for item in data["expected"] + data["two_tests"])


def assert_failed_counted(out: Path, data, failed) -> None:
    """``failed[task]``: the docs whose request failed: counted exactly from the logged samples, named by check."""
    (run,) = find_runs(out)
    assert {task: run.data_read(task).failed for task in run.tasks} == {task: failed[task] for task in run.tasks}
    log = temporal_bench("check", out, cwd=out.parent)  # a problem anyway: the runs are partial (--limit)
    assert log.returncode == 1
    for task in run.tasks:
        assert (f"{task}: {failed[task]} of {n_docs(data, task)} request(s) failed or brought no response" in log.stderr) is bool(failed[task]), task


@pytest.fixture(scope="module")
def no_server_run(data, tmp_path_factory):
    """Every task's requests (and :data:`TWO_TESTS`'s) sent where no server listens: its output folder."""
    root = tmp_path_factory.mktemp("no_server")
    api_run(root, OPENAI[0], OPENAI[1], [], {**data["env"], **api_env(refused_url())}, [*TASKS, TWO_TESTS])
    return root / "lmms_eval_out"


def test_no_server(data, no_server_run):
    assert_failed_counted(no_server_run, data, {task: n_docs(data, task) for task in [*TASKS, TWO_TESTS]})


def test_report_and_compare_never_take_failed_requests_for_answers(data, no_server_run, capsys):
    """A run whose every request failed: its row shows the count and gets no verdict; compare leaves its tasks out."""
    assert main_report([str(no_server_run), "--label", "gpt-4o-2024-05-13", "--table", "catbench-table1"]) == 0
    report = capsys.readouterr().out
    total = n_docs(data, "catbench")
    assert "Verdict" not in report and f"catbench had {total} of {total} request(s) fail or bring no response" in report
    comparisons, notes = compare_runs(single_run(no_server_run), single_run(no_server_run))
    assert comparisons == [] and notes[0].startswith(f"catbench: not compared: {total} of run A's {total} and {total} of run B's {total} requests failed")


def test_a_task_holding_two_tests_is_counted_once_by_check(no_server_run):
    """tempvs_ordering_event asks MT2 and MT3 (one grounding test for both): every request failed, each doc counted once."""
    (run,) = find_runs(no_server_run)
    total = len(run.lines(TWO_TESTS))
    check = temporal_bench("check", no_server_run, cwd=no_server_run.parent)
    assert check.returncode == 1 and f"{TWO_TESTS}: {total} of {total} request(s) failed or brought no response" in check.stderr


def http_errors(request):
    """Every fourth doc from the first: HTTP 400 "No such model"; from the second: HTTP 500; else correct."""
    if request.doc_id % 4 == 0:
        return Outcome(400, "No such model")
    if request.doc_id % 4 == 1:
        return Outcome(500, "Internal server error")
    return oracle_text(request)


@pytest.fixture(scope="module")
def http_error_run(data, tmp_path_factory):
    """HTTP 400 and 500 for some docs, with lmms-eval's response cache."""
    root = tmp_path_factory.mktemp("http_errors")
    cache = root / "cache"
    with MockServer(scripted(scripted_answers(data["expected"], http_errors)), max_requests=300, lifetime_s=240) as server:
        results, log = api_run(root, OPENAI[0], OPENAI[1], ["--use_cache", str(cache)], {**data["env"], **api_env(server.base_url)}, TASKS)
    return {"results": results["results"], "cache": cache, "root": root}


def failed_docs(data, task):
    return sum(item.doc_id % 4 in (0, 1) for item in data["expected"] if item.task == task)


def test_http_400_and_500(data, http_error_run):
    failed = {task: failed_docs(data, task) for task in TASKS}
    assert all(failed.values())
    assert_failed_counted(http_error_run["root"] / "lmms_eval_out", data, failed)
    assert f"`temporal-bench forget-failed {http_error_run['cache']}`, then the same command sends only the failed requests" in check_output(http_error_run["root"])


def test_timeout(data, tmp_path):
    tasks = ["catbench", "isobench", "tempvs_gt_all"]

    def slow(request):
        return Outcome(200, oracle_text(request), delay_s=3) if request.doc_id % 4 == 0 else oracle_text(request)

    expected = [item for item in data["expected"] if item.task in tasks]
    with MockServer(scripted(scripted_answers(expected, slow)), max_requests=100, lifetime_s=120) as server:
        model_args = f"model={MOCK_MODEL},base_url={server.base_url},{FAST_RETRIES},timeout=1,num_cpus=16"
        api_run(tmp_path, "async_openai", model_args, [], {**data["env"], **api_env(server.base_url)}, tasks)
    failed = {task: sum(item.doc_id % 4 == 0 for item in expected if item.task == task) for task in tasks}
    assert all(failed.values())
    assert_failed_counted(tmp_path / "lmms_eval_out", data, failed)


def test_rerun_with_the_cache_asks_only_for_the_failed_requests(data, http_error_run):
    database = http_error_run["cache"] / "cache.db"
    connection = sqlite3.connect(database)
    stored = connection.execute("SELECT task_name, response FROM responses").fetchall()
    connection.close()
    cached_failures = [task for task, response in stored if "LMMS_EVAL_REQUEST_FAILED" in response]
    sampled = n_docs(data, "catbench_sc")  # temperature 0.6: never cached
    deterministic = [task for task in TASKS if task != "catbench_sc"]
    assert len(cached_failures) == sum(failed_docs(data, task) for task in deterministic)  # lmms-eval caches the failure text

    assert forget_failed(http_error_run["cache"]) == {task: failed_docs(data, task) for task in deterministic}
    root = http_error_run["root"] / "rerun"
    root.mkdir()
    with MockServer(scripted(scripted_answers(data["expected"], oracle_text)), max_requests=300, lifetime_s=240) as server:
        api_run(root, OPENAI[0], OPENAI[1], ["--use_cache", str(http_error_run["cache"])], {**data["env"], **api_env(server.base_url)}, TASKS)
    assert len(server.bodies) == len(cached_failures) + 3 * sampled
    assert_failed_counted(root / "lmms_eval_out", data, {task: 0 for task in TASKS})


def test_forget_failed_names_the_cache_it_needs(tmp_path):
    with pytest.raises(FileNotFoundError, match=re.escape(str(tmp_path / "cache.db"))):
        forget_failed(tmp_path)


def test_the_documented_re_run_ends_with_check_passing_on_the_same_folder(data, tmp_path):
    """Through lmms-eval's openai class: HTTP 500 for some requests, `forget-failed`, then the same command into the
    same folder; check then reads the re-run and passes, naming the failed run it left out."""
    cache, out = tmp_path / "cache", tmp_path / "lmms_eval_out"
    expected = [item for item in data["expected"] if item.task == "catbench"]
    failing = lambda request: Outcome(500, "Internal server error") if request.doc_id % 4 == 1 else oracle_text(request)  # noqa: E731
    for answer in (failing, oracle_text):
        with MockServer(scripted(scripted_answers(expected, answer)), max_requests=100, lifetime_s=120) as server:
            api_run(tmp_path, OPENAI[0], OPENAI[1], ["--use_cache", str(cache)], {**data["env"], **api_env(server.base_url)}, ["catbench"])
        if answer is failing:
            first = next(out.rglob("*_results.json"))
            assert temporal_bench("check", out, cwd=tmp_path).returncode == 1
            forget_failed(cache)
    log = temporal_bench("check", out, cwd=tmp_path)
    assert log.returncode == 0, log.stderr
    assert f"check: {first.as_posix()}: superseded by a newer run of the same model and tasks" in log.stdout
