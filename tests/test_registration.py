"""How users reach our tasks: no flags in lmms-eval, --include_path in lm-eval, wherever they run."""

import os
import subprocess

from temporal_bench.paths import LM_EVAL_TASK_DIR, LMMS_EVAL_TASK_DIR
from tests.harness import BIN, lmms_eval, metric, run_cli


def test_lmms_eval_lists_our_tasks_without_flags(tmp_path):
    log = run_cli([str(BIN / "lmms-eval"), "--tasks", "list"], tmp_path)
    listing = log.stdout + log.stderr
    for task in ("catbench", "catbench_switched", "catbench_paper"):
        assert f" - {task}\n" in listing, task


def test_task_manager_built_by_python_users_indexes_our_tasks():
    code = (
        "import lmms_eval.evaluator\n"
        "from lmms_eval.tasks import TaskManager\n"
        "tm = TaskManager('WARNING')\n"
        "print('catbench' in tm.all_tasks, 'mmmu_val' in tm.all_tasks, tm.include_path)\n"
    )
    out = subprocess.run([str(BIN / "python"), "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "True True None"
    # opted out: our folder is not indexed (the built-in folders, checked above, take ~15 s to index)
    opted_out = subprocess.run([str(BIN / "python"), "-c", code.replace("'WARNING'", "'WARNING', include_defaults=False")],
                               capture_output=True, text=True, check=True,
                               env={**os.environ, "TEMPORAL_BENCH_NO_AUTO_TASKS": "1"}).stdout
    assert opted_out.strip() == "False False None"


def test_a_users_own_utils_module_does_not_shadow_our_hooks(tmp_path):
    (tmp_path / "utils.py").write_text("raise ImportError('the user utils.py was imported')\n")
    (tmp_path / "data").mkdir()
    from temporal_bench.catbench.fixtures import write_fixture

    root = write_fixture(tmp_path / "data" / "catbench")
    results = lmms_eval(tmp_path, ["catbench"], env={"CATBENCH_DATA_DIR": str(root)}, cwd=tmp_path)
    assert metric(results, "catbench", "f1_macro") == 1.0


def test_task_dir_command_prints_the_installed_folders(tmp_path):
    run = lambda *args: run_cli([str(BIN / "temporal-bench"), "task-dir", *args], tmp_path).stdout.strip()  # noqa: E731
    assert run() == str(LMMS_EVAL_TASK_DIR)
    assert run("--harness", "lm-eval") == str(LM_EVAL_TASK_DIR)
    assert (LMMS_EVAL_TASK_DIR / "catbench" / "catbench.yaml").is_file()
