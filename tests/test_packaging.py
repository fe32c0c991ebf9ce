"""The project stands on its own: the built wheel holds only ``temporal_bench/...`` with every file
the tasks and the demo need, and, installed (not editable) into a fresh virtual environment, runs
the demo from a folder outside the checkout; nothing in the repository reaches outside it.

The fresh environment takes its dependencies (torch, lmms-eval, ...) from the test's own
environment through a ``.pth`` line, so no package is downloaded; the project itself comes only
from the wheel (the editable install's finder is not loaded there, which the test checks)."""

import re
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from temporal_bench.paths import LMMS_EVAL_TASK_DIR

REPO = Path(__file__).resolve().parents[1]
PACKAGE_DIRS = {"tempvs": "tempvs", "isobench": "isobench", "catbench": "catbench", "utils": "utils",
                "lmms_eval_tasks": "lmms_eval_tasks", "": "temporal_bench"}


def _run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    assert result.returncode == 0, f"{command}\nstdout:\n{result.stdout[-3000:]}\nstderr:\n{result.stderr[-6000:]}"
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q",
          "-w", str(out), str(REPO)], cwd=out)
    [built] = out.glob("*.whl")
    return built


@pytest.fixture(scope="module")
def fresh_env(tmp_path_factory, wheel) -> Path:
    env = tmp_path_factory.mktemp("fresh") / "venv"
    _run([sys.executable, "-m", "venv", str(env)])
    python = env / "bin" / "python"
    site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)])
    return env


def _repository_files(folder: str):
    return {p.relative_to(REPO / folder).as_posix() for p in (REPO / folder).rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}


def test_wheel_holds_only_the_one_import_name_and_every_shipped_file(wheel):
    names = [n for n in zipfile.ZipFile(wheel).namelist() if ".dist-info/" not in n]
    assert names and all(n.startswith("temporal_bench/") for n in names), sorted({n.split("/")[0] for n in names})
    shipped = set(names)
    for package, folder in PACKAGE_DIRS.items():
        prefix = "temporal_bench/" + (package + "/" if package else "")
        missing = {f for f in _repository_files(folder) if not f.startswith(tuple(PACKAGE_DIRS.values()))}
        missing = {f for f in missing if prefix + f not in shipped}
        assert not missing, f"{folder}/ files absent from the wheel: {sorted(missing)}"


def test_wheel_in_a_fresh_environment_runs_the_demo_from_another_folder(fresh_env, tmp_path):
    python = fresh_env / "bin" / "python"
    where = _run([str(python), "-c", "import temporal_bench.tempvs.fixtures as f, temporal_bench.paths as p; "
                  "print(f.TEMPLATES_DIR); print(p.LMMS_EVAL_TASK_DIR)"], cwd=tmp_path).stdout.split()
    assert all(Path(p).is_relative_to(fresh_env) for p in where), where
    cwd, output = tmp_path / "elsewhere", tmp_path / "demo_output"
    cwd.mkdir()
    log = _run([str(fresh_env / "bin" / "temporal-bench"), "demo", "--output", str(output)], cwd=cwd)
    results = list((output / "results").rglob("*_results.json"))
    assert results, log.stdout[-3000:]
    assert (output / "report" / "tempvs-table3.md").is_file()


def test_lmms_eval_indexes_every_task_yaml_of_the_installed_package(fresh_env, tmp_path):
    names = {match for path in LMMS_EVAL_TASK_DIR.rglob("*.yaml")
             for match in re.findall(r"^(?:task|group): (\S+)$", path.read_text(encoding="utf-8"), flags=re.M)}
    code = ("import lmms_eval.models\nfrom lmms_eval.tasks import TaskManager\n"
            "print('\\n'.join(TaskManager('WARNING').all_tasks))")
    indexed = set(_run([str(fresh_env / "bin" / "python"), "-c", code], cwd=tmp_path).stdout.split())
    assert names and names <= indexed, sorted(names - indexed)


def test_nothing_in_the_repository_reads_a_path_outside_it():
    tracked = _run(["git", "ls-files"], cwd=REPO).stdout.split()
    offenders = [name for name in tracked if name.endswith((".py", ".sh", ".cfg", ".toml", ".yaml", "_yaml"))
                 and any(marker in (REPO / name).read_text(encoding="utf-8")
                         for marker in ("../shared", '/ "shared"', "parents[2].parent"))
                 and name != "tests/test_packaging.py"]
    assert not offenders
