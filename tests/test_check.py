"""``temporal-bench check RUN_DIR...`` through the CLI on real lmms-eval runs of the synthetic CaT-Bench data:
exit 0 and one summary line on a complete run, exit 1 naming each problem on a partial run, a run with
failed requests, a missing expected task, data counts other than the release's (unless --allow-subset),
a samples file without its results file and an empty folder."""

import json
import shutil
from pathlib import Path

import pytest

from temporal_bench.catbench.fixtures import write_fixture
from temporal_bench.runs.data_source import record_task_source, task_source
from tests.harness import BIN, lmms_eval, run_cli

N_DOCS = 2 * 2 * 2 * 2  # test split: plans x pairs per class (dependent, not) x the two questions (before, after)


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    return {"CATBENCH_DATA_DIR": str(write_fixture(tmp_path_factory.mktemp("catbench_data"), n_plans=2, pairs_per_class=2))}


def check(*arguments, cwd: Path):
    return run_cli([str(BIN / "temporal-bench"), "check", *map(str, arguments)], cwd, cwd=cwd)


@pytest.fixture(scope="module")
def good_run(tmp_path_factory, env):
    root = tmp_path_factory.mktemp("good")
    results = lmms_eval(root, ["catbench"], env=env)
    return root / "lmms_eval_out", results


def test_a_complete_run_passes_with_one_line(good_run):
    out, results = good_run
    assert results["n-samples"]["catbench"]["effective"] == N_DOCS
    log = check(out, cwd=out.parent)
    assert (log.returncode, log.stderr, log.stdout) == (0, "", f"check: OK: 1 run(s), 1 task(s), {N_DOCS} question(s), complete (no --limit), no failed requests\n")


def test_an_expected_task_missing(good_run):
    out, _ = good_run
    log = check(out, "--tasks", "catbench,catbench_cot", cwd=out.parent)
    assert log.returncode == 1
    assert log.stderr == f"check: 1 problem(s):\n- {out}: no results for task(s) catbench_cot\n"


def test_a_partial_run_fails(tmp_path, env):
    lmms_eval(tmp_path, ["catbench"], env=env, extra=["--limit", "3"])
    out = tmp_path / "lmms_eval_out"
    log = check(out, cwd=tmp_path)
    assert log.returncode == 1
    results = next(out.rglob("*_results.json")).as_posix()
    assert log.stderr == f"check: 1 problem(s):\n- {results}: partial run (--limit 3): its scores are not the benchmark's\n"


def test_failed_requests_fail(tmp_path, env):
    lmms_eval(tmp_path, ["catbench"], model_args="policy=constant,response=[LMMS_EVAL_REQUEST_FAILED]", env=env)
    out = tmp_path / "lmms_eval_out"
    log = check(out, cwd=tmp_path)
    assert log.returncode == 1
    results = next(out.rglob("*_results.json")).as_posix()
    assert log.stderr == (f"check: 1 problem(s):\n- {results}: catbench: {N_DOCS} failed request(s) scored as unanswered; run again with --use_cache DIR to keep the answered requests for the next re-run (docs/backends.md)\n")


def test_samples_without_results_and_an_empty_folder(good_run, tmp_path):
    out, _ = good_run
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    next(copy.rglob("*_results.json")).unlink()
    samples = next(copy.rglob("*_samples_catbench.jsonl")).as_posix()
    empty = tmp_path / "empty"
    empty.mkdir()
    log = check(copy, empty, cwd=tmp_path)
    assert log.returncode == 1
    no_results = "no lmms-eval or lm-eval results file (the evaluation failed or wrote elsewhere)"
    assert log.stderr == (f"check: 3 problem(s):\n- {copy}: {no_results}\n- {samples}: a samples file without its results file (the run stopped before writing it?)\n- {empty}: {no_results}\n")


def _recorded_counts(folder: Path, **counts) -> str:
    """Record counts in the run's data source of catbench, as the loader records them; the results file."""
    path = next(folder.rglob("*_results.json"))
    data = json.loads(path.read_text(encoding="utf-8"))
    record_task_source(data, "catbench", {**task_source(data, "catbench"), **counts})
    path.write_text(json.dumps(data), encoding="utf-8")
    return path.as_posix()


def test_a_truncated_copy_of_the_data_fails_unless_a_subset_is_allowed(good_run, tmp_path):
    """The issue's local test split with 110 rows missing: its run recorded fewer rows than the release's."""
    out, _ = good_run
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    results = _recorded_counts(copy, rows=2730, expected_rows=2840, synthetic=False)
    log = check(copy, cwd=tmp_path)
    assert log.returncode == 1
    assert log.stderr == (f"check: 1 problem(s):\n- {results}: catbench: read 2,730 rows, the release has 2,840 (a partial or other copy of the data: its scores are not the benchmark's; --allow-subset accepts a deliberate subset)\n")
    log = check(copy, "--allow-subset", cwd=tmp_path)
    assert log.returncode == 0 and log.stdout.endswith("no failed requests; on a subset of the data (--allow-subset): catbench: read 2,730 rows, the release has 2,840\n")


@pytest.mark.parametrize(
    "counts", [{"rows": 16, "expected_rows": 2840, "synthetic": True}, {"rows": 2840, "expected_rows": 2840, "synthetic": False}, {"rows": 16, "expected_rows": None, "synthetic": False}]  # generated data: its size by design
)  # the release's count unknown
def test_the_release_counts_synthetic_data_and_unknown_counts_pass(good_run, tmp_path, counts):
    out, _ = good_run
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    _recorded_counts(copy, **counts)
    log = check(copy, cwd=tmp_path)
    assert log.returncode == 0, log.stderr
