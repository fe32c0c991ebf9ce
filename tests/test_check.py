"""``temporal-bench check RUN_DIR...`` through the CLI on real lmms-eval runs of the synthetic CaT-Bench data:
exit 0 and one summary line on a complete run, exit 1 naming each problem on a partial run, a run with
failed requests, a missing expected task, data counts other than the release's (unless --allow-subset),
a samples file without its results file and an empty folder."""

import json
import shutil
from pathlib import Path

import pytest

from temporal_bench.catbench.fixtures import write_fixture
from tests.harness import BIN, lmms_eval, run_cli

REAL = Path(__file__).parent / "data" / "catbench"
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
    assert (log.returncode, log.stderr) == (0, "")
    assert log.stdout.splitlines()[-1] == f"check: OK: 1 run(s), 1 task(s), {N_DOCS} question(s), complete (no --limit), no failed requests"


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
    assert log.stderr == (
        f"check: 1 problem(s):\n- {results}: catbench: {N_DOCS} of {N_DOCS} request(s) failed or brought no response (scored as the task's parser read them: not the model's answers); run again with --use_cache DIR to keep the answered requests for the next re-run (docs/backends.md)\n"
    )


def test_answers_none_of_which_parses_fail(tmp_path, env):
    lmms_eval(tmp_path, ["catbench"], model_args="policy=constant,response=Perhaps.", env=env)
    out = tmp_path / "lmms_eval_out"
    log = check(out, cwd=tmp_path)
    results = next(out.rglob("*_results.json")).as_posix()
    assert log.returncode == 1 and log.stderr.startswith(f"check: 1 problem(s):\n- {results}: catbench: none of its {N_DOCS} answers could be parsed")


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


def real_test_split(folder: Path, rows_per_file: int) -> Path:
    """A copy of the release whose test split holds only the first rows of each real validation file (real plans,
    so not generated data): the copy an interrupted download leaves."""
    target = folder / "test_must_why"
    target.mkdir(parents=True)
    for source in (REAL / "val").glob("*.jsonl"):
        lines = source.read_text(encoding="utf-8").splitlines(keepends=True)[:rows_per_file]
        (target / source.name).write_text("".join(lines), encoding="utf-8")
    return folder


def test_a_truncated_copy_of_the_data_fails_unless_a_subset_is_allowed(tmp_path):
    """A copy of the release with rows missing: its run read other counts than the release's."""
    data = real_test_split(tmp_path / "data", rows_per_file=2)
    lmms_eval(tmp_path, ["catbench"], env={"CATBENCH_DATA_DIR": str(data)})
    out = tmp_path / "lmms_eval_out"
    results = next(out.rglob("*_results.json")).as_posix()
    log = check(out, cwd=tmp_path)
    assert log.returncode == 1
    difference = "counts (read / the release's): questions 8/2840, plans "
    assert log.stderr.startswith(f"check: 1 problem(s):\n- {results}: catbench: {difference}")
    assert log.stderr.endswith(" (a partial or other copy of the data: its scores are not the benchmark's; --allow-subset accepts a deliberate subset)\n")
    log = check(out, "--allow-subset", cwd=tmp_path)
    assert log.returncode == 0 and f"no failed requests; on a subset of the data (--allow-subset): catbench: {difference}" in log.stdout


def test_synthetic_data_passes_at_its_own_size(good_run):
    """Generated data differs from the release's counts by design: named as synthetic, not a problem."""
    out, _ = good_run
    log = check(out, cwd=out.parent)
    assert log.returncode == 0 and "catbench: 16 question(s), fingerprint " in log.stdout and "synthetic data" in log.stdout


def test_the_re_run_after_forget_failed_supersedes_the_failed_run(tmp_path, env):
    """The documented workflow: a run with failed requests, then the same command again into the same folder (after
    `temporal-bench forget-failed`, with lmms-eval's cache): check reads the newer run and says the older is left out."""
    script = tmp_path / "answers.json"  # the same command both times: the server answers the second time
    script.write_text(json.dumps({f"catbench/{i}": "[LMMS_EVAL_REQUEST_FAILED]" for i in range(N_DOCS)}), encoding="utf-8")
    lmms_eval(tmp_path, ["catbench"], model_args=f"policy=script,script={script}", env=env)
    out = tmp_path / "lmms_eval_out"
    failed = next(out.rglob("*_results.json"))
    assert check(out, cwd=tmp_path).returncode == 1
    script.write_text(json.dumps({f"catbench/{i}": "Yes" for i in range(N_DOCS)}), encoding="utf-8")
    lmms_eval(tmp_path, ["catbench"], model_args=f"policy=script,script={script}", env=env)
    log = check(out, cwd=tmp_path)
    assert (log.returncode, log.stderr) == (0, ""), log.stderr
    assert f"check: {failed.as_posix()}: superseded by a newer run of the same model and tasks (e.g. the re-run after forget-failed): left out" in log.stdout
    assert log.stdout.splitlines()[-1].startswith("check: OK: 1 run(s), 1 task(s), ")
    # compare and report read the same folder as one run of the model, the re-run shown and the failed run named
    compared = run_cli([str(BIN / "temporal-bench"), "compare", str(out), str(out)], tmp_path)
    assert compared.returncode == 0 and f"catbench: shown from `{next(p for p in out.rglob('*_results.json') if p != failed).as_posix()}`; not shown: `{failed.as_posix()}`" in compared.stdout
    reported = run_cli([str(BIN / "temporal-bench"), "report", str(out), "--table", "catbench-table1"], tmp_path)
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
