"""``temporal-bench export --check``: what lmms-eval's maintainers would check, on the exported folders.

Each step runs the way upstream does it and fails loudly, never passes for want of something to check:

1. lint: black 25.1.0 ``--line-length=240`` and isort 6.0.1 ``--profile black`` from the root of a tree
   laid out as an lmms-eval checkout would change no file (another installed version fails the step);
2. imports: each exported ``utils.py`` imports in a fresh interpreter with no data, offline, every connection
   refused and ``temporal_bench`` not importable; it defines every hook its YAMLs name;
3. task manager: then, in that interpreter, lmms-eval's TaskManager (``include_path`` the folders) registers
   every task and group, and every YAML loads in full;
4. data route: each benchmark has its converted hub dataset (export/hub_route.py);
5. run: every task runs with ``--limit 8`` on the converted data the contributor names (``--converted-data DIR``:
   ``DIR/<benchmark>/`` as build-dataset wrote it, CaT-Bench's as the hub's files), in one lmms-eval process with
   the baseline ``random_choice``, offline: a temporary copy of the folders names the local data in
   ``dataset_path`` (the exported files keep the hub id); without that data the step says so and fails.

Then it prints the pull request's description, with validation numbers from the run folders the
contributor passes (``--validation``), read with the report's public functions.
"""

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from temporal_bench import benchmarks
from temporal_bench.export.facts import exportable, facts_of
from temporal_bench.export.formatting import LINE_LENGTH, PINNED
from temporal_bench.export.hub_route import hub_route
from temporal_bench.export.source_modules import SHARED_FOLDER
from temporal_bench.export.standalone.overlay import install_overlay
from temporal_bench.export.task_folder import UPSTREAM_TASKS_DIR, ExportedFolder
from temporal_bench.export.task_yaml import read_folder

STANDALONE = Path(__file__).resolve().parent / "standalone"
LIMIT = 8
RUN_MODEL = "random_choice"
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}


@dataclass(frozen=True)
class Step:
    name: str
    passed: bool
    detail: str


def _tasks(folder: ExportedFolder) -> List[str]:
    return [f.name for f in read_folder(folder.path) if not f.is_group]


def _names(folder: ExportedFolder) -> List[str]:
    return [f.name for f in read_folder(folder.path)]


def _run(command: Sequence[str], env: Dict[str, str], cwd: Optional[Path] = None) -> subprocess.CompletedProcess:
    return subprocess.run(list(command), env=env, cwd=cwd, capture_output=True, text=True)


def _tail(done: subprocess.CompletedProcess) -> str:
    return " ".join((done.stdout + done.stderr).strip().splitlines()[-3:])


def lint(tasks_dir: Path, folders: Sequence[ExportedFolder], work: Path) -> Step:
    import black
    import isort

    installed = {"black": black.__version__, "isort": isort.__version__}
    wrong = [f"{name} {installed[name]} (lmms-eval pins {version})" for name, version in PINNED.items() if installed[name] != version]
    if wrong:
        return Step("lint", False, f"installed {', '.join(wrong)}: pip install " + " ".join(f"{n}=={v}" for n, v in PINNED.items()))
    root = work / "checkout"
    targets = [f.benchmark for f in folders] + [str(SHARED_FOLDER)]
    for target in targets:
        shutil.copytree(tasks_dir / target, root / UPSTREAM_TASKS_DIR / target, ignore=shutil.ignore_patterns("__pycache__"))
    for package in (root / "lmms_eval", root / UPSTREAM_TASKS_DIR):
        (package / "__init__.py").write_text("")
    paths = [str(UPSTREAM_TASKS_DIR / target) for target in targets]
    for command in ([sys.executable, "-m", "black", "--check", f"--line-length={LINE_LENGTH}", *paths], [sys.executable, "-m", "isort", "--check-only", "--profile", "black", *paths]):
        done = _run(command, dict(os.environ), cwd=root)
        if done.returncode:
            return Step("lint", False, f"{command[2]} would change files: {_tail(done)}")
    files = sum(len(list((root / path).glob("*.py"))) for path in paths)
    return Step("lint", True, f"black {PINNED['black']} and isort {PINNED['isort']} change none of the {files} Python files")


def _standalone_env(overlay: Path, home: Path, blocked: bool) -> Dict[str, str]:
    """Offline, no data variable, empty Hugging Face caches under ``home``, lmms-eval with the export in it."""
    data_envs = {facts_of(benchmarks.get(name)).data_dir_env for name in exportable()}
    env = {name: value for name, value in os.environ.items() if name not in data_envs}
    path = [str(overlay), *([str(STANDALONE)] if blocked else [])]
    env.update({**OFFLINE, "PYTHONPATH": os.pathsep.join(path), "HF_HOME": str(home / "hf"), "HF_DATASETS_CACHE": str(home / "hf" / "datasets"), "HF_HUB_CACHE": str(home / "hf" / "hub")})
    return env


def _hooks(folder: ExportedFolder) -> List[str]:
    return sorted({name for path in folder.path.iterdir() if path.name.endswith("yaml") for name in re.findall(r"!function\s+utils\.(\w+)", path.read_text(encoding="utf-8"))})


def _probe(tasks_dir: Path, folders: Sequence[ExportedFolder], overlay: Path, work: Path) -> Dict:
    """One fresh interpreter, ``temporal_bench`` not importable: the utils.py imports first, then the TaskManager
    (standalone/import_utils.py, standalone/load_tasks.py); the report, or ``{"failed": why}``."""
    hooks = {f.benchmark: _hooks(f) for f in folders}
    command = [sys.executable, str(STANDALONE / "import_utils.py"), str(tasks_dir), json.dumps(hooks), "{}", json.dumps([str(f.path) for f in folders])]
    done = _run(command, _standalone_env(overlay, work / "home", blocked=True))
    if done.returncode:
        return {"failed": f"the probe failed: {_tail(done)}"}
    return {**json.loads(done.stdout.strip().splitlines()[-1]), "hooks": hooks}


def imports(report: Dict) -> Step:
    if "failed" in report:
        return Step("imports", False, report["failed"])
    problems = [f"{b}/utils.py: {outcome}" for b, outcome in report["imports"].items() if outcome != "ok"]
    problems += [f"{b}/utils.py lacks {', '.join(names)}" for b, names in report["missing_hooks"].items() if names]
    problems += [f"connection attempted: {address}" for address in report["connections"]]
    if problems:
        return Step("imports", False, "; ".join(problems))
    return Step("imports", True, f"{len(report['imports'])} utils.py import offline with no data, no connection and no exit, and define the {sum(map(len, report['hooks'].values()))} hooks their YAMLs name")


def task_manager(report: Dict, folders: Sequence[ExportedFolder]) -> Step:
    if "failed" in report:
        return Step("task manager", False, report["failed"])
    expected = sorted(name for f in folders for name in _names(f))
    missing = sorted(set(expected) - set(report["task_manager"]["registered"]))
    problems = [f"not registered: {', '.join(missing)}"] if missing else []
    problems += [f"{name}: {error}" for name, error in report["task_manager"]["errors"].items()]
    if problems:
        return Step("task manager", False, "; ".join(problems))
    return Step("task manager", True, f"lmms-eval's TaskManager registers all {len(expected)} tasks and groups; every YAML loads in full")


def data_route(folders: Sequence[ExportedFolder]) -> Step:
    unwired = [f.benchmark for f in folders if hub_route(f.benchmark) is None]
    if unwired:
        return Step("data route", False, f"{', '.join(unwired)}: no converted hub dataset yet (temporal_bench.<benchmark>.hub_dataset, `temporal-bench build-dataset`); their YAMLs keep the plugin's data route")
    return Step("data route", True, "every task names its converted hub dataset in dataset_path / dataset_name")


def _results(output: Path) -> Dict:
    merged: Dict = {"results": {}, "n-samples": {}}
    for path in sorted(output.rglob("*_results.json")):
        found = json.loads(path.read_text(encoding="utf-8"))
        merged["results"].update(found.get("results", {}))
        merged["n-samples"].update(found.get("n-samples", {}))
    return merged


def local_copy(tasks_dir: Path, folders: Sequence[ExportedFolder], data: Path, into: Path) -> Path:
    """A copy of the exported task folders whose YAMLs name ``data/<benchmark>/`` in ``dataset_path`` instead of
    the hub id (lmms-eval reads a local folder of the hub's layout the same way, offline); the exported folders
    keep the hub id. Returns the copy's tasks folder."""
    for folder in folders:
        copy = into / folder.benchmark
        shutil.copytree(tasks_dir / folder.benchmark, copy, ignore=shutil.ignore_patterns("__pycache__"))
        hub_id = hub_route(folder.benchmark).dataset_id
        for path in copy.glob("*yaml"):
            path.write_text(path.read_text(encoding="utf-8").replace(f"dataset_path: {hub_id}\n", f"dataset_path: {(data / folder.benchmark).resolve()}\n"), encoding="utf-8")
    return into


def run_tasks(tasks_dir: Path, folders: Sequence[ExportedFolder], overlay: Path, data: Optional[Path], work: Path) -> Step:
    """Every task with ``--limit 8`` in one lmms-eval process, on the converted data ``data/<benchmark>/`` (what
    build-dataset wrote; CaT-Bench, whose hub dataset is its release: the hub's files, ``{train,val,test}.jsonl``)
    through the YAMLs of a local copy (:func:`local_copy`)."""
    if data is None:
        return Step("run", False, f"no converted data given: pass --converted-data DIR holding {', '.join(f'{f.benchmark}/' for f in folders)}")
    missing = [f"{data / f.benchmark}" for f in folders if not (data / f.benchmark).is_dir()]
    if missing:
        return Step("run", False, f"no converted data at {', '.join(missing)}")
    unwired = [f.benchmark for f in folders if hub_route(f.benchmark) is None]
    if unwired:
        return Step("run", False, f"{', '.join(unwired)}: no hub dataset to run on (see the data route step)")
    tasks = [task for f in folders for task in _tasks(f)]
    env = _standalone_env(overlay, work / "home", blocked=False)  # the baseline model is ours; the tasks are the export's
    env["TEMPORAL_BENCH_NO_AUTO_TASKS"] = "1"
    local = local_copy(tasks_dir, folders, Path(data), work / "local_tasks")
    output = work / "run"
    done = _run([sys.executable, "-m", "lmms_eval", "--model", RUN_MODEL, "--tasks", ",".join(tasks), "--limit", str(LIMIT), "--include_path", str(local), "--output_path", str(output)], env)
    results = _results(output)
    failed = [task for task in tasks if task not in results["results"]]
    if done.returncode or failed:
        return Step("run", False, f"exit status {done.returncode}; no results for {', '.join(failed) or 'none'}: {_tail(done)}")
    docs = sum(results["n-samples"][task]["effective"] for task in tasks)
    return Step("run", True, f"all {len(tasks)} tasks ran with --limit {LIMIT} ({docs} docs, model {RUN_MODEL}) on {data}/<benchmark>/, the YAMLs' dataset_path pointed there in a temporary copy")


def run_checks(tasks_dir: Path, folders: Sequence[ExportedFolder], data: Optional[Path], work: Path) -> List[Step]:
    overlay = install_overlay(work / "overlay", tasks_dir)
    steps = [lint(tasks_dir, folders, work)]
    report = _probe(tasks_dir, folders, overlay, work)
    return steps + [imports(report), task_manager(report, folders), data_route(folders), run_tasks(tasks_dir, folders, overlay, data, work)]
