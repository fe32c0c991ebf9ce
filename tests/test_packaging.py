"""The project stands on its own: the built wheel holds only ``temporal_bench/...`` with every file
the tasks and the demo need; installed (not editable) into a fresh virtual environment
(tests/installed_wheel.py), lmms-eval indexes every task YAML of it (the demo from a folder outside
the checkout: tests/test_demo.py); nothing in the repository reaches outside it."""

import re
import zipfile
from pathlib import Path

import pytest

from temporal_bench.paths import LMMS_EVAL_TASK_DIR
from tests.installed_wheel import REPO, build_wheel, fresh_environment, run

PACKAGE_DIRS = {"tempvs": "tempvs", "isobench": "isobench", "catbench": "catbench", "utils": "utils",
                "lmms_eval_tasks": "lmms_eval_tasks", "": "temporal_bench"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    return build_wheel(tmp_path_factory.mktemp("wheel"))


@pytest.fixture(scope="module")
def fresh_env(tmp_path_factory, wheel) -> Path:
    return fresh_environment(tmp_path_factory.mktemp("fresh") / "venv", wheel)


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


def test_lmms_eval_indexes_every_task_yaml_of_the_installed_package(fresh_env, tmp_path):
    names = {match for path in LMMS_EVAL_TASK_DIR.rglob("*.yaml")
             for match in re.findall(r"^(?:task|group): (\S+)$", path.read_text(encoding="utf-8"), flags=re.M)}
    code = ("import lmms_eval.models\nfrom lmms_eval.tasks import TaskManager\n"
            "print('\\n'.join(TaskManager('WARNING', include_defaults=False).all_tasks))")
    indexed = set(run([str(fresh_env / "bin" / "python"), "-c", code], cwd=tmp_path).stdout.split())
    assert names and names <= indexed, sorted(names - indexed)


def test_nothing_in_the_repository_reads_a_path_outside_it():
    tracked = run(["git", "ls-files"], cwd=REPO).stdout.split()
    offenders = [name for name in tracked if name.endswith((".py", ".sh", ".cfg", ".toml", ".yaml", "_yaml"))
                 and any(marker in (REPO / name).read_text(encoding="utf-8")
                         for marker in ("../shared", '/ "shared"', "parents[2].parent"))
                 and name != "tests/test_packaging.py"]
    assert not offenders
