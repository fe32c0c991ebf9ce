"""A failed request is never scored as an answer (utils/failed_requests.py).

lmms-eval 0.7.3's API classes answer a request whose every retry failed with the text
``[LMMS_EVAL_REQUEST_FAILED after N retries] <error>``; parsed, "after 5 retries" read as image 5
(TempVS grounding) and "No such model" as "no" (CaT-Bench, ISO-Bench). Through the real CLI with the
``openai`` class: no server at all, HTTP 400 and HTTP 500 from a loopback mock, and (``async_openai``,
whose ``timeout`` reaches the client) a timeout: every failed request is unanswered, counted exactly in
``failed_count`` and named in a warning; then lmms-eval's ``--use_cache`` re-run, after
``temporal-bench forget-failed``, asks only for the failed requests.
"""

import re
import sqlite3

import pytest

from temporal_bench.lmms_eval_tasks.plugin.failed_requests import is_failed_response
from temporal_bench.lmms_eval_tasks.plugin.catbench.utils import majority_vote
from temporal_bench.lmms_eval_tasks.tempvs.metrics import gt_acc, make_record
from temporal_bench.response_cache import forget_failed
from tests.api_backends.mock_server import MockServer, Outcome, refused_url, scripted
from tests.api_backends.runs import MOCK_MODEL, api_env, api_run, check_output, oracle_text
from tests.api_backends.tasks import expected_requests, scripted_answers, write_data
from tests.harness import BIN, read_results, run_cli

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


def test_tempvs_grounding_never_reads_the_retry_count_as_an_image():
    doc = {
        "doc_key": "k",
        "kind": "grounding",
        "mode": "standard",
        "task_id": "single_grounding_all",
        "source": "vist",
        "img_seq_id": "s",
        "question_id": "q",
        "event_index": 0,
        "partners": [],
        "expected_partners": 0,
        "statement_type": "",
        "event_distance": -1,
        "gt_option": "image 5",
        "option_text": "",
    }
    record = make_record(doc, FAILURE)
    assert (record["pred"], record["correct"], record["failed"]) == ("UNK", False, True)
    assert gt_acc([record]) == 0.0


def test_a_failed_sample_leaves_no_vote():
    assert is_failed_response(majority_vote(["Yes", FAILURE, "Yes"]))
    assert is_failed_response(majority_vote(["Yes", "", "Yes"]))
    assert majority_vote(["Yes", "???", "Yes"]) == "yes"


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("failed_data")
    env = write_data(root)
    return {"env": env, "expected": expected_requests(env, TASKS)}


def n_docs(data, task):
    return sum(item.task == task for item in data["expected"])


def warned(log, task: str, failed: int, total: int) -> bool:
    return f"{task}: {failed} of {total} question(s) got no answer: their request failed or brought no response" in log.stdout + log.stderr


def assert_failed_metrics(results, data, failed):
    """``failed[task]``: the docs whose request failed; every other doc was answered correctly."""
    catbench, n = results["catbench"], n_docs(data, "catbench")
    assert (catbench["failed_count,none"], catbench["invalid_count,none"]) == (failed["catbench"], failed["catbench"])
    assert catbench["accuracy,none"] == (n - failed["catbench"]) / n
    sc = results["catbench_sc"]
    assert (sc["failed_count,majority_vote"], sc["invalid_count,majority_vote"]) == (failed["catbench_sc"], failed["catbench_sc"])
    assert sc["accuracy,majority_vote"] == (n - failed["catbench_sc"]) / n
    iso, n = results["isobench"], n_docs(data, "isobench")
    assert iso["failed_count,none"] == failed["isobench"] and iso["coverage,none"] == (n - failed["isobench"]) / n
    assert iso["strict_accuracy,none"] == (n - failed["isobench"]) / n
    assert iso["accuracy,none"] == (None if failed["isobench"] == n else 1.0)  # the paper's score: answered docs only
    gt, n = results["tempvs_gt_all"], n_docs(data, "tempvs_gt_all")
    assert (gt["failed_count,none"], gt["gt_acc,none"], gt["invalid_rate,none"]) == (failed["tempvs_gt_all"], (n - failed["tempvs_gt_all"]) / n, failed["tempvs_gt_all"] / n)
    mt1 = results["tempvs_mt1_two"]
    assert mt1["failed_count,none"] == failed["tempvs_mt1_two"] and mt1["invalid_rate,none"] == failed["tempvs_mt1_two"] / n_docs(data, "tempvs_mt1_two")


def test_no_server(data, tmp_path):
    url = refused_url()
    results, log = api_run(tmp_path, OPENAI[0], OPENAI[1], [], {**data["env"], **api_env(url)}, TASKS)
    results = results["results"]
    failed = {task: n_docs(data, task) for task in TASKS}
    assert_failed_metrics(results, data, failed)
    assert results["tempvs_gt_all"]["gt_acc,none"] == 0.0 and results["tempvs_mt1_two"]["mt_acc,none"] == 0.0
    assert results["catbench"]["f1_macro,none"] == 0.0 and results["isobench"]["f1_weighted,none"] is None
    for task in TASKS:
        assert warned(log, task, failed[task], failed[task]), task


def test_a_task_holding_two_tests_warns_once_and_check_names_each_test(data, tmp_path):
    """tempvs_ordering_event asks MT2 and MT3 (one grounding test for both) and reports each test's failed count
    under its prefix: a run whose every request failed warns once for the task, and `temporal-bench check` names
    each test's count."""
    out = tmp_path / "lmms_eval_out"
    out.mkdir()
    command = [str(BIN / "lmms-eval"), "--model", "scripted", "--model_args", "policy=constant,response=[LMMS_EVAL_REQUEST_FAILED]", "--tasks", "tempvs_ordering_event", "--output_path", str(out), "--log_samples"]
    log = run_cli(command, out, data["env"])
    run = read_results(out, ["tempvs_ordering_event"], log)
    results, total = run["results"]["tempvs_ordering_event"], run["n-samples"]["tempvs_ordering_event"]["effective"]
    assert warned(log, "tempvs_ordering_event", total, total)
    check = run_cli([str(BIN / "temporal-bench"), "check", str(out)], out, data["env"])
    assert check.returncode == 1
    for test in ("mt2", "mt3"):
        failed = results[f"{test}_failed_count,none"]
        assert failed == results[f"{test}_main_count,none"] + results[f"{test}_grounding_count,none"] < total, test
        assert f"tempvs_ordering_event ({test.upper()}): {failed} failed request(s)" in check.stderr, test


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
    return {"results": results["results"], "log": log, "cache": cache, "root": root}


def failed_docs(data, task):
    return sum(item.doc_id % 4 in (0, 1) for item in data["expected"] if item.task == task)


def test_http_400_and_500(data, http_error_run):
    failed = {task: failed_docs(data, task) for task in TASKS}
    assert all(failed.values())
    assert_failed_metrics(http_error_run["results"], data, failed)
    for task in TASKS:
        assert warned(http_error_run["log"], task, failed[task], n_docs(data, task)), task
    assert f"`temporal-bench forget-failed {http_error_run['cache']}`, then the same command sends only the failed requests" in check_output(http_error_run["root"])


def test_timeout(data, tmp_path):
    tasks = ["catbench", "isobench", "tempvs_gt_all"]

    def slow(request):
        return Outcome(200, oracle_text(request), delay_s=3) if request.doc_id % 4 == 0 else oracle_text(request)

    expected = [item for item in data["expected"] if item.task in tasks]
    with MockServer(scripted(scripted_answers(expected, slow)), max_requests=100, lifetime_s=120) as server:
        model_args = f"model={MOCK_MODEL},base_url={server.base_url},{FAST_RETRIES},timeout=1,num_cpus=16"
        results, log = api_run(tmp_path, "async_openai", model_args, [], {**data["env"], **api_env(server.base_url)}, tasks)
    results = results["results"]
    for task in tasks:
        failed = sum(item.doc_id % 4 == 0 for item in expected if item.task == task)
        assert results[task]["failed_count,none"] == failed >= 1, task
        assert warned(log, task, failed, n_docs(data, task)), task
    assert results["tempvs_gt_all"]["gt_acc,none"] == (n_docs(data, "tempvs_gt_all") - 2) / n_docs(data, "tempvs_gt_all")


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
        results, _ = api_run(root, OPENAI[0], OPENAI[1], ["--use_cache", str(http_error_run["cache"])], {**data["env"], **api_env(server.base_url)}, TASKS)
    assert len(server.bodies) == len(cached_failures) + 3 * sampled
    assert_failed_metrics(results["results"], data, {task: 0 for task in TASKS})


def test_forget_failed_names_the_cache_it_needs(tmp_path):
    with pytest.raises(FileNotFoundError, match=re.escape(str(tmp_path / "cache.db"))):
        forget_failed(tmp_path)
