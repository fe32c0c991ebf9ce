"""Run the real lmms-eval / lm-eval command lines in their own processes and read what they wrote.

Our console scripts run in children forked from a process that imported them already
(``tests/preloaded_cli.py``); anything else runs as a plain subprocess.

The lmms-eval CLI exits 0 even when an evaluation fails, so a run counts as done only when its
results file exists and holds every requested task.
"""

import glob
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from temporal_bench.paths import LM_EVAL_TASK_DIR
from temporal_bench.runs.logged import find_runs
from temporal_bench.runs.results import with_breakdowns
from tests import harness_starts, preloaded_cli

BIN = Path(sys.executable).parent
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}


_finished: dict[str, float] = {}  # output folder -> when the last run into it ended


def _after_the_last_runs_second(command: list[str], cwd: Path) -> str | None:
    """lmms-eval names a run's files by the second it took its date in (``<date>_<time>_results.json``), some time after
    it started: a run into a folder another run wrote into waits for the second after that run ended, so that it cannot
    overwrite the other's files. The output folder, if the command names one."""
    if "--output_path" not in command:
        return None
    folder = str((cwd / command[command.index("--output_path") + 1]).resolve())
    while folder in _finished and int(time.time()) <= int(_finished[folder]):
        time.sleep(0.05)
    return folder


def run_cli(command: list[str], output_dir: Path, env: dict[str, str] | None = None, cwd: Path | None = None, again: bool = False) -> subprocess.CompletedProcess:
    """``command`` in its own process (``again``: a harness command that repeats an earlier one on purpose, e.g. the
    re-run of a documented workflow; tests/harness_starts.py)."""
    folder = _after_the_last_runs_second(command, cwd or output_dir)
    full_env = {**os.environ, **OFFLINE, **(env or {})}
    # A private datasets cache keeps runs from reusing each other's placeholder loads.
    full_env.setdefault("HF_DATASETS_CACHE", str(output_dir / "hf_datasets_cache"))
    harness_starts.log(command, full_env, again)
    try:
        if preloaded_cli.applies(command, full_env):
            return preloaded_cli.run(command, full_env, cwd or output_dir, timeout=900)
        return subprocess.run(command, env=full_env, cwd=cwd or output_dir, capture_output=True, text=True, timeout=900)
    finally:
        if folder is not None:
            _finished[folder] = time.time()


def read_results(output_dir: Path, tasks: list[str], log: subprocess.CompletedProcess) -> dict:
    """The results JSON, with each task's breakdown keys computed from its logged samples as
    ``temporal-bench report`` computes them (temporal_bench/runs/results.py)."""
    # lmms-eval writes <date>_results.json, lm-eval results_<date>.json; or the results file itself
    files = [str(output_dir)] if output_dir.is_file() else sorted(glob.glob(str(output_dir / "**" / "*_results.json"), recursive=True) + glob.glob(str(output_dir / "**" / "results_*.json"), recursive=True))
    assert files, f"no results file under {output_dir}\nstdout:\n{log.stdout[-4000:]}\nstderr:\n{log.stderr[-6000:]}"
    (run,) = find_runs(files[-1], rescored=True)
    missing = [task for task in tasks if task not in run.data["results"]]
    assert not missing, f"tasks {missing} missing from {files[-1]}\nstderr:\n{log.stderr[-6000:]}"
    return {**run.data, "results": {task: with_breakdowns(run, task, entry) if isinstance(entry, dict) else entry for task, entry in run.data["results"].items()}}


def logged_payload(sample: dict) -> int:
    """Bytes a logged sample line holds beyond its prompt (``input``) and response (``filtered_resps``), as
    benchmarks/RESULTS.md measures it ("Logged payload per doc")."""
    return len(json.dumps({k: v for k, v in sample.items() if k not in ("input", "filtered_resps")}, ensure_ascii=False).encode())


def read_samples(output_dir: Path, task: str) -> list[dict]:
    files = sorted(glob.glob(str(output_dir / "**" / f"*_samples_{task}.jsonl"), recursive=True))
    assert files, f"no samples file for {task} under {output_dir}"
    with open(files[-1], encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def lmms_eval(tmp_path: Path, tasks: list[str], *arguments, **options) -> dict:
    """Evaluate ``tasks`` with the lmms-eval CLI (:func:`lmms_eval_into`'s arguments) and return the results JSON; the
    run's files are under ``tmp_path / "lmms_eval_out"``."""
    return lmms_eval_into(tmp_path / "lmms_eval_out", tasks, *arguments, **options)


def lmms_eval_into(
    output_dir: Path,
    tasks: list[str],
    model: str = "scripted",
    model_args: str = "policy=oracle",
    env: dict[str, str] | None = None,
    extra: list[str] | None = None,
    cwd: Path | None = None,
    processes: int = 1,
    log_samples: bool = True,
    again: bool = False,
) -> dict:
    """Evaluate ``tasks`` with the lmms-eval CLI into ``output_dir`` (``processes`` > 1: under ``accelerate launch`` on the
    CPU; ``again``: the same command as an earlier one, on purpose) and return the results JSON."""
    output_dir.mkdir(parents=True, exist_ok=True)
    launcher = [str(BIN / "lmms-eval")]
    if processes > 1:
        launcher = [str(BIN / "accelerate"), "launch", "--cpu", "--num_processes", str(processes), "-m", "lmms_eval"]
    command = [*launcher, "--model", model, "--model_args", model_args, "--tasks", ",".join(tasks), "--output_path", str(output_dir), *(["--log_samples"] if log_samples else []), *(extra or [])]
    log = run_cli(command, output_dir, env, cwd, again=again)
    return read_results(output_dir, tasks, log)


def lm_eval(output_dir: Path, tasks: list[str], model_args: str, env: dict[str, str] | None = None, extra: list[str] | None = None, log_samples: bool = True, include_path: Path = LM_EVAL_TASK_DIR) -> dict:
    """Evaluate ``tasks`` with lm-eval's CLI (``temporal-bench lm-eval``: our scripted models registered)
    over ``include_path`` (our lm-eval task folder) and return the results JSON; the samples are logged in
    ``output_dir``."""
    output_dir.mkdir(parents=True, exist_ok=True)
    command = [
        str(BIN / "temporal-bench"),
        "lm-eval",
        "run",
        "--model",
        "scripted",
        "--model_args",
        model_args,
        "--tasks",
        ",".join(tasks),
        "--include_path",
        str(include_path),
        "--output_path",
        str(output_dir),
        *(["--log_samples"] if log_samples else []),
        *(extra or []),
    ]
    return read_results(output_dir, tasks, run_cli(command, output_dir, env))


def metric(results: dict, task: str, name: str, filter_name: str = "none"):
    return results["results"][task][f"{name},{filter_name}"]


def run_of(folder: Path, label: str, results: dict):
    """The report's :class:`Run` of a results file holding ``results`` (no samples beside it), labelled ``label``."""
    from temporal_bench.runs.results import load_runs

    path = folder / "run_of" / label.replace("/", "__") / "20250101_000000_results.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"results": results, "model_name": label, "config": {"model": label}}), encoding="utf-8")
    (run,) = load_runs([path], label=label)
    return run
