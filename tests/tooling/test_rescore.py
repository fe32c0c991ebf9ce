"""``temporal-bench rescore`` refusing what it cannot score, before any evaluation (temporal_bench/rescore/), on recorded
runs (tests/recorded/rescore.py): a run without samples, a task no run has or the harness does not know, a setting no
task has, a value of another kind than the setting's, a malformed ``--set``, a path that is not there, and settings
that cannot be matched with the run's because the task YAML changed since. The evaluations themselves:
tests/e2e/test_rescore_runs.py."""

import json
import shutil
from pathlib import Path

import pytest

from temporal_bench.rescore.cli import main_rescore
from tests.recorded import materialize


def refused(argv, env, capsys, monkeypatch) -> str:
    """What ``rescore ARGV`` says on standard error as it exits with status 2, its data in the environment."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as exit_info:
        main_rescore([*map(str, argv), "--output-dir", "never_written"])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert not Path("never_written").exists()
    return error


@pytest.fixture(scope="module")
def lmms_run(recorded):
    return recorded("rescore_lmms")


def test_missing_samples_unknown_tasks_and_bad_options_exit_with_a_message(lmms_run, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = lmms_run.out
    results_file = next(out.rglob("*_results.json"))
    no_samples = tmp_path / "no_samples"
    no_samples.mkdir()
    shutil.copy(results_file, no_samples)
    renamed = tmp_path / "renamed"
    renamed.mkdir()
    run = json.loads(results_file.read_text())
    run["results"] = {"isobench_renamed": run["results"]["isobench"]}
    run["group_subtasks"] = {"isobench_renamed": []}
    (renamed / results_file.name).write_text(json.dumps(run))
    date = results_file.name[: -len("_results.json")]
    shutil.copy(next(out.rglob("*_samples_isobench.jsonl")), renamed / f"{date}_samples_isobench_renamed.jsonl")
    cases = [
        ([no_samples], "--log_samples"),
        ([out, "--tasks", "isobench_nonexistent"], "no run has task(s) isobench_nonexistent"),
        ([renamed], "task 'isobench_renamed' cannot be rebuilt: the harness does not know it"),
        ([out, "--tasks", "isobench", "--set", "no_such_setting=1"], "--set no_such_setting: no re-scored task has such a setting (theirs: column_map, data_split, version)"),
        ([out, "--set", "fixes"], "expected a task setting as key=value"),
        ([tmp_path / "absent"], "absent"),
    ]
    for argv, message in cases:
        assert message in refused(argv, lmms_run.env, capsys, monkeypatch), argv


@pytest.mark.parametrize(
    "setting, message",
    [
        ("close_max_distance=abc", "--set close_max_distance=abc: `close_max_distance` takes a whole number (catbench_switched recorded 3), not 'abc'"),
        ("switched=maybe", "--set switched=maybe: `switched` takes true or false (catbench_switched recorded true), not 'maybe'"),
    ],
)
def test_a_value_of_another_kind_than_the_setting_s_is_refused_before_any_evaluation(lmms_run, setting, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    error = refused([lmms_run.out, "--tasks", "tempvs_mt1_two,catbench_switched", "--set", setting], lmms_run.env, capsys, monkeypatch)
    assert message in error and "needs the run's data" not in error


@pytest.mark.parametrize(
    "old, new, message",
    [
        ("  matching: exact\n", "  matching: exact\n  casefold: true\n", "its YAML now has setting(s) ['casefold'], which the run did not record; give the run's value with --set casefold=VALUE"),
        ("  matching: exact\n", "  matches: exact\n", "the run's setting(s) ['matching'] are not in its YAML now"),
    ],
)
def test_settings_that_cannot_be_matched_with_the_run_s_are_refused(tmp_path, capsys, monkeypatch, old, new, message):
    run = materialize("rescore_probe", tmp_path / "probe")  # a copy of the task folder of its own, edited
    yaml = Path(run.env["PROBE_TASKS_DATA_DIR"]) / "rescore_probe.yaml"
    yaml.write_text(yaml.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert message in refused([run.out, "--tasks", "rescore_probe"], run.env, capsys, monkeypatch)
