"""``temporal-bench check RUN_DIR...`` through the CLI on real lmms-eval runs of the synthetic CaT-Bench data:
exit 0 and one summary line on a complete run, exit 1 naming each problem on a partial run, a run with
failed requests, a missing expected task, data counts other than the release's (unless --allow-subset),
a samples file without its results file and an empty folder."""

import json
import shutil
from pathlib import Path

from temporal_bench.check import nothing_written
from tests.cli import temporal_bench
from tests.recorded.check import N_DOCS


def check(*arguments, cwd: Path):
    return temporal_bench("check", *arguments, cwd=cwd)


def results_of(out: Path) -> str:
    return next(out.rglob("*_results.json")).as_posix()


def test_a_complete_run_passes_with_one_line(recorded):
    run = recorded("catbench_complete")
    results = json.loads(Path(results_of(run.out)).read_text(encoding="utf-8"))
    assert results["n-samples"]["catbench"]["effective"] == N_DOCS
    log = check(run.out, cwd=run.work)
    assert (log.returncode, log.stderr) == (0, "")
    assert log.stdout.splitlines()[-1] == f"check: OK: 1 run(s), 1 task(s), {N_DOCS} question(s), complete (no --limit), no failed requests"


def test_an_expected_task_missing(recorded):
    run = recorded("catbench_complete")
    log = check(run.out, "--tasks", "catbench,catbench_cot", cwd=run.work)
    assert log.returncode == 1
    assert log.stderr == f"check: 1 problem(s):\n- {run.out}: no results for task(s) catbench_cot\n"


def test_a_partial_run_fails(recorded):
    run = recorded("catbench_partial")
    log = check(run.out, cwd=run.work)
    assert log.returncode == 1
    assert log.stderr == f"check: 1 problem(s):\n- {results_of(run.out)}: partial run (--limit 3): its scores are not the benchmark's\n"


def test_failed_requests_fail(recorded):
    run = recorded("catbench_failed")
    log = check(run.out, cwd=run.work)
    assert log.returncode == 1
    assert log.stderr == (
        f"check: 1 problem(s):\n- {results_of(run.out)}: catbench: {N_DOCS} of {N_DOCS} request(s) failed or brought no response (scored as the task's parser read them: not the model's answers); run again with --use_cache DIR to keep the answered requests for the next re-run (docs/backends.md)\n"
    )


def test_answers_none_of_which_parses_fail(recorded):
    run = recorded("catbench_unparsed")
    log = check(run.out, cwd=run.work)
    assert log.returncode == 1 and log.stderr.startswith(f"check: 1 problem(s):\n- {results_of(run.out)}: catbench: none of its {N_DOCS} answers could be parsed")


def test_samples_without_results_and_an_empty_folder(recorded, tmp_path, monkeypatch):
    copy = tmp_path / "copy"
    shutil.copytree(recorded("catbench_complete").out, copy)
    next(copy.rglob("*_results.json")).unlink()
    samples = next(copy.rglob("*_samples_catbench.jsonl")).as_posix()
    empty = tmp_path / "empty"
    empty.mkdir()
    log = check(copy, empty, cwd=tmp_path)
    assert log.returncode == 1
    monkeypatch.chdir(tmp_path)  # where check runs: no folder named like a task
    no_results = f"no lmms-eval or lm-eval results file (the evaluation failed or wrote elsewhere): {nothing_written()}"
    assert log.stderr == (f"check: 3 problem(s):\n- {copy}: {no_results}\n- {samples}: a samples file without its results file (the run stopped before writing it?)\n- {empty}: {no_results}\n")


def test_a_folder_lmms_eval_never_wrote_names_the_likely_causes_and_a_task_named_folder_first(tmp_path):
    log = check(tmp_path / "out", cwd=tmp_path)
    assert log.returncode == 1 and log.stderr.startswith(f"check: 1 problem(s):\n- {tmp_path / 'out'}: no such file or folder: lmms-eval stops before writing anything on a task name")
    for cause in ("`lmms-eval --tasks list`", "a --model_args key the model class refuses", "another --output_path"):
        assert cause in log.stderr
    (tmp_path / "catbench").mkdir()  # the docs' data paths invite ./catbench
    log = check(tmp_path / "out", cwd=tmp_path)
    assert "writing anything on the working folder holds a folder named like the task ./catbench, which lmms-eval reads as a folder of task YAMLs" in log.stderr


def test_the_same_prompts_failing_again_are_a_persistent_failure_with_the_way_out(recorded):
    run = recorded("catbench_persistent")
    first, rerun = sorted(run.out.rglob("*_results.json"))
    log = check(run.out, cwd=run.work)
    assert log.returncode == 1
    assert f"{rerun.as_posix()}: catbench: 4 of {N_DOCS} request(s) failed or brought no response, 4 of them with the same prompts as in the run it superseded ({first.as_posix()}): a persistent failure" in log.stderr
    assert f"temporal-bench browse {run.out.as_posix()} --tasks catbench` (filter: request failed)" in log.stderr and "docs/harness.md#variants-of-your-own" in log.stderr
    # the first failures of a run are transient: the re-run with the cache is the way out
    only_first = run.work / "first"
    only_first.mkdir()
    for path in run.out.glob(f"{first.name.removesuffix('_results.json')}_*"):
        shutil.copy(path, only_first)
    assert "a persistent failure" not in check(only_first, cwd=run.work).stderr


def test_a_truncated_copy_of_the_data_fails_unless_a_subset_is_allowed(recorded):
    """A copy of the release with rows missing: its run read other counts than the release's."""
    run = recorded("catbench_truncated")
    log = check(run.out, cwd=run.work)
    assert log.returncode == 1
    difference = "counts (read / the release's): questions 8/2840, plans "
    assert log.stderr.startswith(f"check: 1 problem(s):\n- {results_of(run.out)}: catbench: {difference}")
    assert log.stderr.endswith(" (a partial or other copy of the data: its scores are not the benchmark's; --allow-subset accepts a deliberate subset)\n")
    log = check(run.out, "--allow-subset", cwd=run.work)
    assert log.returncode == 0 and f"no failed requests; on a subset of the data (--allow-subset): catbench: {difference}" in log.stdout


def test_synthetic_data_passes_at_its_own_size(recorded):
    """Generated data differs from the release's counts by design: named as synthetic, not a problem."""
    run = recorded("catbench_complete")
    log = check(run.out, cwd=run.work)
    assert log.returncode == 0 and "catbench: 16 question(s), fingerprint " in log.stdout and "synthetic data" in log.stdout


def test_the_re_run_after_forget_failed_supersedes_the_failed_run(recorded, tmp_path):
    """The documented workflow: a run with failed requests, then the same command again into the same folder (after
    `temporal-bench forget-failed`, with lmms-eval's cache): check reads the newer run and says the older is left out."""
    run = recorded("catbench_superseded")
    failed, rerun = sorted(run.out.rglob("*_results.json"))
    only_failed = tmp_path / "failed"
    only_failed.mkdir()
    for path in run.out.glob(f"{failed.name.removesuffix('_results.json')}_*"):
        shutil.copy(path, only_failed)
    assert check(only_failed, cwd=tmp_path).returncode == 1
    out = run.out
    log = check(out, cwd=run.work)
    assert (log.returncode, log.stderr) == (0, ""), log.stderr
    assert f"check: {failed.as_posix()}: superseded by a newer run of the same model and tasks (e.g. the re-run after forget-failed): left out" in log.stdout
    assert log.stdout.splitlines()[-1].startswith("check: OK: 1 run(s), 1 task(s), ")
    # compare and report read the same folder as one run of the model, the re-run shown and the failed run named
    compared = temporal_bench("compare", out, out, cwd=run.work)
    assert compared.returncode == 0 and f"catbench: shown from `{rerun.as_posix()}`; not shown: `{failed.as_posix()}`" in compared.stdout
    reported = temporal_bench("report", out, "--table", "catbench-table1", cwd=run.work)
    assert reported.returncode == 0 and f"not shown: `{failed.as_posix()}`" in reported.stdout


def test_a_model_argument_the_class_does_not_take_fails(tmp_path):
    """lmms-eval's openai class ignores what it does not name (`modle=` for `model=`) and goes on with its default model."""
    results = tmp_path / "out" / "gpt-4o" / "20250101_000000_results.json"
    results.parent.mkdir(parents=True)
    data = {"results": {"catbench": {"f1_macro,none": 0.5}}, "model_name": "gpt-4o", "config": {"model": "openai", "model_args": "modle=gpt-4o-2024-05-13,max_retries=1", "limit": None}}
    results.write_text(json.dumps(data), encoding="utf-8")
    log = check(tmp_path / "out", cwd=tmp_path)
    assert log.returncode == 1
    assert f"- {results.as_posix()}: --model_args modle: lmms-eval's openai class (lmms_eval.models.chat.openai.OpenAICompatible) takes no such argument" in log.stderr
    assert "max_retries" not in log.stderr.split("takes no such argument")[0]
