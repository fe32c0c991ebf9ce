"""``temporal-bench export --check``: what lmms-eval's maintainers would check, on the exported folders.

Each step runs the way upstream does it, once for all the folders checked together, and gives each benchmark its own
outcome; it fails loudly, never passes for want of something to check:

1. lint: black 25.1.0 ``--line-length=240`` and isort 6.0.1 ``--profile black`` from the root of a tree laid out as an
   lmms-eval checkout would change no file (another installed version fails the step);
2. imports: each exported ``utils.py`` imports in a fresh interpreter with no data, offline, every connection refused
   and ``temporal_bench`` not importable; every function its YAMLs name exists;
3. task manager: then, in that interpreter, lmms-eval's TaskManager (``include_path`` the folders) registers every
   task and group, and every YAML loads in full;
4. tests: the exported ``test/eval/`` files pass with pytest in such a process;
5. run: every task runs with ``--limit 8`` and lmms-eval's ``dummy`` model answering in the tasks' format (each
   benchmark's ``smoke_response``, temporal_bench/export/facts.py), offline, on the converted data the contributor names (``--converted-data DIR``: ``DIR/<benchmark>/`` as build-dataset wrote it, CaT-Bench's as the
   hub's files), through a temporary copy of the folders whose ``dataset_path`` names that folder (the exported files
   keep the hub id); TempVS's ``images.zip`` is unpacked where lmms-eval would unpack it. Its results give the
   smoke table of the pull request's description, which says whether that data is synthetic (the marker file of
   generated data in ``DIR/<benchmark>/``).

Each step's outcome carries its sample size and key figures, which the description's Validation lines give.
"""

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict
from xml.etree import ElementTree

from temporal_bench import benchmarks
from temporal_bench.data_locations import DATA_ENVS  # the package's data variables: unset upstream
from temporal_bench.export.facts import facts_of
from temporal_bench.export.standalone.overlay import install_overlay
from temporal_bench.export.task_folder import UPSTREAM_TASKS_DIR, UPSTREAM_TESTS_DIR, ExportedFolder
from temporal_bench.export.task_yaml import read_folder
from temporal_bench.runs.logged import find_runs
from temporal_bench.synthetic_data import is_synthetic

STANDALONE = Path(__file__).resolve().parent / "standalone"
LINE_LENGTH = 240
PINNED = {"black": "25.1.0", "isort": "6.0.1"}  # lmms-eval's .pre-commit-config.yaml
LIMIT = 8
RUN_MODEL = "dummy"  # lmms-eval's own no-op model: answers its ``response`` argument to every request
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}


@dataclass(frozen=True)
class Step:
    name: str
    passed: bool
    detail: str
    smoke: list[dict] = field(default_factory=list)  # run: one row per task (task, docs, its first metrics, a sample output)
    size: str = ""  # what it checked, e.g. "12 Python files" (empty when it could not start)


def tasks_of(folder: ExportedFolder) -> list[str]:
    return [f.name for f in read_folder(folder.path) if not f.is_group]


def _run(command: Sequence[str], env: dict[str, str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(list(command), env=env, cwd=cwd, capture_output=True, text=True)


def _tail(done: subprocess.CompletedProcess) -> str:
    return " ".join((done.stdout + done.stderr).strip().splitlines()[-3:])


def lint(output: Path, folders: Sequence[ExportedFolder], work: Path) -> Step:
    import black
    import isort

    installed = {"black": black.__version__, "isort": isort.__version__}
    wrong = [f"{name} {installed[name]} (lmms-eval pins {version})" for name, version in PINNED.items() if installed[name] != version]
    if wrong:
        return Step("lint", False, f"installed {', '.join(wrong)}: pip install " + " ".join(f"{n}=={v}" for n, v in PINNED.items()))
    root = work / "checkout"
    targets = [UPSTREAM_TASKS_DIR / f.benchmark for f in folders] + [UPSTREAM_TESTS_DIR]
    for target in targets:
        shutil.copytree(output / target, root / target, ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)
    for package in (root / "lmms_eval", root / UPSTREAM_TASKS_DIR):
        (package / "__init__.py").write_text("")
    paths = [str(target) for target in targets]
    size = f"{sum(len(list((root / path).glob('*.py'))) for path in paths)} Python files"
    for command in ([sys.executable, "-m", "black", "--check", f"--line-length={LINE_LENGTH}", *paths], [sys.executable, "-m", "isort", "--check-only", "--profile", "black", *paths]):
        done = _run(command, dict(os.environ), cwd=root)
        if done.returncode:
            return Step("lint", False, f"{command[2]} would change files: {_tail(done)}", size=size)
    return Step("lint", True, f"black {PINNED['black']} and isort {PINNED['isort']} change none of them", size=size)


def standalone_env(overlay: Path, home: Path) -> dict[str, str]:
    """Offline, no data variable, empty Hugging Face caches under ``home``, lmms-eval with the export in it and
    ``temporal_bench`` not importable (standalone/sitecustomize.py)."""
    env = {name: value for name, value in os.environ.items() if name not in DATA_ENVS}
    env.update({**OFFLINE, "PYTHONPATH": os.pathsep.join([str(overlay), str(STANDALONE)]), "HF_HOME": str(home / "hf"), "HF_DATASETS_CACHE": str(home / "hf" / "datasets"), "HF_HUB_CACHE": str(home / "hf" / "hub")})
    return env


def hooks_of(folder: ExportedFolder) -> list[str]:
    """The functions of its ``utils.py`` that the folder's YAMLs name (``!function utils.<name>``)."""
    return sorted({name for text in folder.files.values() for name in re.findall(r"!function\s+utils\.(\w+)", text)})


def _probe(output: Path, folders: Sequence[ExportedFolder], overlay: Path, work: Path) -> dict:
    """One fresh interpreter: the utils.py imports first, then the TaskManager (standalone/import_utils.py); the
    report, or ``{"failed": why}``."""
    hooks = {f.benchmark: hooks_of(f) for f in folders}
    command = [sys.executable, str(STANDALONE / "import_utils.py"), str(output / UPSTREAM_TASKS_DIR), json.dumps(hooks), json.dumps([str(f.path) for f in folders])]
    done = _run(command, standalone_env(overlay, work / "home"))
    if done.returncode:
        return {"failed": f"the probe failed: {_tail(done)}"}
    return {**json.loads(done.stdout.strip().splitlines()[-1]), "hooks": hooks}


def imports(report: dict, folder: ExportedFolder) -> Step:
    if "failed" in report:
        return Step("imports", False, report["failed"])
    outcome, missing = report["imports"][folder.benchmark], report["missing_hooks"][folder.benchmark]
    problems = ([f"utils.py: {outcome}"] if outcome != "ok" else []) + ([f"utils.py lacks {', '.join(missing)}"] if missing else [])
    problems += [f"connection attempted: {address}" for address in report["connections"]]
    if problems:
        return Step("imports", False, "; ".join(problems))
    hooks = len(report["hooks"][folder.benchmark])
    return Step("imports", True, f"utils.py imports offline with no data, no connection and no exit, and defines the {hooks} functions the YAMLs name", size=f"{hooks} hooks")


def task_manager(report: dict, folder: ExportedFolder) -> Step:
    if "failed" in report:
        return Step("task manager", False, report["failed"])
    expected = sorted(f.name for f in read_folder(folder.path))
    missing = sorted(set(expected) - set(report["task_manager"]["registered"]))
    problems = [f"not registered: {', '.join(missing)}"] if missing else []
    problems += [f"{name}: {error}" for name, error in report["task_manager"]["errors"].items() if name.startswith(f"{folder.benchmark}/")]
    if problems:
        return Step("task manager", False, "; ".join(problems))
    return Step("task manager", True, f"lmms-eval's TaskManager registers all {len(expected)} tasks and groups; every YAML loads in full", size=f"{len(expected)} tasks and groups")


class PytestOutcome(TypedDict):
    """One exported test file's outcome."""

    passed: int  # its tests that passed
    failed: list[str]  # the names of those that failed
    log: str  # the end of pytest's output


def _pytest(output: Path, folders: Sequence[ExportedFolder], overlay: Path, work: Path) -> dict[str, PytestOutcome]:
    """Every exported test file in one pytest process (run in ``work``, so the files are named by absolute path): file ->
    its outcome."""
    files = [name for f in folders for name in f.tests]
    outcomes: dict[str, PytestOutcome] = {name: {"passed": 0, "failed": [], "log": ""} for name in files}
    if not files:
        return outcomes
    report = work / "pytest.xml"
    paths = [str((output / UPSTREAM_TESTS_DIR / name).resolve()) for name in files]
    done = _run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}", *paths], standalone_env(overlay, work / "home_tests"), cwd=work)
    for outcome in outcomes.values():
        outcome["log"] = _tail(done)
    for case in ElementTree.parse(report).getroot().iter("testcase") if report.is_file() else []:
        name = case.get("classname", "").rsplit(".", 1)[-1] + ".py"
        if name in outcomes:
            if case.find("failure") is not None or case.find("error") is not None:
                outcomes[name]["failed"].append(case.get("name", ""))
            else:
                outcomes[name]["passed"] += 1
    return outcomes


def upstream_tests(outcomes: dict[str, PytestOutcome], folder: ExportedFolder) -> Step:
    if not folder.tests:
        return Step("tests", False, f"no test file for {folder.benchmark} under {UPSTREAM_TESTS_DIR}/")
    passed = sum(outcomes[name]["passed"] for name in folder.tests)
    failed = [test for name in folder.tests for test in outcomes[name]["failed"]]
    detail = f"{passed} passed" + (f", failed: {', '.join(failed)}" if failed else "")
    if not passed and not failed:
        detail += f": pytest ran no test of {', '.join(folder.tests)} ({outcomes[next(iter(folder.tests))]['log']})"
    return Step("tests", passed > 0 and not failed, detail, size=f"{passed + len(failed)} tests")


def local_copy(output: Path, folders: Sequence[ExportedFolder], data: Path, into: Path) -> Path:
    """A copy of the exported task folders whose ``dataset_path`` names ``data/<benchmark>/`` instead of the hub id
    (lmms-eval reads a local folder of the hub's layout the same way, offline); the exported folders keep the hub id."""
    for folder in folders:
        copy = into / folder.benchmark
        shutil.copytree(output / UPSTREAM_TASKS_DIR / folder.benchmark, copy, ignore=shutil.ignore_patterns("__pycache__"))
        hub_id = facts_of(benchmarks.get(folder.benchmark)).hub_dataset
        for path in copy.glob("*yaml"):
            path.write_text(path.read_text(encoding="utf-8").replace(f"dataset_path: {hub_id}\n", f"dataset_path: {(data / folder.benchmark).resolve()}\n"), encoding="utf-8")
    return into


def _unpack_media(data: Path, folders: Sequence[ExportedFolder], env: dict[str, str]) -> None:
    """What lmms-eval does for ``dataset_kwargs: {video: true, cache_dir: NAME}`` before loading: the dataset
    repository's archives unpacked under ``$HF_HOME/NAME`` (here from the local folder, without a download)."""
    for folder in folders:
        text = "".join(folder.files.values())
        for name in set(re.findall(r"cache_dir:\s*([\w-]+)", text)):
            for archive in sorted((data / folder.benchmark).glob("*.zip")):
                shutil.unpack_archive(archive, Path(env["HF_HOME"]) / name)


def _smoke_rows(out: Path, tasks: Sequence[str]) -> list[dict]:
    """Each task's first metrics and its first logged sample, from the run's output read as every command reads a run
    (none where the run wrote nothing)."""
    logged = {task: run for run in (find_runs(out) if out.exists() else []) for task in run.tasks}
    rows = []
    for task in (task for task in tasks if task in logged):
        entry = logged[task].data["results"][task]
        metrics = {key.split(",")[0]: value for key, value in entry.items() if "," in key and "_stderr" not in key and isinstance(value, (int, float))}
        sample = next(iter(logged[task].lines(task)), {}) if logged[task].has_samples(task) else {}
        rows.append({"task": task, "metrics": dict(list(metrics.items())[:3]), "input": str(sample.get("input", ""))[-300:], "output": sample.get("filtered_resps", "")})
    return rows


def data_kind(folder: Path) -> str:
    """What the run step read: synthetic data (the marker file of generated data) or a converted release."""
    return "synthetic data (generated in the release's layout, not the release)" if is_synthetic(folder) else "the converted release"


def run_tasks(output: Path, folders: Sequence[ExportedFolder], overlay: Path, data: Path | None, work: Path) -> dict[str, Step]:
    """Every task with ``--limit 8`` on the converted data ``data/<benchmark>/``, one lmms-eval process per benchmark
    (the dummy model answering in its tasks' format); each benchmark's step."""
    if data is None:
        return {f.benchmark: Step("run", False, f"no converted data given: pass --converted-data DIR holding {f.benchmark}/") for f in folders}
    missing = [f.benchmark for f in folders if not (data / f.benchmark).is_dir()]
    if missing:
        return {f.benchmark: Step("run", False, f"no converted data at {data / f.benchmark}" if f.benchmark in missing else f"not run: no converted data for {', '.join(missing)}") for f in folders}
    env = standalone_env(overlay, work / "home_run")
    _unpack_media(Path(data), folders, env)
    local = local_copy(output, folders, Path(data), work / "local_tasks")
    steps = {}
    for folder in folders:
        out, response = work / "run" / folder.benchmark, facts_of(benchmarks.get(folder.benchmark)).smoke_response
        command = [sys.executable, "-m", "lmms_eval", "--model", RUN_MODEL, "--model_args", f"response={response}", "--tasks", ",".join(tasks_of(folder)), "--limit", str(LIMIT)]
        done = _run([*command, "--include_path", str(local / folder.benchmark), "--output_path", str(out), "--log_samples"], env)
        mine = _smoke_rows(out, tasks_of(folder))
        failed = sorted(set(tasks_of(folder)) - {row["task"] for row in mine})
        size = f"{LIMIT} docs per task, {len(tasks_of(folder))} tasks, {data_kind(data / folder.benchmark)}"
        if done.returncode or failed:
            facts = facts_of(benchmarks.get(folder.benchmark))
            layout = f"{data / folder.benchmark} must hold the converted dataset in the hub's layout (a download of {facts.hub_dataset}" + (f", or what `{facts.build_command}` writes" if facts.build_command else "") + ")"
            steps[folder.benchmark] = Step("run", False, f"exit status {done.returncode}; no results for {', '.join(failed) or 'none'}: {_tail(done)}; {layout}", mine, size)
        else:
            steps[folder.benchmark] = Step("run", True, f"all {len(mine)} tasks ran with --limit {LIMIT} and lmms-eval's {RUN_MODEL} model on {data / folder.benchmark}", mine, size)
    return steps


def run_checks(output: Path, folders: Sequence[ExportedFolder], data: Path | None, work: Path) -> dict[str, list[Step]]:
    """Each benchmark's steps, each step run once for all ``folders`` (``output`` may be relative to the working folder)."""
    output = Path(output).resolve()
    overlay = install_overlay(work / "overlay", output / UPSTREAM_TASKS_DIR)
    report = _probe(output, folders, overlay, work)
    tests = _pytest(output, folders, overlay, work)
    runs = run_tasks(output, folders, overlay, data, work)
    return {f.benchmark: [lint(output, [f], work / f.benchmark), imports(report, f), task_manager(report, f), upstream_tests(tests, f), runs[f.benchmark]] for f in folders}
