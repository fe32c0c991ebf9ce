"""``--tasks catbench`` / ``--tasks isobench`` from the repository root (where lmms-eval reads the
folder of that name, whose one-line YAML names the task) give the same results as from any other
folder, with lmms-eval's chat ``openai`` class against a loopback mock OpenAI-compatible server
(temporal_bench/task_folders.py); a user's own folder named like a task is warned about."""

import pytest

from temporal_bench.task_folders import named_task, shadowing_folders
from tests.api_backends.mock_server import MockServer, scripted
from tests.api_backends.runs import MOCK_MODEL, api_env, oracle_text
from tests.api_backends.tasks import expected_requests, scripted_answers, write_data
from tests.harness import BIN, read_results, run_cli
from tests.test_readme import REPO

SHAPES = ["catbench", "isobench"]  # the documented shapes with a folder of that name at the root


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    env = write_data(tmp_path_factory.mktemp("folders_data"))
    return {"env": env, "expected": expected_requests(env, SHAPES)}


def openai_run(out, task, cwd, data):
    """``lmms-eval --model openai --tasks TASK`` run in ``cwd``; its results per metric key."""
    out.mkdir(parents=True)
    with MockServer(scripted(scripted_answers(data["expected"], oracle_text)), max_requests=100, lifetime_s=120) as server:
        command = [str(BIN / "lmms-eval"), "--model", "openai", "--model_args", f"model={MOCK_MODEL},max_retries=1,retry_backoff_s=0",
                   "--tasks", task, "--limit", "8", "--output_path", str(out), "--log_samples"]
        log = run_cli(command, out, {**data["env"], **api_env(server.base_url)}, cwd=cwd)
    results = read_results(out, [task], log)["results"][task]
    return {key: value for key, value in results.items() if "," in key}


@pytest.mark.parametrize("task", SHAPES)
def test_a_chat_class_gets_the_same_results_from_the_repository_root(task, data, tmp_path):
    assert (REPO / task / f"{task}.yaml").is_file()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    at_root = openai_run(tmp_path / "root_out", task, REPO, data)
    assert at_root == openai_run(tmp_path / "elsewhere_out", task, elsewhere, data)
    assert at_root["failed_count,none"] == 0
    assert at_root["accuracy,none" if task == "catbench" else "coverage,none"] == 1.0


def test_a_config_that_only_names_a_task_is_loaded_by_name():
    assert named_task({"task": "catbench"}) == "catbench"
    config = {"task": "my_task", "dataset_path": "json"}
    assert named_task(config) is config and named_task("tempvs") == "tempvs"


def test_a_users_folder_named_like_a_task_is_warned_about(tmp_path):
    (tmp_path / "tempvs").mkdir()  # the user's data, no task YAML
    (tmp_path / "isobench").mkdir()
    (tmp_path / "isobench" / "isobench.yaml").write_text("task: isobench\n")  # names the task: fine
    assert shadowing_folders(["tempvs", "isobench", "catbench"], tmp_path) == ["tempvs"]
    out = tmp_path / "out"
    out.mkdir()
    log = run_cli([str(BIN / "lmms-eval"), "--model", "random_choice", "--tasks", "tempvs", "--output_path", str(out)], out, cwd=tmp_path)
    assert ("the working folder has a folder tempvs/: lmms-eval reads `--tasks tempvs` as that folder of task YAMLs, "
            "not as the task (it finds no task there)") in log.stdout + log.stderr
