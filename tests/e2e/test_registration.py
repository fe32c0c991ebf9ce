"""How users reach our tasks: no flags in lmms-eval, --include_path in lm-eval, wherever they run."""

from pathlib import Path

from temporal_bench.paths import LM_EVAL_TASK_DIR, PLUGIN_TASK_DIR
from tests.harness import BIN, lmms_eval, metric, run_cli
from tests.paths import REPO


def test_lmms_eval_lists_our_tasks_without_flags(tmp_path):
    log = run_cli([str(BIN / "lmms-eval"), "--tasks", "list"], tmp_path)
    listing = log.stdout + log.stderr
    for task in ("catbench", "catbench_switched", "catbench_paper"):
        assert f" - {task}\n" in listing, task


def test_a_users_own_utils_module_does_not_shadow_our_hooks(tmp_path):
    (tmp_path / "utils.py").write_text("raise ImportError('the user utils.py was imported')\n")
    (tmp_path / "data").mkdir()
    from temporal_bench.catbench.fixtures import write_fixture

    root = write_fixture(tmp_path / "data" / "catbench")
    results = lmms_eval(tmp_path, ["catbench"], env={"CATBENCH_DATA_DIR": str(root)}, cwd=tmp_path)
    assert metric(results, "catbench", "f1_macro") == 1.0


def test_task_dir_command_prints_the_installed_folders(tmp_path):
    run = lambda *args: run_cli([str(BIN / "temporal-bench"), "task-dir", *args], tmp_path).stdout.strip()  # noqa: E731
    assert run() == str(PLUGIN_TASK_DIR)  # this package's tasks (the upstream folders' names, on its data routes)
    assert run("--harness", "lm-eval") == str(LM_EVAL_TASK_DIR)
    assert (PLUGIN_TASK_DIR / "catbench" / "catbench.yaml").is_file()


def test_a_benchmark_name_means_its_tasks_in_the_repository_root(tmp_path):
    """lmms-eval takes `--tasks tempvs` for the folder ./tempvs where one exists (before any task
    name), and the repository root holds the benchmarks' source folders: each holds a YAML naming
    its task, so that from there the command runs what it runs anywhere else (a simple model class here; CaT-Bench
    with a chat class: the next test)."""
    from tests.api_backends.tasks import write_data

    env = write_data(tmp_path / "data")  # small copies of the three benchmarks
    for name, tasks, headline in (("tempvs", {"tempvs"}, ("tempvs", "mt1_two_gt_acc")), ("isobench", {"isobench"}, ("isobench", "paper_f1_weighted"))):
        assert (REPO / name).is_dir()
        results = lmms_eval(tmp_path / name, [name], env=env, cwd=REPO)
        assert set(results["results"]) == tasks, name
        assert metric(results, *headline) == 1.0, name


def test_a_chat_model_class_runs_a_benchmark_name_in_the_repository_root(tmp_path):
    """lmms-eval loads a config mapping from a folder's YAML for a simple model class whatever the model: the
    root folders' YAMLs hold the task's name (temporal_bench/task_registration.py ``TaskName``), which it loads
    for the model's task type, so lmms-eval's ``openai`` chat class (against a loopback mock answering each
    question's gold answer) runs `--tasks catbench` from the root as anywhere else."""
    from lmms_eval.utils import load_yaml_config

    from tests.api_backends.mock_server import MockServer, scripted
    from tests.api_backends.runs import MOCK_MODEL, api_env, oracle_text
    from tests.api_backends.tasks import LIMIT, expected_requests, scripted_answers, write_data

    for name in ("tempvs", "catbench", "isobench"):
        assert isinstance(load_yaml_config(str(REPO / name / f"{name}.yaml")), str), name
    env = write_data(tmp_path / "data")
    expected = expected_requests(env, ["catbench"])
    with MockServer(scripted(scripted_answers(expected, oracle_text)), max_requests=50, lifetime_s=240) as server:
        model_args = f"model={MOCK_MODEL},base_url={server.base_url},max_retries=1,retry_backoff_s=0"
        results = lmms_eval(tmp_path, ["catbench"], "openai", model_args, {**env, **api_env(server.base_url)}, ["--limit", str(LIMIT)], cwd=REPO)
    assert results["config"]["model_backend"].endswith("(chat)")
    assert len(server.bodies) == len(expected) and metric(results, "catbench", "f1_macro") == 1.0


def test_the_documented_lmms_eval_fix_applies_to_the_installed_lmms_eval():
    """docs/upstream.md's patch (``TaskManager.load_config`` keeping the task type): every hunk's old lines are in the
    installed lmms-eval."""
    import lmms_eval.tasks

    section = (REPO / "docs" / "upstream.md").read_text(encoding="utf-8").split("## lmms-eval fix:")[1]
    diff = section.split("```diff\n")[1].split("```")[0].rstrip("\n")
    source = Path(lmms_eval.tasks.__file__).read_text(encoding="utf-8")
    hunks = diff.split("\n@@")[1:]
    assert len(hunks) == 3
    for hunk in hunks:
        old = "\n".join(line[1:] for line in hunk.split("\n")[1:] if line[:1] in (" ", "-", ""))
        assert old in source, f"lmms-eval changed here (fixed? then the repository root's YAMLs may hold `task: NAME` again):\n{old}"


def test_an_lmms_eval_without_the_yaml_loading_the_tasks_need_is_refused_by_name(monkeypatch):
    """The lmms-eval 0.7.2 release cannot read the task folders' YAMLs: the tasks are not registered, and the
    log says why and what to install."""
    from lmms_eval import utils
    from lmms_eval.tasks import TaskManager
    from loguru import logger

    from temporal_bench import task_registration

    assert task_registration.missing_harness_features() == []
    monkeypatch.delattr(utils, "_maybe_resolve_yaml_local_data_files")
    errors = []
    sink = logger.add(lambda message: errors.append(message.record["message"]), level="ERROR")
    try:
        before = TaskManager.initialize_tasks
        task_registration.register()
    finally:
        logger.remove(sink)
    assert TaskManager.initialize_tasks is before
    assert errors == [
        "lmms-eval-temporal-bench: the installed lmms-eval lacks data_files paths relative to the task YAML, which the TempVS, CaT-Bench and "
        "ISO-Bench tasks need: install lmms-eval 0.7.3 or newer (or its main branch from source). Their tasks are not registered."
    ]
