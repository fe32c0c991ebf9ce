"""The project as a user installs it. The built wheel holds only ``temporal_bench/...`` with every
file the tasks and the demo need. Installed (not editable) into a fresh virtual environment, which
takes its dependencies (torch, lmms-eval, ...) from the test's own through a ``.pth`` line (nothing is
downloaded; the project itself comes only from the wheel, never from the editable install's
finder): lmms-eval indexes every task YAML of it, and the installed console script runs the README's
main job, the demo, from a folder outside the checkout, on smaller demo data (every task, report and
page the demo writes, in seconds; the full demo's numbers are checked on the run of the documented
demo command, tests/e2e/test_documented_commands.py). Nothing in the repository reaches outside it."""

import json
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from temporal_bench.paths import LMMS_EVAL_TASK_DIR
from temporal_bench.report.layouts import LAYOUTS
from tests.harness import BIN, run_cli
from tests.paths import REPO

PACKAGE_DIRS = {"tempvs": "tempvs", "isobench": "isobench", "catbench": "catbench", "lmms_eval_tasks/_task_utils/temporal_reasoning": "utils", "lmms_eval_tasks": "lmms_eval_tasks", "": "temporal_bench"}


def _run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    assert result.returncode == 0, f"{command}\nstdout:\n{result.stdout[-3000:]}\nstderr:\n{result.stderr[-6000:]}"
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """Built from a copy of the working tree: setuptools builds in the source folder's ``build/``, where a
    stale module (or a concurrent build) would end up in the wheel."""
    out = tmp_path_factory.mktemp("wheel")
    source = out / "source"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(".git", ".venv", "build", "*.egg-info", "__pycache__", "demo_output"))
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w", str(out), str(source)], cwd=out)
    [built] = out.glob("*.whl")
    return built


@pytest.fixture(scope="module")
def fresh_env(tmp_path_factory, wheel) -> Path:
    env = tmp_path_factory.mktemp("fresh") / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(env)])  # the test's pip installs into it (--python)
    python = env / "bin" / "python"
    site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q", str(wheel)])
    return env


# One process of the fresh environment's Python, from a folder outside the checkout (one start of torch and lmms-eval
# instead of two): first what it finds, the task names a TaskManager built as a Python user builds one indexes (our
# package not imported: registered by its entry point), then where the package's templates and task folder are; then
# the installed console script, run as its shebang line runs it, on the demo data at the smallest sizes that still
# fill every table and figure the demo writes (the demo's own sizes, for its chance-level checks, take a minute more:
# tests/e2e/test_documented_demo.py runs them).
INSTALLED = """
import functools, json, pathlib, runpy, sys
import lmms_eval.evaluator
from lmms_eval.tasks import TaskManager
manager = TaskManager("WARNING")
import temporal_bench.tempvs.fixtures as f, temporal_bench.paths as p
found = {"paths": [str(f.TEMPLATES_DIR), str(p.LMMS_EVAL_TASK_DIR)], "tasks": list(manager.all_tasks), "include_path": manager.include_path}
pathlib.Path(sys.argv[1]).write_text(json.dumps(found))
from temporal_bench import demo
from temporal_bench.catbench.fixtures import write_fixture as catbench
from temporal_bench.isobench.fixtures import write_fixture as isobench
from temporal_bench.tempvs.fixtures import write_fixture as tempvs
small = {"catbench": functools.partial(catbench, n_plans=2, pairs_per_class=3), "isobench": functools.partial(isobench, n=12), "tempvs": functools.partial(tempvs, n_sequences=2)}
assert set(demo.DEMO_BENCHMARKS) == set(small), sorted(demo.DEMO_BENCHMARKS)
demo.DEMO_BENCHMARKS = {name: part._replace(write_data=small[name]) for name, part in demo.DEMO_BENCHMARKS.items()}
sys.argv = sys.argv[2:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


@pytest.fixture(scope="module")
def installed_run(fresh_env, tmp_path_factory):
    """(what the fresh environment's Python found, the demo's output folder, the demo's log)."""
    base = tmp_path_factory.mktemp("installed")
    cwd, found, output = base / "elsewhere", base / "found.json", base / "demo"
    cwd.mkdir()
    script = fresh_env / "bin" / "temporal-bench"
    log = _run([str(fresh_env / "bin" / "python"), "-c", INSTALLED, str(found), str(script), "demo", "--output-dir", str(output)], cwd=cwd)
    return json.loads(found.read_text()), output, log


@pytest.fixture(scope="module")
def installed(installed_run) -> dict:
    return installed_run[0]


@pytest.fixture(scope="module")
def demo(installed_run):
    """``temporal-bench demo --output-dir <folder>`` of the installed wheel on small demo data: (output folder, log)."""
    return installed_run[1:]


def _repository_files(folder: str):
    return {p.relative_to(REPO / folder).as_posix() for p in (REPO / folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts}


def test_wheel_holds_only_the_one_import_name_and_every_shipped_file(wheel):
    names = [n for n in zipfile.ZipFile(wheel).namelist() if ".dist-info/" not in n]
    assert names and all(n.startswith("temporal_bench/") for n in names), sorted({n.split("/")[0] for n in names})
    shipped = set(names)
    for package, folder in PACKAGE_DIRS.items():
        prefix = "temporal_bench/" + (package + "/" if package else "")
        missing = {f for f in _repository_files(folder) if not f.startswith(tuple(PACKAGE_DIRS.values()))}
        missing = {f for f in missing if prefix + f not in shipped}
        assert not missing, f"{folder}/ files absent from the wheel: {sorted(missing)}"


def test_the_installed_package_is_the_wheels_and_lmms_eval_indexes_every_task_yaml(fresh_env, installed):
    assert all(Path(p).is_relative_to(fresh_env) for p in installed["paths"]), installed["paths"]
    names = {match for path in LMMS_EVAL_TASK_DIR.rglob("*.yaml") for match in re.findall(r"^(?:task|group): (\S+)$", path.read_text(encoding="utf-8"), flags=re.M)}
    assert names and names <= set(installed["tasks"]), sorted(names - set(installed["tasks"]))
    assert "mmmu_val" in installed["tasks"] and installed["include_path"] is None  # lmms-eval's own tasks too; the user's include_path untouched


def test_the_installed_demo_writes_its_results_and_report_from_another_folder(demo, fresh_env):
    output, log = demo
    assert list((output / "results").rglob("*_results.json")), log.stdout[-3000:]
    # every layout the demo writes (tests/e2e/test_documented_commands.py checks them on the full demo), and its page
    assert {path.stem for path in (output / "report").glob("*.md")} == set(LAYOUTS) - {"tempvs-table12"}
    assert (output / "browse.html").is_file()
    # the environment's commands are not on PATH (as after `bash run_demo.sh`): the last line says how to call them
    assert log.stdout.endswith(f"`source {fresh_env / 'bin' / 'activate'}` to call them by name, e.g. `temporal-bench check {output}`, or call them by path: `{fresh_env / 'bin' / 'temporal-bench'} check {output}`.\n")


def test_nothing_in_the_repository_reads_a_path_outside_it():
    tracked = [name for name in _run(["git", "ls-files"], cwd=REPO).stdout.split() if (REPO / name).is_file()]  # a deletion not yet committed: gone
    offenders = [
        name
        for name in tracked
        if name.endswith((".py", ".sh", ".cfg", ".toml", ".yaml", "_yaml"))
        and any(marker in (REPO / name).read_text(encoding="utf-8") for marker in ("../shared", '/ "shared"', "parents[2].parent"))
        and name != "tests/e2e/test_packaging.py"
    ]
    assert not offenders


def test_the_demo_folder_is_one_run_for_compare_and_check(demo):
    """(The commands of the checkout: what matters is the folder the installed demo wrote.)"""
    output, _ = demo
    compared = run_cli([str(BIN / "temporal-bench"), "compare", str(output), str(output)], output.parent)
    [results_file] = (output / "results").glob("*_results.json")
    assert f"- A: **random_choice (seed=1234)**, `{results_file.as_posix()}`" in compared.stdout, compared.stderr[-3000:]
    assert run_cli([str(BIN / "temporal-bench"), "check", str(output)], output.parent).stdout.splitlines()[-1].startswith("check: OK: 1 run(s), 17 task(s), ")
